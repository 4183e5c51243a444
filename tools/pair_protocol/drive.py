#!/usr/bin/env python3
"""Runs pairsim (the model of the sm90 backward's key-block pair protocol, bwd_kernel.h kPair) over
random seeds and configurations: the protocol as written, and mutations of it that the checker must
catch (session 30: base 3000 runs x up to 50 steps, 0 failures; every mutation but rearm_after
caught, which is harmless: the re-arm's arrival holds the phase). Run it after changing the
protocol. About a second a run, on all cores.
usage: drive.py base|fine RUNS NMAX | drive.py muts RUNS NMAX [MUT] | drive.py one MUT SEED N KUSES T LAYOUT"""
import multiprocessing as mp
import random
import sys
import time

import pairsim

MUTS = [
    "empty32", "rearm_after", "no_init_tx", "no_wait_empty", "cons_parity", "stg_parity", "no_stg_wait",
    "arrive_before_read", "remote_before_add", "stg_bytes_pad", "stg_bytes_small", "no_syncwarp",
    "no_init_cluster_sync", "no_final_cluster_sync", "dq_full_128", "rearm_after+no_syncwarp",
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
    e, sim = pairsim.one(seed, N, kuses, T, chunks, layout, tuple(mut.split("+")) if mut else ())
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
            for seed, N, kuses, T, layout, m, e, st, mtx, ov in pool.imap_unordered(job, jobs, chunksize=4):
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
            print(f"{mut or 'BASE'}: runs {runs} (dQ steps {nsteps}, events {steps}) failures {fails} {kinds} [runs with stg tx<0: {negtx}, with st.async landing during TMA read: {ovl}]"
                  + (f"\n   smallest: seed {first[0]} N {first[1]} kUses {first[2]} T {first[3]} {first[4]}: {first[5][:300]}"
                     if first else ""), flush=True)
    print(f"time {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
