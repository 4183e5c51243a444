#!/usr/bin/env python3
"""Model of the sm90 forward's persistent grid on causal problems (no GPU): how evenly a tile
order spreads the work over the CTAs, and how many heads a round has in flight.

The kernel's order is src/cuda/sm90/config.h Fwd90TileMap, mirrored here; the grid walks it in
rounds of `grid` CTAs, CTA c taking the c-th tile of even rounds and the c-th from the end of odd
ones (fwd_kernel.h). A tile costs its key blocks plus `overhead` (seqlen_q = seqlen_k, causal
aligned bottom-right). Efficiency = total work / (grid x the busiest CTA's work); heads per round:
distinct (batch, head) pairs among a round's tiles (fewer: more tiles of each head share its K/V
in L2). Session 14 chose the launcher's rule (launch.cu) with it.

    python3 bench/gpu/causal_order_sim.py                 # the standard shapes, groups none / rule
    python3 bench/gpu/causal_order_sim.py --groups 0,12,33,66
"""
import argparse


def tile(t, bh, m, group):
    """Fwd90TileMap for causal, padded batches: (query block, pair)."""
    if group > 0:
        groups = max(1, (bh + group // 2) // group)  # the last group takes a remainder below group / 2
        g = min(t // (group * m), groups - 1)
        g0 = g * group
        i = t - g0 * m
        gsize = group if g < groups - 1 else bh - g0
        return m - 1 - i // gsize, g0 + i % gsize
    return m - 1 - t // bh, t % bh


def simulate(bh, m, block_m, block_n, seqlen, group, grid=132, overhead=1.0):
    tiles = bh * m
    load = [0.0] * grid
    heads = []
    for r in range((tiles + grid - 1) // grid):
        seen = set()
        for c in range(grid):
            t = r * grid + (grid - 1 - c if r & 1 else c)
            if t >= tiles:
                continue
            mb, pair = tile(t, bh, m, group)
            keys = min(seqlen, (mb + 1) * block_m)
            load[c] += (keys + block_n - 1) // block_n + overhead
            seen.add(pair)
        heads.append(len(seen))
    return sum(load) / (grid * max(load)), sum(heads) / len(heads)


def launcher_rule(bh, block_m=128, sm_count=132):
    """launch.cu's default: a quarter of the SMs in heads where there are more pairs than half the
    SMs; a sixth between a quarter and half the SMs with 128-row tiles."""
    group = (max(1, sm_count // 4) if bh > sm_count // 2
             else max(1, sm_count // 6) if bh > sm_count // 4 and block_m <= 128 else 0)
    return group if 0 < group < bh else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--groups", default="", help="comma list of group sizes to compare (0: none); default none and the rule")
    ap.add_argument("--grid", type=int, default=132, help="CTAs (SMs)")
    args = ap.parse_args()
    for d in (64, 128, 256):
        for seqlen in (512, 1024, 2048, 4096, 8192, 16384):
            # The default tiles (config.h, launch.cu): 192 rows (three consumer warpgroups) at
            # head_dim 64 beyond 1024 queries, else 128; key blocks of 128 up to head_dim 128, 80 at 256.
            block_m = 192 if d == 64 and seqlen > 1024 else 128
            block_n = 80 if d == 256 else 128
            bh = (2048 // d) * max(1, 16384 // seqlen)
            m = (seqlen + block_m - 1) // block_m
            groups = [int(g) for g in args.groups.split(",")] if args.groups else [0, launcher_rule(bh, block_m, args.grid)]
            cells = []
            for g in groups:
                g = g if 0 < g < bh else 0
                eff, heads = simulate(bh, m, block_m, block_n, seqlen, g, args.grid)
                cells.append("groups %3d: %.3f, %3.0f heads/round" % (g, eff, heads))
            print("d%-3d %5d  %4d pairs | %s" % (d, seqlen, bh, " | ".join(cells)))


if __name__ == "__main__":
    main()
