#!/usr/bin/env python3
"""Summarize the sm90 forward's diagnostic timeline (a build with -DFLASHATTN_SM90_TRACE, see
src/cuda/sm90/fwd_kernel.h; bench/gpu/fwd_trace.sh runs it): reads flashattn_gpu_bench's output
("T cta role tile e0..e4 n e6 e7 w0 w1 w2" lines, the last launch's), prints per consumer warpgroup
the mean cycles of each phase of a tile, of its waits (turn, K/V, its wgmma groups) and a
least-squares fit of a tile's cycles = a + b * key blocks (a: the per-tile cost outside the
key-block work), and the producer's Q-slot waits and Q latency; then every CTA's span ("S cta start
end0 end1 end2 end3 items" lines, %globaltimer ns): how late the CTAs start, how early they end
before the last one, by their item counts."""
import heapq
import statistics
import sys


def fit(pts):
    n = len(pts)
    if n < 2:
        return float("nan"), float("nan")
    mx = sum(x for x, _ in pts) / n
    my = sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx == 0:
        return my, float("nan")
    b = sum((x - mx) * (y - my) for x, y in pts) / sxx
    return my - b * mx, b


def spans(lines):
    """The CTAs' spans: start spread, end spread and the SMs' idle share of the kernel's span."""
    recs, prev = {}, -1
    for f in lines:
        if len(f) == 8 and f[0] == "S" and all(x.isdigit() for x in f[1:]):
            if int(f[1]) <= prev:
                recs = {}  # the next launch's lines: the last launch's only (a line cut into is skipped)
            prev = int(f[1])
            recs[prev] = [int(x) for x in f[2:]]
    if not recs:
        return
    t0 = min(r[0] for r in recs.values())
    rel = lambda t: (t - t0) % (1 << 32)  # (the timer's low 32 bits; a kernel spans far less than 4 s)
    start = {c: rel(r[0]) for c, r in recs.items()}
    end = {c: max(rel(x) for x in r[1:5] if x) for c, r in recs.items()}
    items = {c: r[5] for c, r in recs.items()}
    span = max(end.values())
    busy = [end[c] - start[c] for c in recs]
    idle_end = [span - end[c] for c in recs]
    print("CTAs %d, span %.1f us; start: mean %.2f us, max %.2f us after the first; end before the last: "
          "mean %.2f us, max %.2f us; busy share %.2f%%" % (
              len(recs), span / 1e3, statistics.mean(start.values()) / 1e3, max(start.values()) / 1e3,
              statistics.mean(idle_end) / 1e3, max(idle_end) / 1e3, 100.0 * sum(busy) / (len(recs) * span)))
    # A greedy schedule at these CTAs' speeds (a CTA's mean time an item; whole items taken as
    # CTAs free up): what dynamic tiles could reach, against the span.
    per = {c: (end[c] - start[c]) / items[c] for c in recs if items[c] > 0}
    if per:
        free = sorted((0.0, c) for c in per)
        for _ in range(sum(items[c] for c in per)):
            t, c = heapq.heappop(free)
            heapq.heappush(free, (t + per[c], c))
        print("  greedy model at these speeds: %.1f us (%.1f%% under the span); a CTA's item %.2f-%.2f us" % (
            max(t for t, _ in free) / 1e3, 100.0 * (1 - max(t for t, _ in free) / span), min(per.values()) / 1e3,
            max(per.values()) / 1e3))
    for n in sorted(set(items.values())):
        cs = [c for c in recs if items[c] == n]
        print("  %d items: %d CTAs, end %.2f-%.2f us (mean %.2f), busy mean %.2f us" % (
            n, len(cs), min(end[c] for c in cs) / 1e3, max(end[c] for c in cs) / 1e3,
            statistics.mean(end[c] for c in cs) / 1e3, statistics.mean(end[c] - start[c] for c in cs) / 1e3))


def main():
    rows = {}
    lines = [line.split() for line in sys.stdin]
    spans(lines)
    for f in lines:
        # (10, 12 fields: builds before the epilogue's events, the waits; a line the benchmark's
        # stderr cut into is skipped)
        if len(f) in (10, 12, 15) and f[0] == "T" and all(x.isdigit() for x in f[1:]):
            cta, role, tile = int(f[1]), int(f[2]), int(f[3])
            rows[(cta, role, tile)] = [int(x) for x in f[4:]] + [0] * (15 - len(f))  # the last launch wins
    if not rows:
        print("no trace lines (a build without -DFLASHATTN_SM90_TRACE?)")
        return
    ctas = sorted({k[0] for k in rows})
    roles = sorted({k[1] for k in rows})
    print("role | tiles | mean n | Q wait | S_0 | loop (S_0 .. last P V) | epilogue | gap to next | tile total | fit a + b*n (cycles)")
    for role in [r for r in roles if r > 0]:
        ph = {k: [] for k in ("q", "s0", "loop", "epi", "gap", "tot", "fin", "st", "tma", "wt", "wkv", "wmma")}
        pts, ns = [], []
        pieces = 0
        for cta in ctas:
            tiles = sorted(t for (c, r, t) in rows if c == cta and r == role)
            for i, t in enumerate(tiles):
                e = rows[(cta, role, t)]
                n = e[5]
                if n == 0:
                    continue
                ns.append(n)
                ph["q"].append(e[1] - e[0])
                ph["s0"].append(e[2] - e[1])
                ph["loop"].append(e[3] - e[2])
                # A stream-K piece that writes no O (kPartial: its epilogue's events stay 0) has no
                # epilogue, gap or tile total; whole tiles and merging pieces do.
                whole = e[4] >= e[3] > 0
                if not whole:
                    pieces += 1
                    continue
                ph["epi"].append(e[4] - e[3])
                if e[6]:  # the epilogue's parts: finish(), O's stores (and barriers), the TMA store's issue
                    ph["fin"].append(e[6] - e[3])
                    if e[7]:
                        ph["st"].append(e[7] - e[6])
                        ph["tma"].append(e[4] - e[7])
                if e[8] or e[9] or e[10]:
                    ph["wt"].append(e[8])
                    ph["wkv"].append(e[9])
                    ph["wmma"].append(e[10])
                if i + 1 < len(tiles):
                    nxt = rows[(cta, role, tiles[i + 1])]
                    ph["gap"].append(nxt[0] - e[4])
                    ph["tot"].append(nxt[0] - e[0])
                    pts.append((n, nxt[0] - e[0]))
        a, b = fit(pts)
        m = {k: (statistics.mean(v) if v else float("nan")) for k, v in ph.items()}
        print("%d | %d | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | a %.0f, b %.0f" % (
            role, len(ns), statistics.mean(ns) if ns else 0, m["q"], m["s0"], m["loop"], m["epi"], m["gap"],
            m["tot"], a, b))
        if pieces:
            print("  (%d stream-K pieces without an epilogue: in the loop's mean only)" % pieces)
        if ph["fin"]:
            print("  epilogue of role %d: finish %.0f, O stores and barriers %.0f, TMA store issue %.0f" % (
                role, m["fin"], m["st"], m["tma"]))
        if ph["wt"]:
            print("  waits of role %d a tile: turn %.0f, K/V %.0f, own wgmma %.0f (a key block: %.0f, %.0f, %.0f)" % (
                role, m["wt"], m["wkv"], m["wmma"], m["wt"] / statistics.mean(ns), m["wkv"] / statistics.mean(ns),
                m["wmma"] / statistics.mean(ns)))
    qw, ql = [], []
    for cta in ctas:
        for (c, r, t), e in rows.items():
            if c == cta and r == 0:
                qw.append(e[1] - e[0])
                cons = rows.get((cta, 1, t))
                if cons:
                    ql.append(cons[1] - e[1])
    if qw:
        print("producer: Q-slot wait mean %.0f cycles; Q issued -> consumer 1 has it: mean %.0f, median %.0f" % (
            statistics.mean(qw), statistics.mean(ql) if ql else float("nan"), statistics.median(ql) if ql else float("nan")))


if __name__ == "__main__":
    main()
