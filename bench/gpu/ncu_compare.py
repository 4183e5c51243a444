#!/usr/bin/env python3
"""Side by side, the Nsight Compute details pages of our kernel and a peer's (profile_sass.sh's
ncu-details-<tag>.txt and ncu-details-cudnn-<tag>.txt): cycles, instructions, IPC, memory, and
the share of the kernel's cycles in which an SM held no CTA (1 - SM active / elapsed: the grid's
start and its uneven end; session 49 found ours at 9.1% against cuDNN's 5.4% at d128 512).

    python3 bench/gpu/ncu_compare.py OURS.txt PEER.txt [--kernel-regex REGEX]

A details page with several kernels (cuDNN's holds the RNG kernels too): the first whose name
matches --kernel-regex (default: fprop|bprop|fwd_kernel|bwd_kernel|flash) is read.
"""
import argparse
import re

METRICS = [
    ("SM Frequency", "GHz"), ("Elapsed Cycles", "cycles"), ("Duration", "us"), ("SM Active Cycles", "cycles"),
    ("Executed Instructions", "inst"), ("Executed Ipc Active", "inst/cycle"), ("Issue Slots Busy", "%"),
    ("No Eligible", "%"), ("Warp Cycles Per Issued Instruction", "cycles"), ("DRAM Throughput", "%"),
    ("L2 Hit Rate", "%"), ("L1/TEX Hit Rate", "%"), ("Registers Per Thread", ""), ("Grid Size", ""),
    ("Block Size", ""), ("Dynamic Shared Memory Per Block", "KB"),
]


def section(path, regex):
    """The lines of the first kernel whose header line matches regex."""
    lines = open(path, errors="replace").read().splitlines()
    start = None
    for i, line in enumerate(lines):
        if re.search(r"\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line):  # a kernel's header
            if start is not None:
                return lines[start:i]
            if re.search(regex, line):
                start = i
    return lines[start:] if start is not None else []


def values(lines):
    out = {}
    for name, _ in METRICS:
        for line in lines:
            m = re.match(r"\s+" + re.escape(name) + r"\s+\S*\s+([\d,.]+)\s*$", line)
            if m:
                out.setdefault(name, float(m.group(1).replace(",", "")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ours")
    ap.add_argument("peer")
    ap.add_argument("--kernel-regex", default="fprop|bprop|fwd_kernel|bwd_kernel|flash")
    a = ap.parse_args()
    cols = [values(section(p, a.kernel_regex)) for p in (a.ours, a.peer)]
    print("| metric | ours | peer | ours / peer |")
    print("|---|---|---|---|")
    for name, unit in METRICS:
        x, y = (c.get(name) for c in cols)
        ratio = "%.3f" % (x / y) if x and y else ""
        fmt = lambda v: "" if v is None else ("%.4g" % v if v < 1e5 else "{:,.0f}".format(v))
        print("| %s%s | %s | %s | %s |" % (name, " (%s)" % unit if unit else "", fmt(x), fmt(y), ratio))
    for who, c in zip(("ours", "peer"), cols):
        if c.get("Elapsed Cycles") and c.get("SM Active Cycles"):
            print("%s: SMs without a CTA %.1f%% of the kernel's cycles" % (
                who, 100.0 * (1 - c["SM Active Cycles"] / c["Elapsed Cycles"])))


if __name__ == "__main__":
    main()
