#!/usr/bin/env python3
"""Runs pairsim (the model of the sm90 backward's key-block pair protocol, bwd_kernel.h kPair) over
random seeds and configurations: the protocol as written, and mutations of it that the checker must
catch. Session 30 (the st.async variant, replaced in 8c09ff0): base 3000 runs x up to 50 steps, 0
failures; every mutation but rearm_after caught. Variant 2 (8c09ff0, one bulk copy by the writer;
session 31): base 3000 runs x up to 50 steps, 0 failures (880 s on 2 cores); muts 400 x up to 16
(270 s): all 21 caught but rearm_after, harmless (named above MUTS; its tx < 0 case reached in 18
runs). Run it after changing the protocol.
usage: drive.py base|fine RUNS NMAX | drive.py muts RUNS NMAX [MUT,...] | drive.py one MUT SEED N KUSES T LAYOUT [LINES]
(MUT "-": none)"""
import multiprocessing as mp
import random
import sys
import time

import pairsim

# Mutations (pairsim names; "+" combines). Harmless by design: rearm_after (a copy that completes
# before the re-arm leaves tx < 0 with the re-arm's arrival pending, so the phase waits for it;
# PTX allows a negative tx-count). no_syncwarp is caught: lane 0 issues the TMA reduce of the half
# before the other lanes' adds into it.
MUTS = [
    "empty32", "rearm_after", "no_rearm", "no_init_tx", "no_wait_empty", "cons_parity", "stg_parity",
    "no_stg_wait", "arrive_before_read", "remote_before_add", "remote_before_wait", "no_remote_arrive",
    "stg_bytes_data", "rearm_bytes_data", "copy_bytes_data", "copy_before_full", "copy_own_half",
    "no_syncwarp", "no_init_cluster_sync", "no_final_cluster_sync", "dq_full_128",
]


FINE = False


def cfg(i, nmax):
    r = random.Random(1000003 * i + 7 + (555 if FINE else 0))
    N = r.randint(1, nmax)
    kuses = r.choice([1, 1, 2])
    T = r.choice([32, 32, 8, 4])  # threads per consumer unit (T=1: see `fine`)
    layout = r.choice(["bm64", "bm128"])
    if FINE:
        T = 1  # every consumer thread its own actor
    return (i, N, kuses, T, 2, layout)


def job(args):
    (seed, N, kuses, T, chunks, layout), mut = args
    try:
        e, sim = pairsim.one(seed, N, kuses, T, chunks, layout, tuple(mut.split("+")) if mut else ())
    except Exception as x:  # a bug of the model (a StopIteration would end imap_unordered silently)
        return seed, N, kuses, T, layout, mut, f"[model] {type(x).__name__}: {x}", 0, 0, 0
    return seed, N, kuses, T, layout, mut, e, sim.step, sim.min_tx, sim.overlap


def main():
    mode = sys.argv[1]
    if mode == "one":
        mut, seed, N, kuses, T, layout = sys.argv[2], *map(int, sys.argv[3:7]), sys.argv[7]
        e, sim = pairsim.one(seed, N, kuses, T, 2, layout, tuple(mut.split("+")) if mut != "-" else (), True)
        print("\n".join(sim.trace[-int(sys.argv[8]) if len(sys.argv) > 8 else -40:]))
        print("RESULT:", e or "ok", "steps", sim.step)
        return
    runs, nmax = int(sys.argv[2]), int(sys.argv[3])
    global FINE
    FINE = mode == "fine"
    muts = [""] if mode in ("base", "fine") else (sys.argv[4].split(",") if len(sys.argv) > 4 else MUTS)
    t0 = time.time()
    with mp.Pool(2) as pool:
        for mut in muts:
            jobs = [(cfg(i, nmax), mut) for i in range(runs)]
            fails, kinds, first, steps, nsteps, negtx, ovl = 0, {}, None, 0, 0, 0, 0
            done = 0
            for seed, N, kuses, T, layout, m, e, st, mtx, ov in pool.imap_unordered(job, jobs, chunksize=4):
                done += 1
                steps += st
                negtx += mtx < 0
                ovl += ov > 0
                nsteps += N
                if e:
                    fails += 1
                    k = e.split("]")[0].strip("[") if e.startswith("[") else e.split(":")[0]
                    kinds[k] = kinds.get(k, 0) + 1
                    if first is None or (N, seed) < (first[1], first[0]):
                        first = (seed, N, kuses, T, layout, e)
            assert done == runs, (done, runs)
            print(f"{mut or 'BASE'}: runs {runs} (dQ steps {nsteps}, events {steps}) failures {fails} {kinds} [runs with stg tx<0: {negtx}, with copy events during the same buffer's TMA read: {ovl}]"
                  + (f"\n   smallest: seed {first[0]} N {first[1]} kUses {first[2]} T {first[3]} {first[4]}: {first[5][:300]}"
                     if first else ""), flush=True)
    print(f"time {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
