#!/usr/bin/env python3
"""The sm90 backward's cost a work item beyond its steps, from the diagnostic timeline (a build
with -DFLASHATTN_SM90_TRACE; bench/gpu/bwd_trace.py reads the same lines). An item's record spans
from the end of the CTA's previous item (or the consumers' entry) to its own end, so its duration
holds the item's steps and the switch between items: the dK/dV epilogue, the next K/V tile's
load and the pipeline's refill. A least-squares line over the whole items (role 0) of one launch,
    duration = fixed + per_step x steps,
gives the fixed part; causal walks give items of many lengths (a non-causal launch's items all
have the same steps, so it fits no line: its mean is printed). On a persistent grid the CTAs'
first items (the kernel's start) are left out; on a grid of one CTA a tile (causal) each CTA's one
item counts, from its consumers' entry, and the gaps between one CTA's end and the next CTA's entry
on the same SM (its launch and set-up) are reported beside. Prints per launch after --skip, then
the means:
    items, steps (min / max), per_step ns, fixed ns (and in steps), R^2,
    share: items x fixed / the items' summed durations (the time a per-item fixed cost takes),
    gaps (one CTA a tile): median ns, and their sum over the SMs in % of SMs x span.
With the trace's phase lines (BX L cta item t_kv t_s1 t_last: the consumers past the K/V wait,
at step 1's start, past the last step's GEMMs) it also splits items of 2+ steps, medians in ns:
    wait (item start -> K/V landed), step 0, a later step ((t_last - t_s1) / (steps - 1)),
    epilogue (t_last -> item end: dK and dV out), and fixed = wait + step 0 - a step + epilogue;
and where the lines hold the TMA-store epilogue's marks (BX ... t_bar t_read t_kvi, session 44),
the epilogue and the wait split (medians, ns): to the barrier after dV's stmatrix, to the
stores' reads done, the release (to the item's end); the producer's K/V issue after the item's
start (its wake-up from the last item's kv_empty; since session 45 V's issue after v_empty, which
may come before the item's start) and the load (issue -> landed: since session 45 V's and K's,
K's after its own kv_empty wait).
    python3 bench/gpu/bwd_item_cost.py [--skip N] FILE ...
    python3 bench/gpu/bwd_item_cost.py --selftest
"""
import argparse
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bwd_trace import parse, read_lines  # noqa: E402


def fit(items, first=False):
    """(n, steps_min, steps_max, per_step, fixed, r2, share) of whole items (past each CTA's first
    unless `first`); per_step and fixed None when the steps do not vary."""
    pts = [(it[5], it[7] - it[6]) for it in items if it[4] == 0 and (first or it[2] > 0) and it[7] > it[6]]
    if len(pts) < 3:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    n, mx, my = len(pts), statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return (n, min(xs), max(xs), None, None, None, my)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    ss_tot = sum((y - my) ** 2 for y in ys)
    r2 = 1 - ss_res / ss_tot if ss_tot > 0 else float("nan")
    return (n, min(xs), max(xs), b, a, r2, n * a / sum(ys))


def gaps(ctas):
    """Per SM, the entry of each CTA less the end of the one before it (grids of one CTA a tile):
    (median ns, sum over the SMs / (SMs x span))."""
    by_sm = {}
    for sm, t0, t1, _ in ctas.values():
        if t1 > 0:
            by_sm.setdefault(sm, []).append((t0, t1))
    gs, span = [], max((t1 for _, _, t1, _ in ctas.values()), default=0)
    for v in by_sm.values():
        v.sort()
        gs += [max(0, b[0] - a[1]) for a, b in zip(v, v[1:])]
    if not gs or span <= 0:
        return None
    return statistics.median(gs), sum(gs) / (len(by_sm) * span)


def phases(L):
    """Medians (wait, step0, step, epilogue, fixed) over the launch's whole items of 2+ steps."""
    rows = []
    for cta, _, item, _, role, steps, t0, t1, _ in L["items"]:
        x = L["phases"].get((cta, item))
        if role != 0 or steps < 2 or x is None or min(x[:3]) < 0:
            continue
        t_kv, t_s1, t_last = x[:3]
        step = (t_last - t_s1) / (steps - 1)
        rows.append((t_kv - t0, t_s1 - t_kv, step, t1 - t_last, (t_kv - t0) + (t_s1 - t_kv - step) + (t1 - t_last)))
    if not rows:
        return None
    return tuple(statistics.median(r[i] for r in rows) for i in range(5))


def splits(L):
    """Medians (to the barrier, stores read, release, K/V issue after the item's start, K/V load)
    over the launch's items past each CTA's first with the epilogue's marks; None without them."""
    rows = []
    for cta, _, item, _, role, steps, t0, t1, _ in L["items"]:
        x = L["phases"].get((cta, item))
        if item == 0 or steps < 1 or x is None or len(x) < 6 or min(x) < 0:
            continue
        t_kv, _, t_last, t_bar, t_read, t_kvi = x
        rows.append((t_bar - t_last, t_read - t_bar, t1 - t_read, t_kvi - t0, t_kv - t_kvi))
    if not rows:
        return None
    return tuple(statistics.median(r[i] for r in rows) for i in range(5))


def report(runs, skip, out):
    rows = []
    for key in sorted(runs):
        if key[1] < skip:
            continue
        L = runs[key]
        one = L["bk"].get("grid") == L["bk"].get("tiles")
        r = fit(L["items"], first=one)
        if r is None:
            continue
        rows.append(r)
        x = phases(L)
        if x is not None:
            print(f"launch {key}: medians, ns: wait for K/V {x[0]:.0f}, step 0 {x[1]:.0f}, a later step {x[2]:.0f}, "
                  f"epilogue {x[3]:.0f}; fixed {x[4]:.0f}", file=out)
        y = splits(L)
        if y is not None:
            print(f"launch {key}: epilogue, ns: to the barrier {y[0]:.0f}, stores read {y[1]:.0f}, release "
                  f"{y[2]:.0f}; K/V wait: issue after the item's start {y[3]:.0f}, load {y[4]:.0f}", file=out)
        if one:
            g = gaps(L["ctas"])
            if g is not None:
                print(f"launch {key}: one CTA a tile, gaps between CTAs on an SM: median {g[0]:.0f} ns, "
                      f"{100 * g[1]:.2f}% of SMs x span", file=out)
        n, s0, s1, b, a, r2, share = r
        if b is None:
            print(f"launch {key}: {n} items of {s0} steps, mean {share / 1e3:.1f} us an item", file=out)
        else:
            print(f"launch {key}: {n} items, steps {s0}-{s1}: {b:.0f} ns a step, fixed {a:.0f} ns "
                  f"({a / b:.2f} steps), R^2 {r2:.3f}, fixed share {100 * share:.2f}%", file=out)
    fitted = [r for r in rows if r[3] is not None]
    if fitted:
        b = statistics.fmean(r[3] for r in fitted)
        a = statistics.fmean(r[4] for r in fitted)
        sh = statistics.fmean(r[6] for r in fitted)
        print(f"mean over {len(fitted)} launches: {b:.0f} ns a step, fixed {a:.0f} ns ({a / b:.2f} steps), "
              f"fixed share {100 * sh:.2f}%", file=out)
    return rows


def selftest():
    # Synthetic launches: items of 1-100 steps at 3000 ns a step plus 9000 ns each (3 steps).
    rng = random.Random(1)
    lines = []
    for launch in range(3):
        lines.append(f"BK launch={launch} grid=4 tiles=40 dp_rounds=10 width=0 steps=100 head_dim=128")
        for cta in range(4):
            t = 0
            for item in range(10):
                steps = rng.randint(1, 100)
                d = 9000 + 3000 * steps + rng.randint(-50, 50)
                lines.append(f"B {launch} {cta} {cta} {item} {cta * 10 + item} 0 {steps} {t} {t + d} {2 * d}")
                # Phases: K/V after 1000 ns, step 0 5000, later steps 3000, epilogue the rest (~6000);
                # launch 2's lines also hold the epilogue's marks: barrier +500, read +2000, K/V
                # issued 300 ns into the item.
                t_last = t + 6000 + 3000 * (steps - 1)
                extra = f" {t_last + 500} {t_last + 2500} {t + 300}" if launch == 2 else ""
                lines.append(f"BX {launch} {cta} {item} {t + 1000} {t + 6000} {t_last}{extra}")
                t += d
            lines.append(f"BC {launch} {cta} {cta} 0 {t} 10")
    runs = parse(lines)
    rows = report(runs, 1, open(os.devnull, "w"))
    x = phases(runs[(0, 1)])
    y = splits(runs[(0, 2)])
    ok = len(rows) == 2 and all(abs(r[3] - 3000) < 5 and abs(r[4] - 9000) < 300 for r in rows)
    ok = ok and abs(x[0] - 1000) < 1 and abs(x[1] - 5000) < 1 and abs(x[2] - 3000) < 1 and abs(x[4] - 9000) < 100
    ok = ok and splits(runs[(0, 1)]) is None and y is not None and abs(y[0] - 500) < 1 and abs(y[1] - 2000) < 1
    ok = ok and abs(y[3] - 300) < 1 and abs(y[4] - 700) < 1 and abs(y[2] - 3500) < 100
    print("selftest", "ok" if ok else f"FAILED {rows}")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--skip", type=int, default=3, help="leave out launches below this number (warm-up)")
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    report(parse(read_lines(a.files)), a.skip, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
