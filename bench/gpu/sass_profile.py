#!/usr/bin/env python3
"""Reads the per-SASS-instruction CSV of bench/gpu/profile_sass.sh (Nsight Compute's source page)
and prints where a kernel's warps spend their time: stall reasons over the whole kernel, the
opcode mix (executed share / sample share), the hottest instructions with their top reasons, the
shared-memory wavefronts of each memory opcode against their ideal (bank conflicts), and, with
--phases, the samples of address ranges of one loop as cycles of its period.

    python3 bench/gpu/sass_profile.py sass-fwd-d128.csv
    python3 bench/gpu/sass_profile.py sass-fwd-d128.csv --phases 7200,77e0,7a60,8f60,92e0,a0f0,a7d0 --period 2836

--phases takes the low hex digits of instruction addresses (the CSV's addresses with the kernel's
base masked off: the last five hex digits), in order; --period the loop's cycles an iteration (from
a trace build, bench/gpu/fwd_trace.sh) to turn sample shares into cycles. Session 25 used it on the
sm90 forward (bench/NOTES.md). --loop finds the main wgmma loop and its phases by itself (cut at its
waits and GEMM issues; session 46 read the backward's so).

    python3 bench/gpu/sass_profile.py sass-bwd-d128-8192.csv --top 0 --loop --period 4870
"""
import argparse
import csv
from collections import Counter


def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0


def load(path):
    rows = list(csv.reader(open(path)))
    hdr = next(i for i, r in enumerate(rows) if r and r[0] in ("#", "Address"))
    head = [h.strip() for h in rows[hdr]]
    body = [r for r in rows[hdr + 1:] if len(r) > 5]
    return {h: i for i, h in enumerate(head)}, body


def opcode(src, parts=1):
    s = src.strip().split()
    if not s:
        return ""
    o = s[1] if s[0].startswith("@") else s[0]
    return ".".join(o.split(".")[:parts])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--phases", default="")
    ap.add_argument("--period", type=float, default=0.0)
    ap.add_argument("--loop", action="store_true",
                    help="find the hottest wgmma loop and cut it into phases at its waits, barriers and GEMM issues")
    a = ap.parse_args()
    ix, body = load(a.csv)
    S, E, SRC = ix["Warp Stall Sampling (All Samples)"], ix["Instructions Executed"], ix["Source"]
    reasons = [h for h in ix if h.startswith("stall_") and "Not Issued" not in h]
    tot = sum(num(r[S]) for r in body) or 1.0
    ex = sum(num(r[E]) for r in body) or 1.0
    print("%s: %d samples, %.3gG warp instructions executed" % (a.csv, tot, ex / 1e9))
    by = {k: sum(num(r[ix[k]]) for r in body) for k in reasons}
    print("stalls:", ", ".join("%s %.1f%%" % (k[6:], 100 * v / tot) for k, v in sorted(by.items(), key=lambda x: -x[1])
                               if v > 0.003 * tot))
    ops_e, ops_s = Counter(), Counter()
    for r in body:
        o = opcode(r[SRC])
        ops_e[o] += num(r[E])
        ops_s[o] += num(r[S])
    print("opcodes (executed % / samples %):", ", ".join("%s %.1f/%.1f" % (k, 100 * v / ex, 100 * ops_s[k] / tot)
                                                        for k, v in ops_e.most_common(20)))
    W, WI = ix.get("L1 Wavefronts Shared"), ix.get("L1 Wavefronts Shared Ideal")
    if W is not None and WI is not None:
        wf, wfi, cnt = Counter(), Counter(), Counter()
        for r in body:
            o = opcode(r[SRC], 2)
            if o.startswith(("LD", "ST", "RED", "ATOM")):
                wf[o] += num(r[W])
                wfi[o] += num(r[WI])
                cnt[o] += num(r[E])
        print("shared wavefronts (M, actual / ideal, executed):", ", ".join(
            "%s %.1f/%.1f (%.1fM)" % (o, wf[o] / 1e6, wfi[o] / 1e6, cnt[o] / 1e6) for o in sorted(cnt) if cnt[o] > 0))
    print()
    for r in sorted(body, key=lambda r: -num(r[S]))[:a.top]:
        top = sorted(((num(r[ix[k]]), k[6:]) for k in reasons), reverse=True)[:3]
        print("%5.2f%% %s %-58s | %s" % (100 * num(r[S]) / tot, r[0][-5:], r[SRC].strip()[:58],
                                        " ".join("%s:%d" % (k, v) for v, k in top if v)))
    if a.phases:
        cuts = [int(x, 16) for x in a.phases.split(",")]
        acc = [0.0] * (len(cuts) - 1)
        n_ins = [0.0] * (len(cuts) - 1)
        for r in body:
            ad = int(r[0], 16) & 0xFFFFF
            for k in range(len(cuts) - 1):
                if cuts[k] <= ad < cuts[k + 1]:
                    acc[k] += num(r[S])
                    n_ins[k] += num(r[E])
        loop = sum(acc) or 1.0
        iters = max(num(r[E]) for r in body) or 1.0
        print("\nphases (%.1f%% of the samples in the range):" % (100 * loop / tot))
        for k in range(len(acc)):
            cyc = " ~%5.0f cycles" % (a.period * acc[k] / loop) if a.period else ""
            print("  %05x-%05x %5.1f%%%s %6.0f instructions an iteration" % (cuts[k], cuts[k + 1], 100 * acc[k] / loop,
                                                                          cyc, n_ins[k] / iters))
    if a.loop:
        loop_phases(body, S, E, SRC, a.period)


def loop_phases(body, S, E, SRC, period):
    """--loop: the rows executed as often as the wgmma instructions that hold the most samples (the
    main loop's count) bound the loop, from the first such row to the last within 64 rows of each
    other around the hottest one; it is cut before every wait (WARPGROUP.DEPBAR, an mbarrier
    try-wait with its branch, BAR.SYNC, BAR.ARV: each wait a piece of its own) and before the first
    HGMMA of each run of them (one shape, less than 40 rows apart), and each piece printed with its share of the loop's samples (cycles an iteration
    with --period) and instructions an iteration."""
    by_count = Counter()
    for r in body:
        if opcode(r[SRC]) == "HGMMA":
            by_count[num(r[E])] += num(r[S])
    if not by_count:
        print("\nno HGMMA in the kernel")
        return
    c = by_count.most_common(1)[0][0]
    idx = [i for i, r in enumerate(body) if num(r[E]) == c]
    hot = max((i for i in idx if opcode(body[i][SRC]) == "HGMMA"), key=lambda i: num(body[i][S]))
    lo = hi = idx.index(hot)
    while lo > 0 and idx[lo] - idx[lo - 1] <= 64:
        lo -= 1
    while hi + 1 < len(idx) and idx[hi + 1] - idx[hi] <= 64:
        hi += 1
    rows = body[idx[lo]:idx[hi] + 1]
    waits = ("WARPGROUP.DEPBAR", "SYNCS.PHASECHK", "BAR.SYNC", "BAR.ARV")
    cuts, last_gmma, last_shape = [0], -100, ""
    for k, r in enumerate(rows):
        src = r[SRC].strip()
        ins = src.split(None, 1)[1] if src.startswith("@") else src
        if ins.startswith(waits):
            # the wait alone (a try-wait with its retry branch: its stalls land on the branch)
            cuts += [k, k + (2 if ins.startswith("SYNCS") else 1)]
        if ins.startswith("HGMMA"):
            shape = ins.split()[0]
            if k - last_gmma >= 40 or shape != last_shape:
                cuts.append(k)
            last_gmma, last_shape = k, shape
    cuts = sorted(set(k for k in cuts if k < len(rows))) + [len(rows)]
    loop = sum(num(r[S]) for r in rows) or 1.0
    print("\nloop %s-%s: %d instructions, executed %.3gM times each, %.1f%% of the samples" % (
        rows[0][0][-5:], rows[-1][0][-5:], len(rows), c / 1e6, 100 * loop / (sum(num(r[S]) for r in body) or 1.0)))
    for k in range(len(cuts) - 1):
        part = rows[cuts[k]:cuts[k + 1]]
        if not part:
            continue
        smp = sum(num(r[S]) for r in part)
        n = sum(num(r[E]) for r in part) / c
        gm = [opcode(r[SRC], 2) for r in part if opcode(r[SRC]) == "HGMMA"]
        head = part[0][SRC].strip()
        label = ("%s x%d" % (Counter(gm).most_common(1)[0][0], len(gm))) if gm and "HGMMA" in head else head[:40]
        cyc = " ~%5.0f cycles" % (period * smp / loop) if period else ""
        print("  %s %5.1f%%%s %5.0f instructions  %s" % (part[0][0][-5:], 100 * smp / loop, cyc, n, label))


if __name__ == "__main__":
    main()
