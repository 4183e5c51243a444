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
sm90 forward (bench/NOTES.md).
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


if __name__ == "__main__":
    main()
