#!/usr/bin/env python3
"""tools/turnover_model.py [--n 4,8,16,64] [--phases k=v,...] [--tiles N]: a timing model of the
sm90 forward's consumer warpgroups (src/cuda/sm90/fwd_kernel.h) at a tile's turnover, to weigh
schedules before building them (bench/NOTES.md, session 62).

Two consumer warpgroups (64 query rows each) share one tensor pipe, which runs their wgmma groups
one at a time in issue order (FIFO). A warpgroup's walk of a tile of n key blocks is the kernel's:
  turn 0:      S_0                          then wait S_0, softmax
  turn i < n:  S_i, P_{i-1} V_{i-1}         then wait S_i, softmax, wait P V, rescale
  turn n:      P_{n-1} V_{n-1}              then wait it, finish (normalize, LSE), O's stores
and the next tile. Ping-pong: a turn is taken only after the other warpgroup's turn was issued
(named barriers: strict alternation). K and V come through two rings of `stages` stages each:
stream position u's K (V) can be loaded once both warpgroups released position u - stages (K at
S_u's completion, V at P_u V_u's), and lands `load` cycles later. Both warpgroups walk one stream
of key blocks: today's schedule ("aligned") gives them the same tiles (rows 0-63 and 64-127 of a
128-row tile), so their turnovers come together; "offset" gives them their own 64-row tiles of
the same head with tile boundaries n / 2 blocks apart in the stream (warpgroup 1 walks its tiles'
key blocks rotated by n / 2), so one's turnover falls in the middle of the other's walk. Without
ping-pong ("-nopp") a warpgroup issues whenever it is ready.

Cycle costs (--phases; defaults from session 47's trace at head_dim 128 and the GEMM sizes: a
64 x 128 x 128 GEMM is 512 cycles at 4096 FLOP a cycle): gemm 512, softmax 700, rescale 100,
issue 40 (a turn's issue), finish 600, stores 1200, load 400, stages 2. The model prints, per
walk length n, each schedule's cycles a 128 query rows' tile in the steady state and its tensor
pipe's busy share; the ratio of n blocks to n = 64 is the figure to hold against the benchmark's
TFLOP/s at seqlen 128 n against 8k (bench/NOTES.md).
"""
import argparse
import heapq

DEFAULTS = dict(start=0, gemm=512, softmax=700, rescale=100, issue=40, finish=600, stores=1200, load=400, stages=2)


def walk_ops(n, ph):
    """One warpgroup's tile of n key blocks as ops: ('issue', kind, block), ('wait', kind, block),
    ('compute', cycles), ('turn',) and ('give',) around each turn's issues."""
    ops = [("compute", ph["start"])]
    for i in range(n + 1):
        ops.append(("turn",))
        if i < n:
            ops.append(("issue", "S", i))
        if i > 0:
            ops.append(("issue", "PV", i - 1))
        ops.append(("compute", ph["issue"]))
        ops.append(("give",))
        if i < n:
            ops.append(("wait", "S", i))
            ops.append(("release", "K", i))
            ops.append(("compute", ph["softmax"]))
        if i > 0:
            ops.append(("wait", "PV", i - 1))
            ops.append(("release", "V", i - 1))
            if i < n:
                ops.append(("compute", ph["rescale"]))
    ops.append(("compute", ph["finish"] + ph["stores"]))
    ops.append(("tile_end",))
    return ops


def simulate(n, ph, schedule, tiles, pingpong):
    """Cycles a 128-row tile (two warpgroups' 64-row tiles) in the steady state, and the pipe's busy
    share over the same span."""
    stages = ph["stages"]
    # Each warpgroup's op list over `tiles` tiles with its key blocks as stream positions.
    progs = []
    for cw in range(2):
        prog = []
        shift = 0 if (schedule == "aligned" or cw == 0) else n // 2
        # offset: warpgroup 1 starts with a tile of n - shift blocks (its first tile's rest comes
        # from before the simulated span), so its boundaries fall n / 2 blocks after warpgroup 0's.
        pos = 0
        lengths = [n] * tiles if shift == 0 else [n - shift] + [n] * tiles
        for length in lengths:
            for op in walk_ops(length, ph):
                if op[0] in ("issue", "wait", "release"):
                    op = (op[0], op[1], pos + op[2])
                prog.append(op)
            pos += length
        progs.append(prog)

    pipe_free = 0
    busy = []  # (start, end) of each GEMM
    done = {}  # (cw, kind, u) -> completion time
    released = {}  # (ring, u) -> [time of cw 0, time of cw 1]
    tokens = [[0], []]  # ping-pong: the times of the arrivals pending on each warpgroup's barrier
    pc = [0, 0]
    t = [0, 0]
    tile_ends = [[], []]

    last = [max(op[2] for op in p if op[0] == "issue") for p in progs]  # each one's last stream position

    def avail(ring, u):
        if u < stages:
            return 0
        r = released.get((ring, u - stages), [None, None])
        # (a position past one warpgroup's span is the other's alone)
        r = [x if x is not None else (0 if u - stages > last[c] else None) for c, x in enumerate(r)]
        if None in r:
            return None
        return max(r) + ph["load"]

    def ready_at(cw):
        """The time warpgroup cw's next op can start, or None while it waits on the other."""
        op = progs[cw][pc[cw]]
        if op[0] == "turn" and pingpong and pc[1 - cw] < len(progs[1 - cw]):  # (alone at the end: free)
            return max(t[cw], tokens[cw][0]) if tokens[cw] else None
        if op[0] == "issue":
            a = avail("K" if op[1] == "S" else "V", op[2])
            return None if a is None else max(t[cw], a)
        if op[0] == "wait":
            return max(t[cw], done[(cw, op[1], op[2])])
        return t[cw]

    # Discrete events in time order: the warpgroup whose next op starts first goes (so the pipe
    # sees the issues in time order).
    while pc[0] < len(progs[0]) or pc[1] < len(progs[1]):
        cand = [(ready_at(c), c) for c in range(2) if pc[c] < len(progs[c])]
        cand = [(r, c) for r, c in cand if r is not None]
        if not cand:
            raise RuntimeError("deadlock at %s" % pc)
        when, cw = min(cand)
        op = progs[cw][pc[cw]]
        t[cw] = when
        kind = op[0]
        if kind == "turn" and pingpong and tokens[cw]:
            tokens[cw].pop(0)
        elif kind == "give" and pingpong:
            tokens[1 - cw].append(t[cw])
        elif kind == "issue":
            start = max(t[cw], pipe_free)
            pipe_free = start + ph["gemm"]
            busy.append((start, pipe_free))
            done[(cw, op[1], op[2])] = pipe_free
        elif kind == "release":
            released.setdefault((op[1], op[2]), [None, None])[cw] = t[cw]
        elif kind == "compute":
            t[cw] += op[1]
        elif kind == "tile_end":
            tile_ends[cw].append(t[cw])
        pc[cw] += 1

    # Steady state: the middle half of warpgroup 0's tiles.
    e = tile_ends[0]
    a, b = len(e) // 4, 3 * len(e) // 4
    span = e[b] - e[a]
    per_tile = span / (b - a)
    busy_in = sum(max(0, min(y, e[b]) - max(x, e[a])) for x, y in busy)
    return per_tile, busy_in / span


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="4,8,16,32,64")
    ap.add_argument("--phases", default="", help="k=v,... over %s" % DEFAULTS)
    ap.add_argument("--tiles", type=int, default=24)
    args = ap.parse_args()
    ph = dict(DEFAULTS)
    for kv in filter(None, args.phases.split(",")):
        k, v = kv.split("=")
        ph[k] = int(v)
    ns = [int(x) for x in args.n.split(",")]
    scheds = [("aligned", True), ("aligned", False), ("offset", True), ("offset", False)]
    res = {}
    for n in ns:
        for s, pp in scheds:
            res[(n, s, pp)] = simulate(n, ph, s, args.tiles, pp)
    print("phases:", ph)
    print("| n | " + " | ".join("%s%s cycles / busy / vs n=%d" % (s, "" if pp else "-nopp", ns[-1]) for s, pp in scheds) + " |")
    print("|---|" + "---|" * len(scheds))
    for n in ns:
        cells = []
        for s, pp in scheds:
            per, busy = res[(n, s, pp)]
            ref, _ = res[(ns[-1], s, pp)]
            eff = (n / per) / (ns[-1] / ref)
            cells.append("%.0f / %.2f / %.3f" % (per, busy, eff))
        print("| %d | %s |" % (n, " | ".join(cells)))


if __name__ == "__main__":
    main()
