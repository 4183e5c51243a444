#!/usr/bin/env python3
"""tools/pingpong_model.py [--mutate] [--no-pingpong] [--no-skip] [--skip-no-turn] [--skip-all]
[--fifo] [--s0-free] [--last-pv-free] [--early-s0] [--self-arrive] [--cluster]
[--cluster-producer-arrives] [--cluster-whole] [--cluster-idle-no-wait] [--cluster-no-trail]
[--cluster-trail-no-wait] [--cluster-trail-before-last-turn] [--stages S] [--seed N] [--trials N]:
a model checker for the ping-pong turn rule between the consumer
warpgroups of src/cuda/sm90/fwd_kernel.h (my_turn, hand_over, turns, next_cw, live_consumers and
the skip of masked key blocks in the consumer part of that file) and for the K and V rings'
mbarriers (k_full / v_full, k_empty / v_empty; issue_s, issue_pv, release_k, release_v, and the
producer's arrivals for the warpgroups that skip a block).

Turns. K consumer warpgroups (K = 2, 3) and named barriers 1..K; barrier 1 + cw is warpgroup cw's.
A phase of a barrier completes when its owner syncs (bar.sync 1 + cw, 256: its own 128 threads)
and one arrival (bar.arrive, 256: another warpgroup's 128 threads) is registered. Each barrier
holds a count of pending arrivals; the owner's sync blocks until one is pending, then consumes it.
Two arrivals pending at once is an ERROR (the hardware would count 256 threads without the owner
and complete the phase wrongly). Warpgroup K-1 first arrives once on barrier 1 (warpgroup 0 goes
first). All warpgroups walk the same tiles; a tile has n_count key blocks (>= 0), L live
warpgroups (1..K; cw >= L is idle: fwd90_live_consumers) and skip counts (config.h
fwd90_skip_blocks: each live warpgroup but the last skips the walk's first skip[cw] blocks, never
its last, 0 without turns). Per tile, warpgroup cw sets turns = pingpong and L > 1 and next_cw =
cw + 1 if cw + 1 < L else 0; an idle warpgroup, or any with n_count == 0, takes no turn; otherwise
it takes skip[cw] empty turns (a sync then an arrive) and n_count - skip[cw] + 1 turns for the rest
of the walk, each a sync on barrier 1 + cw then an arrive on barrier 1 + next_cw (both only if
turns). After the last tile warpgroup 0 syncs on barrier 1 once (with ping-pong on).

Rings. S = 2 stages each for K and V (--stages: 3 or 4, as head_dim 64's kernels have); key blocks get global use indices u = 0, 1, ... over the
tile sequence; use u takes stage s = u % S, phase p = u // S. full[s] counts its completed phases;
empty[s] counts arrivals in its current phase and completes a phase at K arrivals (one per
consumer warpgroup). The producer, per use u and per ring (K, then V): waits until empty[s] has
completed phase p - 1 (the phase of use u - S; none for u < S), arrives once for each warpgroup
that skips the block (idle, or skip[w] > i for block i of the tile), then issues the load. A
load lands later, in any order with the other loads in flight (a separate actor; --fifo: in issue
order), completing full[s]'s phase p. A warpgroup's turn i of its walk waits on k_full for block
i (issue_s) and on v_full for block i - 1 (issue_pv), hands over, then arrives once on k_empty for
block i (release_k) and v_empty for block i - 1 (release_v). A parity wait cannot tell phase p
from phase p - 2: with c phases of full[s] complete it passes once c & 1 != p & 1, which is right
only if c >= p. A warpgroup sitting at the wait with c < p is an ERROR "stale parity wait" (it
polls until c reaches p - 1 and then passes on the wrong phase: the check is exact, not merely
conservative). Also ERRORs: an arrival on empty[s] outside the phase of its use.

At the end every named barrier must have no arrival pending, every full / empty phase must be
complete, and every actor must have finished (no deadlock: one unfinished and none runnable).

Checked: every sequence of up to 3 tiles with n_count 0..2 and every L (with random skip counts,
twice), and random sequences (1..6 tiles, n_count 0..4), each under several random interleavings
(at each step a random runnable actor among the producer, the loads in flight and the consumers
takes its next operation; the producer and the loads may be chosen rarely, so they run late).
Mutations the checker must refute: --mutate, the old rule next_cw = (cw + 1) % K ignoring L (at
K = 3; at K = 2 the two rules agree); --no-pingpong, no turns but idle warpgroups still skipping
(the kernel skips only with ping-pong on: a stale parity wait); --skip-no-turn, skipping
warpgroups take no empty turns; --skip-all, a warpgroup whose rows see no key skips the whole walk
(n_count + 1 empty turns): a stale wait on V when it goes on to a tile without turns while the
walk's last V load is in flight (session 36's review found it; the kernel never skips the last
block); --s0-free, a tile's S_0 outside the turns (one turn fewer a tile): a warpgroup idle in the
tile before passes a stale parity wait on k_full (session 37); --last-pv-free, a tile's last P V
outside the turns: a stale wait on v_full after a skip (rarer: ~14 of 28,128 runs at K = 2).
Variants it must pass: --early-s0 (FLASHATTN_SM90_EARLY_S0's rule: S_0 and its softmax before the
S_0 turn where the warpgroup waited on the ring's last S uses itself), --stages 3 / 4. A design
not in the kernel yet: --self-arrive, every consumer warpgroup waits on and releases every use
itself (idle and skipping ones too, the producer arriving for none): its parity waits are then
exact by induction, and the turn structure is free of the rings (--s0-free, --last-pv-free,
--skip-all and --no-pingpong all pass with it).

Clusters (--cluster; fwd_kernel.h kCluster, K = 2): two CTAs walk one pair's key blocks, each
with its own warpgroups, named barriers, producer and rings. Each producer waits on its own empty
barrier, arrives on its own full barrier with the stage's bytes, and loads half of the block into
both CTAs (two landings, any order); a full phase completes on its producer's arrival and both
halves. Each empty barrier counts both CTAs' 2 K warpgroups: a release arrives on its own CTA's
at once and on the peer's later (a remote arrival in flight). The pairs' skips (pair_skips):
each rank's own, and under a causal mask rank 0's walk starts `lead` blocks later than the
pair's (all of it where its rows see no key), which all of its warpgroups skip first, the last
one included. The kernel's rule: a skipping warpgroup takes one empty turn a skipped use, waits
on its K and V and releases it in both CTAs, and the producer arrives for nobody (a whole walk:
n_count empty turns). ERRORs besides the above: the producer's arrival or a landing on a full
barrier outside the phase of its use. Without a causal mask (lead 0 and no skips, main's cluster
kernel) this is a special case. Mutation it must refute: --cluster-producer-arrives, the one-CTA
rule in the cluster (the producer arrives for the skippers on both CTAs' empty barriers; rank
0's last warpgroup skipping the lead blocks with nobody in that CTA waiting on them): a stale
parity wait (session 63's design had a wait-only turn for it; session 64's pair design waits in
every skipping warpgroup instead).
Partial pairs (session 65, bench/results/session65/partial-pairs.patch: fwd_kernel.h pass_block
and its `if (idle)` branch): rank 1's tile, the last of a head, may have 64 rows or fewer, so its
warpgroup 1 is idle (rank 0's tile has both live). In the tile sequences rank 1's tile has L = 1
or 2 (every combination in the enumerated ones, half of the random ones' tiles; --cluster-whole:
L = 2 always; with --cluster-no-trail the model before session 65, same output). An idle
warpgroup takes no turns (with one live warpgroup there are none) and, for each key block of the
walk in order, waits on its K and V full barriers with the use's parity itself, then releases it
in both CTAs (pass_block: the producer arrives for nobody), concurrently with the live
warpgroup's walk. Its live warpgroup 0 skips nothing (the last live one; no turns). Mutation it
must refute: --cluster-idle-no-wait, the idle warpgroup releasing each use without waiting on its
full barriers: it runs ahead of the ring and arrives on an empty barrier for a use whose previous
phase has not completed (an ERROR above: the arrival would count in the wrong phase).
Trailing passes (session 66, sliding windows): under a window rank 1's rows (the pair's upper 128
query rows) do not see the pair walk's last `trail` key blocks (the walk runs from the highest key
block down; rank 0's rows see lower keys; rank 0's trail is 0, and its `lead` and rank 1's trail
may come in one pair tile). In rank 1 each live warpgroup walks the first n_count - trail uses with
its turns as above (its own skips over that walk: fwd90_skip_blocks' 0 .. n_count - trail - 1 for
every live warpgroup but the last), then, after its walk's last turn (the last P V's) and outside
the turns, passes over the trailing uses in order as pass_block does: waits on their K and V full
barriers and releases them in both CTAs (the producer arrives for nobody). An idle warpgroup passes
over the whole walk as before; --early-s0's run is 0 after a tile with a trail. A tile is
(n_count, live, skips, trail): trail 0 .. n_count - 1 (0 where n_count < 2), every value in the
enumerated sequences, 1 .. n_count - 1 in about half of the random ones' tiles of n_count >= 2
(--cluster-no-trail: 0 always, the model before session 66, same output). Mutations it must
refute: --cluster-trail-no-wait, the trailing passes releasing without waiting on the full
barriers (an arrival outside its phase, as --cluster-idle-no-wait);
--cluster-trail-before-last-turn, the passes taken before the walk's last turn: that turn's P V is
where the warpgroup waits on v_full for the walk's last use, so the trailing use S later on that
stage (trail >= S) is waited on while that phase may be incomplete (a stale parity wait on
v_full).

Prints one line per K; exit 0 if every run passed, else 1.
"""
import argparse
import itertools
import random
import sys

S = 2              # K/V ring stages (--stages)
INTERLEAVINGS = 8  # random interleavings per tile sequence


class Rules:
    mutate = False        # next_cw = (cw + 1) % K
    pingpong = True
    skip = True
    skip_no_turn = False  # mutation: no empty turns
    skip_all = False      # mutation: a warpgroup may skip the walk's last block too
    fifo = False          # loads land in issue order
    s0_free = False       # mutation: a tile's S_0 outside the turns (one turn fewer a tile)
    early_s0 = False      # S_0 before its turn where the warpgroup waited on the last S uses
    last_pv_free = False  # mutation: a tile's last P V outside the turns (one turn fewer a tile)
    self_arrive = False   # idle and skipping warpgroups wait on and release their uses themselves
    cluster = False       # two CTAs walking one pair's key blocks (fwd_kernel.h kCluster, below)
    cluster_producer_arrives = False  # mutation: the cluster with the one-CTA kernel's skip rule
    cluster_whole = False  # --cluster: rank 1's tiles always whole (no idle warpgroup; before session 65)
    cluster_idle_no_wait = False  # mutation: --cluster's idle warpgroup releases its uses without waiting
    cluster_no_trail = False  # --cluster: rank 1's trail always 0 (no trailing passes; before session 66)
    cluster_trail_no_wait = False  # mutation: the trailing passes release without waiting on the full barriers
    cluster_trail_early = False  # mutation: the trailing passes before the walk's last turn (its last P V's)


def pass_use(j, t):
    """--self-arrive: a use an idle or skipping warpgroup skips, as the kernel's pass_use: K and V
    waited on (every thread), then both released (thread 0, after the warpgroup's sync)."""
    return [("wait", ("k", j), t), ("wait", ("v", j), t), ("rel", ("k", j), t), ("rel", ("v", j), t)]


def self_skip(R):
    """--cluster: a skipping warpgroup waits on and releases each use it skips (the producer arrives
    for none); with --cluster-producer-arrives the one-CTA kernel's rule instead."""
    return R.cluster and not R.cluster_producer_arrives


def program(cw, K, tiles, R):
    """Warpgroup cw's operations: (op, arg, tile index); op 'sync' | 'arrive' (arg: named barrier),
    'wait' (arg: (ring, use): wait on its full barrier) or 'rel' (arrive on its empty barrier)."""
    ops = []
    if R.pingpong and K > 1 and cw == K - 1:
        ops.append(("arrive", 1, -1))  # warpgroup 0 goes first
    u = 0
    run = 0  # --early-s0: the trailing uses (ending at u - 1) whose K and V this warpgroup waited on
    for t, tile in enumerate(tiles):
        n_count, live, skips = tile[:3]
        # --cluster: rank 1's trailing uses (the pair walk's last `trail`, which its rows do not see):
        # a live warpgroup walks the first n_count - trail with its turns, then passes over these
        trail = tile[3] if len(tile) > 3 else 0

        def trailing(v):  # the passes over uses v .. v + trail - 1 (--cluster-trail-no-wait: no waits)
            return [op for j in range(v, v + trail)
                    for op in (pass_use(j, t)[2:] if R.cluster_trail_no_wait else pass_use(j, t))]

        turns = R.pingpong and live > 1
        next_cw = (cw + 1) % K if R.mutate else (cw + 1 if cw + 1 < live else 0)
        if cw >= live or n_count == 0:
            if R.self_arrive or self_skip(R):  # --self-arrive, --cluster (pass_block): the idle
                for j in range(u, u + n_count):  # warpgroup waits on and releases every use
                    # (--cluster-idle-no-wait: releases it without waiting)
                    ops += pass_use(j, t)[2:] if R.cluster_idle_no_wait and not R.self_arrive else pass_use(j, t)
            u += n_count  # idle: it0 += n_count
            if n_count > 0 and not R.self_arrive:
                run = 0
            continue
        skip = skips[cw] if turns else 0
        n = n_count - trail
        # --early-s0: S_0 issued (and its softmax done) before the S_0 turn, where this warpgroup
        # waited on the ring's last S uses itself (so the stage's previous phase has completed).
        early = R.early_s0 and turns and skip == 0 and run >= min(S, u)
        if skip > 0:
            if not R.self_arrive:
                run = 0
            empty = 0 if R.skip_no_turn else skip if skip < n else n + (0 if R.s0_free or R.last_pv_free else 1)
            if self_skip(R):  # the cluster's skip: one turn a skipped use (a whole walk: n_count turns)
                empty = skip
            s = min(skip, n)
            for j in range(empty):
                ops.append(("sync", 1 + cw, t))
                ops.append(("arrive", 1 + next_cw, t))
                if (R.self_arrive or self_skip(R)) and j < s:  # each skipped use waited on and released after its empty turn
                    ops += pass_use(u + j, t)
            u += s
            n -= s
            if n == 0:
                ops += trailing(u)  # (never: rank 1's walk keeps its last use; rank 0's trail is 0)
                u += trail
                continue
        if early:
            ops.append(("wait", ("k", u), t))
            ops.append(("rel", ("k", u), t))
        for i in range(n + 1):  # turn i: S_i (i < n) and P V_{i-1}
            # --s0-free / --last-pv-free: S_0 / the last P V outside the turns
            in_turn = turns and not (R.s0_free and i == 0) and not (R.last_pv_free and i == n)
            if R.cluster_trail_early and i == n:  # mutation: the trailing passes before the last turn
                ops += trailing(u + n)
            if in_turn:
                ops.append(("sync", 1 + cw, t))
            if early and i == 0:  # (S_0 done above: an empty turn)
                ops.append(("arrive", 1 + next_cw, t))
                continue
            if i < n:
                ops.append(("wait", ("k", u + i), t))
            if i > 0:
                ops.append(("wait", ("v", u + i - 1), t))
            if in_turn:
                ops.append(("arrive", 1 + next_cw, t))
            if i < n:
                ops.append(("rel", ("k", u + i), t))
            if i > 0:
                ops.append(("rel", ("v", u + i - 1), t))
        u += n
        run += n
        if trail > 0:  # rank 1's trailing passes, after the walk's last turn (outside the turns)
            if not R.cluster_trail_early:
                ops += trailing(u)
            u += trail
            run = 0  # (the kernel's conservative rule after a tile with a trail)
    if R.pingpong and K > 1 and cw == 0:
        ops.append(("sync", 1, len(tiles)))  # the turn handed to warpgroup 0 last
    return ops


def arrivals(K, live, skips, i):
    """The producer's arrivals on an empty barrier for key block i of a tile: the idle warpgroups'
    and those of the live ones that skip the block."""
    if Rules.self_arrive or self_skip(Rules):
        return 0
    return K - live + sum(1 for w in range(live) if skips[w] > i)


def producer(K, tiles):
    """The producer's operations: per use and ring 'pwait' (the empty phase of use u - S), 'parr'
    (its arrivals for the skipping warpgroups; --cluster-producer-arrives: on the peer's empty
    barrier too) and 'issue' (the arrival with the expected bytes on its full barrier, then the
    load: with --cluster a half multicast into both CTAs, each half landing later)."""
    ops = []
    u = 0
    for t, (n_count, live, skips, *_) in enumerate(tiles):
        for i in range(n_count):
            for r in ("k", "v"):
                if u >= S:
                    ops.append(("pwait", (r, u), t))
                a = arrivals(K, live, skips, i)
                if a > 0:
                    ops.append(("parr", (r, u, a), t))
                ops.append(("issue", (r, u), t))
            u += 1
    return ops


def simulate(K, tiles, R, rng):
    """One random interleaving. Returns None if it passes, else (what went wrong, trace). `tiles`:
    the one CTA's tile sequence, or with --cluster a sequence per CTA (the same n_count and live)."""
    per_cta = tiles if R.cluster else [tiles]
    C = len(per_cta)
    progs, names = [], []
    for c in range(C):
        pre = f"cta{c}." if C > 1 else ""
        progs += [program(cw, K, per_cta[c], R) for cw in range(K)] + [producer(K, per_cta[c])]
        names += [f"{pre}wg{cw}" for cw in range(K)] + [f"{pre}prod"]
    A = len(progs)  # actor a: CTA a // (K + 1), warpgroup a % (K + 1) (K: the producer)
    pc = [0] * A
    pending = [[0] * (K + 1) for _ in range(C)]  # pending[c][b]: arrivals on CTA c's named barrier b
    full = [{r: [0] * S for r in "kv"} for _ in range(C)]   # completed phases
    f_arr = [{r: [0] * S for r in "kv"} for _ in range(C)]  # ... the producer's arrival in the current phase
    f_tx = [{r: [0] * S for r in "kv"} for _ in range(C)]   # ... halves landed in it (C of them: one a CTA's load)
    e_done = [{r: [0] * S for r in "kv"} for _ in range(C)]  # empty barriers: completed phases
    e_arr = [{r: [0] * S for r in "kv"} for _ in range(C)]   # ... arrivals in the current phase (C K complete one)
    inflight = []  # loads issued and remote arrivals made, not landed: ("land", cta, ring, use) / ("earr", cta, (ring, use, count), who)
    slow = rng.choice([1.0, 0.3, 0.05])  # weight of the producer (a late producer, at times)
    slow_tma = rng.choice([1.0, 0.3, 0.05])  # ... and of the loads landing
    trace = []

    def empty_arrive(c, r, u, count, who):
        s, p = u % S, u // S
        if e_done[c][r][s] != p:
            return (f"{who} arrives on {'cta%d.' % c if C > 1 else ''}{r}_empty[{s}] for use {u} (phase {p}) with "
                    f"{e_done[c][r][s]} phases complete")
        e_arr[c][r][s] += count
        if e_arr[c][r][s] == C * K:
            e_done[c][r][s] += 1
            e_arr[c][r][s] = 0
        return None

    def full_step(c, r, u, what):  # the producer's arrival ("arrival") or a landing on CTA c's full barrier
        s, p = u % S, u // S
        if full[c][r][s] != p:
            return f"{what} of {r}{u} on {'cta%d.' % c if C > 1 else ''}{r}_full[{s}] with {full[c][r][s]} phases complete"
        if what == "arrival":
            f_arr[c][r][s] = 1
        else:
            f_tx[c][r][s] += 1
        if f_arr[c][r][s] and f_tx[c][r][s] == C:
            full[c][r][s] += 1
            f_arr[c][r][s] = f_tx[c][r][s] = 0
        return None

    while True:
        runnable = []
        for a in range(A):
            if pc[a] >= len(progs[a]):
                continue
            c = a // (K + 1)
            op, arg, t = progs[a][pc[a]]
            if op == "wait":
                r, u = arg
                s, p = u % S, u // S
                if full[c][r][s] < p:
                    return (f"stale parity wait: {names[a]} waits on {r}_full[{s}] for phase {p} (use {u}, "
                            f"tile {t}) with {full[c][r][s]} phases complete", trace)
                ready = full[c][r][s] >= p + 1
            elif op == "sync":
                ready = pending[c][arg] > 0
            elif op == "pwait":
                r, u = arg
                ready = e_done[c][r][u % S] >= u // S
            else:
                ready = True
            if ready:
                runnable.append(a)
        if inflight:
            runnable.append("tma")
        if not runnable:
            break
        weights = [slow_tma if a == "tma" else slow if a % (K + 1) == K else 1.0 for a in runnable]
        a = rng.choices(runnable, weights)[0]
        if a == "tma":
            ev = inflight.pop(0 if R.fifo else rng.randrange(len(inflight)))
            if ev[0] == "land":
                _, c, r, u = ev
                bad = full_step(c, r, u, "landing")
                trace.append(f"{r}{u} lands" + (f" in cta{c}" if C > 1 else ""))
            else:
                _, c, (r, u, count), who = ev
                bad = empty_arrive(c, r, u, count, who + " (remote)")
                trace.append(f"{who}'s arrival on cta{c}.{r}_empty for {r}{u} lands")
            if bad:
                return bad, trace
            continue
        c = a // (K + 1)
        op, arg, t = progs[a][pc[a]]
        pc[a] += 1
        where = "start" if t < 0 else "end" if t == len(per_cta[c]) else f"tile {t}"
        what = f"bar{arg}" if op in ("sync", "arrive") else "".join(map(str, arg[:2]))
        trace.append(f"{names[a]} {op} {what} ({where})")
        if op == "sync":
            pending[c][arg] -= 1
        elif op == "arrive":
            pending[c][arg] += 1
            if pending[c][arg] > 1:
                return f"double arrival on {'cta%d.' % c if C > 1 else ''}bar{arg}", trace
        elif op in ("rel", "parr"):
            # (the cluster: each arrival on this CTA's empty barrier and one on the peer's, landing later)
            count = 1 if op == "rel" else arg[2]
            bad = empty_arrive(c, arg[0], arg[1], count, names[a])
            if bad:
                return bad, trace
            for peer in range(C):
                if peer != c:
                    inflight.append(("earr", peer, (arg[0], arg[1], count), names[a]))
        elif op == "issue":
            bad = full_step(c, arg[0], arg[1], "arrival")
            if bad:
                return bad, trace
            for dst in range(C):
                inflight.append(("land", dst, arg[0], arg[1]))
    stuck = [f"{names[a]} at {progs[a][pc[a]][0]} {progs[a][pc[a]][1]}" for a in range(A) if pc[a] < len(progs[a])]
    if stuck:
        return "deadlock: " + ", ".join(stuck), trace
    left = [f"bar{b}={pending[c][b]}" for c in range(C) for b in range(1, K + 1) if pending[c][b]]
    if left:
        return "arrivals left pending at the end: " + ", ".join(left), trace
    uses = sum(tile[0] for tile in per_cta[0])
    want = [len(range(s, uses, S)) for s in range(S)]
    for c in range(C):
        for r in "kv":
            if full[c][r] != want or e_done[c][r] != want or any(e_arr[c][r]):
                return f"{r} ring not settled: full {full[c][r]}, empty {e_done[c][r]} + {e_arr[c][r]}, uses {want}", trace
    return None


def skip_counts(n, live, K, R, rng):
    """fwd90_skip_blocks' counts as the kernel forms them: none without turns; for every live
    warpgroup but the last, 0 .. n_count - 1 (0 .. n_count with --skip-all)."""
    if not R.skip or not R.pingpong or live == 1 or n == 0:
        return (0,) * K
    top = n if R.skip_all else n - 1
    return tuple(rng.randint(0, top) if w < live - 1 else 0 for w in range(K))


def pair_skips(n, K, R, rng, live1=None, trail=0):
    """--cluster: a pair's skip counts, (rank 0's, rank 1's), over the pair's walk of n key blocks
    (the union of its tiles' walks; rank 0's tile has every warpgroup live, rank 1's live1: K, or
    1 where it is a head's last with 64 rows or fewer). Each rank's own skips as fwd90_skip_blocks
    forms them (every live warpgroup but the last 0 .. its walk's length - 1; none with one live);
    rank 0's walk is shorter by lead = 0 .. n blocks at its start (under a causal mask its rows see
    fewer keys; lead = n: none at all), which each of its warpgroups skips first. Rank 1's own skips
    are over its own walk, the pair's first n - trail blocks (trail: its trailing passes)."""
    live1 = K if live1 is None else live1
    if not R.skip or not R.pingpong or K == 1 or n == 0:
        return (0,) * K, (0,) * K

    def own(m, live):
        return tuple(rng.randint(0, m - 1) if w < live - 1 and m > 0 else 0 for w in range(K))

    lead = rng.randint(0, n)
    rank0 = (n,) * K if lead == n else tuple(lead + x for x in own(n - lead, K))
    return rank0, own(n - trail, live1)


def sequences(K, trials, R, rng):
    """Every sequence of up to 3 tiles with n_count 0..2 (twice, with random skip counts), then
    `trials` random ones. --cluster: a sequence per CTA (pair_skips); `live` is rank 1's (1: its
    warpgroup 1 idle; --cluster-whole: K always), rank 0's tiles have every warpgroup live; a tile
    is (n_count, live, skips, trail), trail rank 1's trailing uses (rank 0's: 0), every trail
    0 .. n_count - 1 in the enumerated sequences, in the random ones 1 .. n_count - 1 in about half
    of the tiles with n_count >= 2 (--cluster-no-trail: 0 always, the draws as before)."""
    trails = R.cluster and not R.cluster_no_trail

    def tiles_of(seq):
        if not R.cluster:
            return [(n, live, skip_counts(n, live, K, R, rng)) for n, live in seq]
        lives = [K if R.cluster_whole else x[1] for x in seq]
        trail = [x[2] if len(x) > 2 else 0 for x in seq]
        pairs = [pair_skips(x[0], K, R, rng, live1, tr) for x, live1, tr in zip(seq, lives, trail)]
        return [[(x[0], K if c == 0 else live1, sk[c], 0 if c == 0 else tr)
                 for x, live1, sk, tr in zip(seq, lives, pairs, trail)] for c in range(2)]

    def draw_trail(n):
        return rng.randint(1, n - 1) if n >= 2 and rng.random() < 0.5 else 0

    cluster_lives = (K,) if R.cluster_whole else (1, K)  # rank 1's (the cluster kernel: K = 2)
    kinds = [(n, live) for n in range(3) for live in (range(1, K + 1) if not R.cluster else cluster_lives)]
    if trails:
        kinds = [(n, live, tr) for n, live in kinds for tr in range(max(n, 1))]
    for length in range(1, 4):
        for seq in itertools.product(kinds, repeat=length):
            for _ in range(2):
                yield tiles_of(seq)
    for _ in range(trials):
        seq = [(rng.randint(0, 4), rng.randint(1, K)) for _ in range(rng.randint(1, 6))]
        if trails:
            seq = [(n, live, draw_trail(n)) for n, live in seq]
        yield tiles_of(seq)


def check(K, trials, R, rng):
    runs = failures = 0
    first = None
    nseq = 0
    for tiles in sequences(K, trials, R, rng):
        nseq += 1
        for _ in range(INTERLEAVINGS):
            runs += 1
            bad = simulate(K, tiles, R, rng)
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
    ap.add_argument("--skip-no-turn", action="store_true", help="mutation: skipping warpgroups take no empty turns")
    ap.add_argument("--skip-all", action="store_true", help="mutation: a warpgroup may skip a whole walk")
    ap.add_argument("--fifo", action="store_true", help="loads land in the order they were issued")
    ap.add_argument("--s0-free", action="store_true", help="mutation: a tile's S_0 outside the turns (n_count turns a tile)")
    ap.add_argument("--last-pv-free", action="store_true", help="mutation: a tile's last P V outside the turns")
    ap.add_argument("--self-arrive", action="store_true", help="idle / skipping warpgroups wait on and release every use (no producer arrivals)")
    ap.add_argument("--early-s0", action="store_true", help="S_0 before its (then empty) turn where safe (FLASHATTN_SM90_EARLY_S0)")
    ap.add_argument("--cluster", action="store_true",
                    help="two CTAs on a pair's walk, each producer loading half of every block into both (kCluster)")
    ap.add_argument("--cluster-producer-arrives", action="store_true",
                    help="mutation: --cluster with the one-CTA skip rule (the producer arrives for skippers, in both CTAs)")
    ap.add_argument("--cluster-whole", action="store_true",
                    help="--cluster with rank 1's tiles always whole (no idle warpgroup: the model before session 65)")
    ap.add_argument("--cluster-idle-no-wait", action="store_true",
                    help="mutation: --cluster with the idle warpgroup releasing its uses without waiting on them")
    ap.add_argument("--cluster-no-trail", action="store_true",
                    help="--cluster with rank 1's trail always 0 (no trailing passes: the model before session 66)")
    ap.add_argument("--cluster-trail-no-wait", action="store_true",
                    help="mutation: --cluster with rank 1's trailing passes releasing without waiting on them")
    ap.add_argument("--cluster-trail-before-last-turn", action="store_true",
                    help="mutation: --cluster with rank 1's trailing passes before its walk's last turn")
    ap.add_argument("--stages", type=int, default=2, help="K/V ring stages (config.h fwd90_stages)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trials", type=int, default=3000, help="random tile sequences per K")
    args = ap.parse_args()
    global S
    S = args.stages
    R = Rules()
    R.mutate, R.pingpong, R.skip = args.mutate, not args.no_pingpong, not args.no_skip
    R.skip_no_turn, R.skip_all, R.fifo, R.s0_free = args.skip_no_turn, args.skip_all, args.fifo, args.s0_free
    R.early_s0, R.last_pv_free = args.early_s0, args.last_pv_free
    Rules.self_arrive = R.self_arrive = args.self_arrive
    Rules.cluster = R.cluster = (args.cluster or args.cluster_producer_arrives or args.cluster_whole
                                 or args.cluster_idle_no_wait or args.cluster_no_trail
                                 or args.cluster_trail_no_wait or args.cluster_trail_before_last_turn)
    R.cluster_whole, R.cluster_idle_no_wait = args.cluster_whole, args.cluster_idle_no_wait
    R.cluster_no_trail = args.cluster_no_trail
    R.cluster_trail_no_wait = args.cluster_trail_no_wait
    R.cluster_trail_early = args.cluster_trail_before_last_turn
    Rules.cluster_producer_arrives = R.cluster_producer_arrives = args.cluster_producer_arrives
    rng = random.Random(args.seed)
    ok = True
    for K in (2,) if R.cluster else (2, 3):  # (the cluster kernel has two consumer warpgroups)
        nseq, runs, failures, first = check(K, args.trials, R, rng)
        rule = ", ".join(x for x, on in [("old rule (mutated)", R.mutate), ("ping-pong off", not R.pingpong),
                                         ("no skips", not R.skip), ("skips without empty turns", R.skip_no_turn),
                                         ("whole walks skipped", R.skip_all), ("loads in order", R.fifo),
                                         ("S_0 outside the turns", R.s0_free), ("early S_0", R.early_s0),
                                         ("last P V outside the turns", R.last_pv_free),
                                         ("every warpgroup waits on and releases every use", R.self_arrive),
                                         ("a cluster of two on pairs' walks", R.cluster),
                                         ("rank 1's tiles whole", R.cluster and R.cluster_whole),
                                         ("the producer arrives for skippers in both CTAs", R.cluster_producer_arrives),
                                         ("idle warpgroups release without waiting", R.cluster_idle_no_wait),
                                         ("rank 1's trailing blocks passed after its walk",
                                          R.cluster and not R.cluster_no_trail),
                                         ("trailing passes release without waiting", R.cluster_trail_no_wait),
                                         ("trailing passes before the walk's last turn", R.cluster_trail_early)]
                         if on)
        verdict = "PASS" if failures == 0 else f"FAIL ({failures} failing runs)"
        print(f"K={K} S={S} rule{' (' + rule + ')' if rule else ''}: {nseq} tile sequences x {INTERLEAVINGS} "
              f"interleavings = {runs} runs: {verdict}")
        if first is not None:
            ok = False
            tiles, what, trace = first
            fields = "n_count, live, skips, trail" if R.cluster else "n_count, live, skips"
            print(f"  counterexample: tiles ({fields}) = {tiles}: {what}")
            print("  trace: " + ("; ".join(trace) or "(none: the wait is the first operation of the run)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
