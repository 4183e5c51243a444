#!/usr/bin/env python3
"""tools/pingpong_model.py [--mutate] [--seed N] [--trials N]: a model checker for the ping-pong turn
rule between the consumer warpgroups of src/cuda/sm90/fwd_kernel.h (my_turn, hand_over, turns,
next_cw, live_consumers in the consumer part of that file).

Model. K consumer warpgroups (K = 2, 3) and named barriers 1..K; barrier 1 + cw is warpgroup cw's.
A phase of a barrier completes when its owner syncs (bar.sync 1 + cw, 256: its own 128 threads)
and one arrival (bar.arrive, 256: another warpgroup's 128 threads) is registered. Each barrier
holds a count of pending arrivals; the owner's sync blocks until one is pending, then consumes it.
Two arrivals pending at once is an ERROR (the hardware would count 256 threads without the owner
and complete the phase wrongly). Warpgroup K-1 first arrives once on barrier 1 (warpgroup 0 goes
first). All warpgroups walk the same tiles; a tile has n_count key blocks (>= 0) and L live
warpgroups (1..K; cw >= L is idle: fwd90_live_consumers). Per tile, warpgroup cw sets
turns = L > 1 and next_cw = cw + 1 if cw + 1 < L else 0; an idle warpgroup, or any with
n_count == 0, takes no turn; otherwise it takes n_count + 1 turns, each a sync on barrier 1 + cw
then an arrive on barrier 1 + next_cw (both only if turns). After the last tile warpgroup 0
syncs on barrier 1 once. At the end every barrier must have no arrival pending and every
warpgroup must have finished (no deadlock: some warpgroup unfinished and none runnable).

Checked: random tile sequences (1..6 tiles, n_count 0..4, L 1..K) and every sequence of up to 3
tiles with n_count 0..2 and every L, each under several random interleavings (at each step a
random runnable warpgroup takes its next operation). --mutate uses the old rule
next_cw = (cw + 1) % K (ignoring L; idle warpgroups still take no turn), which the checker must
refute (a deadlock or a double arrival at K = 3; at K = 2 the two rules agree: L = 2 gives the
same next_cw, L = 1 no turns). Prints one line per K; exit 0 if every run passed, else 1.
"""
import argparse
import itertools
import random
import sys

INTERLEAVINGS = 6  # random interleavings per tile sequence


def program(cw, K, tiles, mutate):
    """The operations of warpgroup cw: a list of ('sync' | 'arrive', barrier, tile index)."""
    ops = []
    if K > 1 and cw == K - 1:
        ops.append(("arrive", 1, -1))  # warpgroup 0 goes first
    for t, (n_count, live) in enumerate(tiles):
        turns = K > 1 and live > 1
        next_cw = (cw + 1) % K if mutate else (cw + 1 if cw + 1 < live else 0)
        if cw >= live or n_count == 0 or not turns:
            continue
        for _ in range(n_count + 1):
            ops.append(("sync", 1 + cw, t))
            ops.append(("arrive", 1 + next_cw, t))
    if K > 1 and cw == 0:
        ops.append(("sync", 1, len(tiles)))  # the turn handed to warpgroup 0 last
    return ops


def simulate(K, tiles, mutate, rng):
    """One random interleaving. Returns None if it passes, else (what went wrong, trace)."""
    progs = [program(cw, K, tiles, mutate) for cw in range(K)]
    pc = [0] * K
    pending = [0] * (K + 1)  # pending[b]: arrivals registered on barrier b, not yet consumed
    trace = []
    while True:
        runnable = [cw for cw in range(K) if pc[cw] < len(progs[cw])
                    and (progs[cw][pc[cw]][0] == "arrive" or pending[progs[cw][pc[cw]][1]] > 0)]
        if not runnable:
            break
        cw = rng.choice(runnable)
        op, bar, t = progs[cw][pc[cw]]
        pc[cw] += 1
        where = "start" if t < 0 else "end" if t == len(tiles) else f"tile {t}"
        trace.append(f"wg{cw} {op} bar{bar} ({where})")
        if op == "sync":
            pending[bar] -= 1
        else:
            pending[bar] += 1
            if pending[bar] > 1:
                return f"double arrival on bar{bar}", trace
    stuck = [f"wg{cw} at {progs[cw][pc[cw]][0]} bar{progs[cw][pc[cw]][1]}"
             for cw in range(K) if pc[cw] < len(progs[cw])]
    if stuck:
        return "deadlock: " + ", ".join(stuck), trace
    left = [f"bar{b}={pending[b]}" for b in range(1, K + 1) if pending[b]]
    if left:
        return "arrivals left pending at the end: " + ", ".join(left), trace
    return None


def sequences(K, trials, rng):
    """Every sequence of up to 3 tiles with n_count 0..2, then `trials` random ones."""
    kinds = [(n, live) for n in range(3) for live in range(1, K + 1)]
    for length in range(1, 4):
        yield from (list(s) for s in itertools.product(kinds, repeat=length))
    for _ in range(trials):
        yield [(rng.randint(0, 4), rng.randint(1, K)) for _ in range(rng.randint(1, 6))]


def check(K, trials, mutate, rng):
    runs = failures = 0
    first = None
    nseq = 0
    for tiles in sequences(K, trials, rng):
        nseq += 1
        for _ in range(INTERLEAVINGS):
            runs += 1
            bad = simulate(K, tiles, mutate, rng)
            if bad is not None:
                failures += 1
                if first is None:
                    first = (tiles, *bad)
    return nseq, runs, failures, first


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutate", action="store_true", help="old rule: next_cw = (cw + 1) %% K")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trials", type=int, default=3000, help="random tile sequences per K")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    ok = True
    for K in (2, 3):
        nseq, runs, failures, first = check(K, args.trials, args.mutate, rng)
        rule = "old rule (mutated)" if args.mutate else "rule"
        verdict = "PASS" if failures == 0 else f"FAIL ({failures} failing runs)"
        print(f"K={K} {rule}: {nseq} tile sequences x {INTERLEAVINGS} interleavings = {runs} runs: {verdict}")
        if first is not None:
            ok = False
            tiles, what, trace = first
            print(f"  counterexample: tiles (n_count, live) = {tiles}: {what}")
            print("  trace: " + "; ".join(trace))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
