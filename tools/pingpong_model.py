#!/usr/bin/env python3
"""tools/pingpong_model.py [--mutate] [--no-pingpong] [--seed N] [--trials N]: a model checker for the
ping-pong turn rule between the consumer warpgroups of src/cuda/sm90/fwd_kernel.h (my_turn,
hand_over, turns, next_cw, live_consumers in the consumer part of that file) and for the K ring's
mbarriers (k_full, k_empty; issue_s, release_k, and the producer's mbar_arrive(k_empty + st, c_idle)).

Turns. K consumer warpgroups (K = 2, 3) and named barriers 1..K; barrier 1 + cw is warpgroup cw's.
A phase of a barrier completes when its owner syncs (bar.sync 1 + cw, 256: its own 128 threads)
and one arrival (bar.arrive, 256: another warpgroup's 128 threads) is registered. Each barrier
holds a count of pending arrivals; the owner's sync blocks until one is pending, then consumes it.
Two arrivals pending at once is an ERROR (the hardware would count 256 threads without the owner
and complete the phase wrongly). Warpgroup K-1 first arrives once on barrier 1 (warpgroup 0 goes
first). All warpgroups walk the same tiles; a tile has n_count key blocks (>= 0) and L live
warpgroups (1..K; cw >= L is idle: fwd90_live_consumers). Per tile, warpgroup cw sets
turns = pingpong and L > 1 and next_cw = cw + 1 if cw + 1 < L else 0; an idle warpgroup, or any
with n_count == 0, takes no turn; otherwise it takes n_count + 1 turns, each a sync on barrier
1 + cw then an arrive on barrier 1 + next_cw (both only if turns). After the last tile warpgroup 0
syncs on barrier 1 once (with ping-pong on).

K ring (V is symmetric and not modelled). S = 2 stages; key blocks get global use indices
u = 0, 1, ... over the tile sequence; use u takes stage s = u % S, phase p = u // S of it.
k_full[s] counts its completed phases; k_empty[s] counts arrivals in its current phase and
completes a phase at K arrivals (one per consumer warpgroup). The producer, per use u: waits
until k_empty[s] has completed phase p - 1 (the phase of use u - S; none for u < S), arrives
K - L times for the tile's idle warpgroups, then loads (k_full[s] completes phase p). A live
warpgroup, per key block i of the tile (use u): in turn i it waits on k_full[s] for phase p
(issue_s: mbar_wait, parity p & 1) and after that turn's hand over (the S GEMM complete) arrives
once on k_empty[s] (release_k); its last turn (n_count) issues only P V. An idle warpgroup skips
the tile's uses (its u advances by n_count). A parity wait cannot tell phase p from phase p - 2:
with c phases of k_full[s] complete it passes once c & 1 != p & 1, which is right only if c >= p.
A warpgroup sitting at the wait with c < p is an ERROR "stale parity wait" (it polls until c
reaches p - 1 and then passes on the wrong phase: the check is exact, not merely conservative).
Also ERRORs: an arrival on k_empty[s] outside the phase of its use.

At the end every named barrier must have no arrival pending, every k_full / k_empty phase must be
complete, and every actor must have finished (no deadlock: one unfinished and none runnable).

Checked: every sequence of up to 3 tiles with n_count 0..2 and every L, and random sequences
(1..6 tiles, n_count 0..4), each under several random interleavings (at each step a random
runnable actor among the producer and the consumers takes its next operation; the producer may
be chosen rarely, so it can run late). --mutate uses the old rule next_cw = (cw + 1) % K (ignoring
L), which the checker must refute at K = 3 (at K = 2 the two rules agree). --no-pingpong takes no
turns (FLASHATTN_SM90_PINGPONG=0) but keeps the idle warpgroups skipping (the kernel does not:
live_consumers skips only with ping-pong on); the checker must then find a stale parity wait
(an idle warpgroup runs S + 1 or more uses ahead of the producer). Prints one line per K; exit 0
if every run passed, else 1.
"""
import argparse
import itertools
import random
import sys

S = 2              # K/V ring stages
INTERLEAVINGS = 6  # random interleavings per tile sequence
SKIP_NO_TURN = False  # --skip-no-turn: a mutation (skipping warpgroups take no empty turns)


def program(cw, K, tiles, mutate, pingpong):
    """Warpgroup cw's operations: (op, arg, tile index); op 'sync' | 'arrive' (arg: named barrier),
    'kwait' (wait k_full for use arg) or 'krel' (arrive on k_empty for use arg)."""
    ops = []
    if pingpong and K > 1 and cw == K - 1:
        ops.append(("arrive", 1, -1))  # warpgroup 0 goes first
    u = 0
    for t, (n_count, live, skips) in enumerate(tiles):
        turns = pingpong and live > 1
        next_cw = (cw + 1) % K if mutate else (cw + 1 if cw + 1 < live else 0)
        if cw >= live or n_count == 0:
            u += n_count  # idle: it0 += n_count
            continue
        skip = skips[cw] if turns else 0
        if skip > 0:
            # Empty turns for the key blocks it skips (n_count + 1 when it skips them all), then
            # the rest of the tile's blocks from use u + skip.
            for _ in range(0 if SKIP_NO_TURN else skip if skip < n_count else n_count + 1):
                ops.append(("sync", 1 + cw, t))
                ops.append(("arrive", 1 + next_cw, t))
            s = min(skip, n_count)
            u += s
            n_count -= s
            if n_count == 0:
                continue
        for i in range(n_count + 1):  # turn i: S_i (i < n_count) and P V_{i-1}
            if turns:
                ops.append(("sync", 1 + cw, t))
            if i < n_count:
                ops.append(("kwait", u + i, t))
            if turns:
                ops.append(("arrive", 1 + next_cw, t))
            if i < n_count:
                ops.append(("krel", u + i, t))
        u += n_count
    if pingpong and K > 1 and cw == 0:
        ops.append(("sync", 1, len(tiles)))  # the turn handed to warpgroup 0 last
    return ops


def arrivals(K, live, skips, i):
    """The producer's arrivals on k_empty for key block i of a tile: the idle warpgroups' and those
    of the live ones that skip the block (skips[w] > i; only with turns, as the kernel)."""
    return K - live + sum(1 for w in range(live) if skips[w] > i)


def producer(K, tiles):
    """The producer's operations: 'pwait' (k_empty phase of use u - S), 'pidle' (K - L arrivals on
    k_empty for use u), 'load' (k_full completes use u's phase)."""
    ops = []
    u = 0
    for t, (n_count, live, skips) in enumerate(tiles):
        for i in range(n_count):
            if u >= S:
                ops.append(("pwait", u, t))
            if arrivals(K, live, skips, i) > 0:
                ops.append(("pidle", u, t))
            ops.append(("load", u, t))
            u += 1
    return ops


def simulate(K, tiles, mutate, pingpong, rng):
    """One random interleaving. Returns None if it passes, else (what went wrong, trace)."""
    progs = [program(cw, K, tiles, mutate, pingpong) for cw in range(K)] + [producer(K, tiles)]
    names = [f"wg{cw}" for cw in range(K)] + ["prod"]
    pc = [0] * (K + 1)
    pending = [0] * (K + 1)   # pending[b]: arrivals registered on named barrier b, not yet consumed
    k_full = [0] * S          # completed phases
    e_done = [0] * S          # k_empty: completed phases
    e_arr = [0] * S           # k_empty: arrivals in the current phase
    slow = rng.choice([1.0, 0.3, 0.05])  # weight of the producer (a late producer, at times)
    trace = []

    def empty_arrive(u, count, who):
        s, p = u % S, u // S
        if e_done[s] != p:
            return f"{who} arrives on k_empty[{s}] for use {u} (phase {p}) with {e_done[s]} phases complete"
        e_arr[s] += count
        if e_arr[s] == K:
            e_done[s] += 1
            e_arr[s] = 0
        return None

    while True:
        runnable = []
        for a in range(K + 1):
            if pc[a] >= len(progs[a]):
                continue
            op, arg, t = progs[a][pc[a]]
            if op == "kwait":
                s, p = arg % S, arg // S
                if k_full[s] < p:
                    return (f"stale parity wait: {names[a]} waits on k_full[{s}] for phase {p} (use {arg}, "
                            f"tile {t}) with {k_full[s]} phases complete", trace)
                ready = k_full[s] >= p + 1
            elif op == "sync":
                ready = pending[arg] > 0
            elif op == "pwait":
                ready = e_done[arg % S] >= arg // S
            else:
                ready = True
            if ready:
                runnable.append(a)
        if not runnable:
            break
        weights = [slow if a == K else 1.0 for a in runnable]
        a = rng.choices(runnable, weights)[0]
        op, arg, t = progs[a][pc[a]]
        pc[a] += 1
        where = "start" if t < 0 else "end" if t == len(tiles) else f"tile {t}"
        what = f"bar{arg}" if op in ("sync", "arrive") else f"u{arg}"
        trace.append(f"{names[a]} {op} {what} ({where})")
        if op == "sync":
            pending[arg] -= 1
        elif op == "arrive":
            pending[arg] += 1
            if pending[arg] > 1:
                return f"double arrival on bar{arg}", trace
        elif op in ("krel", "pidle"):
            n_count, live, skips = tiles[t]
            i = arg - sum(n for n, _, _ in tiles[:t])
            bad = empty_arrive(arg, 1 if op == "krel" else arrivals(K, live, skips, i), names[a])
            if bad:
                return bad, trace
        elif op == "load":
            k_full[arg % S] += 1
    stuck = [f"{names[a]} at {progs[a][pc[a]][0]} {progs[a][pc[a]][1]}"
             for a in range(K + 1) if pc[a] < len(progs[a])]
    if stuck:
        return "deadlock: " + ", ".join(stuck), trace
    left = [f"bar{b}={pending[b]}" for b in range(1, K + 1) if pending[b]]
    if left:
        return "arrivals left pending at the end: " + ", ".join(left), trace
    uses = sum(n for n, _, _ in tiles)
    want = [len(range(s, uses, S)) for s in range(S)]
    if k_full != want or e_done != want or any(e_arr):
        return f"ring not settled: k_full {k_full}, k_empty {e_done} + {e_arr}, uses {want}", trace
    return None


def sequences(K, trials, rng, no_skip=False):
    """Every sequence of up to 3 tiles with n_count 0..2 (twice, with random skip counts), then
    `trials` random ones."""
    def skips(n, live, r):
        # The kernel's skip counts (fwd90_skip_blocks): 0 .. n_count for every live warpgroup but
        # the last (whose rows hold the tile's last row: it sees the first block), none without
        # turns (live == 1) or with --no-skip.
        if no_skip or live == 1:
            return (0,) * K
        return tuple(r.randint(0, n) if w < live - 1 else 0 for w in range(K))

    kinds = [(n, live) for n in range(3) for live in range(1, K + 1)]
    for length in range(1, 4):
        for seq in itertools.product(kinds, repeat=length):
            for _ in range(2):
                yield [(n, live, skips(n, live, rng)) for n, live in seq]
    for _ in range(trials):
        seq = [(rng.randint(0, 4), rng.randint(1, K)) for _ in range(rng.randint(1, 6))]
        yield [(n, live, skips(n, live, rng)) for n, live in seq]


def check(K, trials, mutate, pingpong, rng, no_skip=False):
    runs = failures = 0
    first = None
    nseq = 0
    for tiles in sequences(K, trials, rng, no_skip):
        nseq += 1
        for _ in range(INTERLEAVINGS):
            runs += 1
            bad = simulate(K, tiles, mutate, pingpong, rng)
            if bad is not None:
                failures += 1
                if first is None or len(bad[1]) < len(first[2]):  # keep the shortest
                    first = (tiles, *bad)
    return nseq, runs, failures, first


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutate", action="store_true", help="old rule: next_cw = (cw + 1) %% K")
    ap.add_argument("--no-pingpong", action="store_true", help="no turns (idle warpgroups still skip)")
    ap.add_argument("--no-skip", action="store_true", help="no warpgroup skips masked key blocks")
    ap.add_argument("--skip-no-turn", action="store_true",
                    help="mutation: skipping warpgroups take no empty turns (the checker must refute it)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trials", type=int, default=3000, help="random tile sequences per K")
    args = ap.parse_args()
    global SKIP_NO_TURN
    SKIP_NO_TURN = args.skip_no_turn
    rng = random.Random(args.seed)
    pingpong = not args.no_pingpong
    ok = True
    for K in (2, 3):
        # (warpgroups skip masked key blocks only with turns: the kernel's rule, fwd_kernel.h)
        nseq, runs, failures, first = check(K, args.trials, args.mutate, pingpong, rng, args.no_skip or not pingpong)
        rule = ("old rule (mutated)" if args.mutate else "rule") + ("" if pingpong else ", ping-pong off") + (
            ", skips without empty turns (mutated)" if args.skip_no_turn else ", no skips" if args.no_skip else "")
        verdict = "PASS" if failures == 0 else f"FAIL ({failures} failing runs)"
        print(f"K={K} {rule}: {nseq} tile sequences x {INTERLEAVINGS} interleavings = {runs} runs: {verdict}")
        if first is not None:
            ok = False
            tiles, what, trace = first
            print(f"  counterexample: tiles (n_count, live) = {tiles}: {what}")
            print("  trace: " + ("; ".join(trace) or "(none: the wait is the first operation of the run)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
