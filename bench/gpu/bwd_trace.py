#!/usr/bin/env python3
"""Summarize the sm90 backward's diagnostic timeline (a build with -DFLASHATTN_SM90_TRACE, see
src/cuda/sm90/bwd_kernel.h; bench/gpu/bwd_trace.sh runs it) to test one hypothesis: the SMs run at
unequal speeds, so the CTAs' finish times spread and a static assignment of tiles loses time at
the end. Reads the launcher's lines (ns from the launch's earliest CTA entry):
  BK launch=L grid=G tiles=T dp_rounds=R width=W steps=S head_dim=D    one a launch
  BC L cta smid t_start t_end items                                    one a CTA (entry, last item's end)
  B L cta smid item tile role steps t_start t_end cycles               one a work item (role 0 whole,
                                                                       1 partial, 2 merge)
and prints for each launch after the first --skip (the warm-up ones), per SM (a persistent grid
has one CTA an SM; a grid of one CTA a tile, several after one another):
  finish   the SMs' last item ends: min / median / max, and max - min in % of the span
  speed    ns a step over whole tiles: min / median / max over the SMs, max / min; the SM clock
           (cycles / ns) likewise
  corr     Pearson correlation over the SMs of ns a step and finish time
  idle     sum over the SMs of (kernel end - SM's finish), in % of SMs x span
  ideal    work / SMs (work: the CTAs' entry-to-end times summed) against the span, and a greedy
           schedule of whole tiles (each to the SM free first, at that SM's measured speed, from its
           first entry)
  rounds   (stream-K grids) the end of each CTA's whole-tile rounds: min / median / max
then the means over the launches.
    python3 bench/gpu/bwd_trace.py [--skip N] [FILE ...]     (stdin without files)
    python3 bench/gpu/bwd_trace.py --selftest                  (synthetic lines of known answers)
"""
import argparse
import heapq
import random
import statistics
import sys


def parse(lines):
    """launch -> {"bk": {...}, "ctas": {cta: (smid, t0, t1, items)}, "items": [(cta, smid, item, tile,
    role, steps, t0, t1, cycles)], "phases": {(cta, item): (t_kv, t_s1, t_last[, t_bar, t_read,
    t_kvi])} (BX lines, where the trace build writes them; the last three since session 44)}; a new
    process restarts the launch numbers, so a BK line whose
    launch number was seen already opens a new run (keys: (run, launch))."""
    runs, run, seen = {}, 0, set()
    for line in lines:
        f = line.split()
        if not f:
            continue
        if f[0] == "BK":
            kv = dict(x.split("=", 1) for x in f[1:])
            bk = {k: int(v) for k, v in kv.items()}
            if bk["launch"] in seen:
                run, seen = run + 1, set()
            seen.add(bk["launch"])
            runs[(run, bk["launch"])] = {"bk": bk, "ctas": {}, "items": [], "phases": {}}
        elif f[0] == "BC" and len(f) == 7:
            L = runs.get((run, int(f[1])))
            if L is not None:
                L["ctas"][int(f[2])] = (int(f[3]), int(f[4]), int(f[5]), int(f[6]))
        elif f[0] == "B" and len(f) == 11:
            L = runs.get((run, int(f[1])))
            if L is not None:
                L["items"].append(tuple(int(x) for x in f[2:]))
        elif f[0] == "BX" and len(f) in (7, 10):
            L = runs.get((run, int(f[1])))
            if L is not None:
                L["phases"][(int(f[2]), int(f[3]))] = tuple(int(x) for x in f[4:])
    return runs


def read_lines(files):
    """The lines of the files (stdin for none or "-")."""
    lines = []
    for name in files or ["-"]:
        lines += (sys.stdin if name == "-" else open(name)).read().splitlines()
    return lines


def pearson(xs, ys):
    n = len(xs)
    if n < 3:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else float("nan")


def greedy(start, speed, tiles, steps):
    """Makespan of `tiles` tiles of `steps` steps handed out whole to the SM free first (start:
    SM -> its first entry, speed: SM -> ns a step)."""
    heap = [(t, sm) for sm, t in start.items()]
    heapq.heapify(heap)
    end = 0
    for _ in range(tiles):
        t, sm = heapq.heappop(heap)
        t += steps * speed[sm]
        end = max(end, t)
        heapq.heappush(heap, (t, sm))
    return end


def analyze(L):
    """The metrics of one launch (a dict), or None without data."""
    bk, items = L["bk"], L["items"]
    ctas = {c: v for c, v in L["ctas"].items() if v[2] >= 0}  # (t_end -1: the CTA's consumers never ended)
    if not ctas or not items:
        return None
    span = max(c[2] for c in ctas.values())
    if span <= 0:
        return None
    finish, work, first = {}, 0, {}
    for smid, t0, t1, _ in ctas.values():
        finish[smid] = max(finish.get(smid, 0), t1)
        first[smid] = min(first.get(smid, t0), t0)
        work += t1 - t0
    ns, st, cyc = {}, {}, {}
    for cta, smid, item, tile, role, steps, t0, t1, cycles in items:
        if role == 0 and steps > 0:
            ns[smid] = ns.get(smid, 0) + (t1 - t0)
            st[smid] = st.get(smid, 0) + steps
            cyc[smid] = cyc.get(smid, 0) + cycles
    speed = {sm: ns[sm] / st[sm] for sm in ns}
    clock = {sm: cyc[sm] / ns[sm] for sm in ns if ns[sm] > 0}
    sms = sorted(finish)
    fin = sorted(finish.values())
    med_speed = statistics.median(speed.values()) if speed else float("nan")
    with_speed = [sm for sm in sms if sm in speed]
    r = {
        "grid": bk["grid"], "tiles": bk["tiles"], "steps": bk["steps"], "width": bk["width"],
        "dp_rounds": bk["dp_rounds"], "sms": len(sms), "span": span,
        "fin_min": fin[0], "fin_med": statistics.median(fin), "fin_max": fin[-1],
        "fin_spread": 100.0 * (fin[-1] - fin[0]) / span,
        "idle": 100.0 * sum(span - f for f in fin) / (len(fin) * span),
        "ideal": work / len(sms),
        "corr": pearson([speed[sm] for sm in with_speed], [finish[sm] for sm in with_speed]),
    }
    r["ideal_loss"] = 100.0 * (span - r["ideal"]) / span
    if speed:
        v = sorted(speed.values())
        r.update(sp_min=v[0], sp_med=statistics.median(v), sp_max=v[-1], sp_ratio=v[-1] / v[0])
        c = sorted(clock.values())
        r.update(clk_min=c[0], clk_med=statistics.median(c), clk_max=c[-1])
        g = greedy(first, {sm: speed.get(sm, med_speed) for sm in sms}, bk["tiles"], bk["steps"])
        r.update(greedy=g, greedy_loss=100.0 * (span - g) / span)
    if bk["width"] > 0:  # the end of each CTA's whole-tile rounds (items 0 .. dp_rounds - 1)
        ends = sorted(t1 for cta, smid, item, tile, role, steps, t0, t1, cyc in items if item == bk["dp_rounds"] - 1)
        if ends:
            r.update(rd_min=ends[0], rd_med=statistics.median(ends), rd_max=ends[-1])
    return r


def us(x):
    return "%.1f" % (x / 1e3)


def report(runs, skip, out=sys.stdout):
    rows = []
    for key in sorted(runs):
        if key[1] < skip:
            continue
        r = analyze(runs[key])
        if r is None:
            continue
        rows.append(r)
        print("launch %d.%d: grid %d, tiles %d x %d steps, %s; %d SMs, span %s us" % (
            key[0], key[1], r["grid"], r["tiles"], r["steps"],
            "stream-K: %d whole rounds + tail of %d steps a CTA" % (r["dp_rounds"], r["width"]) if r["width"] else
            "no stream-K tail", r["sms"], us(r["span"])), file=out)
        print("  finish (us) min %s / median %s / max %s: spread %.2f%% of the span; idle at the end %.2f%% of SMs x span" % (
            us(r["fin_min"]), us(r["fin_med"]), us(r["fin_max"]), r["fin_spread"], r["idle"]), file=out)
        if "sp_min" in r:
            print("  ns a step over whole tiles: min %.1f / median %.1f / max %.1f, max/min %.4f; SM clock %.3f / %.3f / %.3f GHz; "
                  "corr(ns a step, finish) %+.2f" % (r["sp_min"], r["sp_med"], r["sp_max"], r["sp_ratio"], r["clk_min"],
                                                     r["clk_med"], r["clk_max"], r["corr"]), file=out)
            print("  ideal: work / SMs %s us (%.2f%% under the span); greedy whole tiles at the measured speeds %s us "
                  "(%+.2f%% against the span)" % (
                us(r["ideal"]), r["ideal_loss"], us(r["greedy"]), -r["greedy_loss"]), file=out)
        else:
            print("  ideal: work / SMs %s us (%.2f%% under the span)" % (us(r["ideal"]), r["ideal_loss"]), file=out)
        if "rd_min" in r:
            print("  whole-tile rounds end (us): min %s / median %s / max %s" % (
                us(r["rd_min"]), us(r["rd_med"]), us(r["rd_max"])), file=out)
    if len(rows) > 1:
        m = lambda k: statistics.mean(r[k] for r in rows if k in r)
        print("mean of %d launches: span %s us, finish spread %.2f%%, idle %.2f%%, ns a step max/min %.4f, corr %+.2f, "
              "work / SMs %.2f%% under the span, greedy whole tiles %+.2f%% against it" % (
                  len(rows), us(m("span")), m("fin_spread"), m("idle"), m("sp_ratio"), m("corr"), m("ideal_loss"),
                  -m("greedy_loss")), file=out)
    if not rows:
        print("no backward trace lines (a build without -DFLASHATTN_SM90_TRACE?)", file=out)
    return rows


# ---- the self-test: synthetic launches whose answers are known --------------------------------------

def plan_items(tiles, grid, nk, cta):
    """config.h StreamK::item's walk for one CTA (a plan with a tail): [(tile, role, steps)], rounds, width."""
    assert tiles > grid and tiles % grid != 0
    rounds = tiles // grid - 1
    tile0, tail = rounds * grid, (tiles - rounds * grid) * nk
    width = (tail + grid - 1) // grid
    out = [(r * grid + ((grid - 1 - cta) if r & 1 else cta), 0, nk) for r in range(rounds)]
    u, end = cta * width, min(cta * width + width, tail)
    while u < end:
        k, j = divmod(u, nk)
        n = min(end - u, nk - j)
        out.append((tile0 + k, 1 if j > 0 else 2 if n < nk else 0, n))
        u += n
    return out, rounds, width


def synthetic(persistent, speeds, tiles=2048, nk=128, seed=1, entry=1000):
    """Lines of one launch: SM s takes speeds[s] ns a step at 1.8 cycles a ns, items back to back
    after a CTA's entry (entry ns); persistent: CTA c on SM c with the stream-K plan; else one CTA
    a tile, each to the SM free first."""
    rnd = random.Random(seed)
    n = len(speeds)
    lines = []
    if persistent:
        grid = n
        lines_items = []
        for c in range(grid):
            items, rounds, width = plan_items(tiles, grid, nk, c)
            t = entry + rnd.randrange(0, 500)
            t_entry = t - entry
            for i, (tile, role, steps) in enumerate(items):
                d = int(round(steps * speeds[c]))
                lines_items.append("B 0 %d %d %d %d %d %d %d %d %d" % (c, c, i, tile, role, steps, t, t + d, int(d * 1.8)))
                t += d
            lines.append("BC 0 %d %d %d %d %d" % (c, c, t_entry, t, len(items)))
        bk = "BK launch=0 grid=%d tiles=%d dp_rounds=%d width=%d steps=%d head_dim=128" % (grid, tiles, rounds, width, nk)
        lines = [bk] + lines + lines_items
    else:
        heap = [(0, s) for s in range(n)]
        lines.append("BK launch=0 grid=%d tiles=%d dp_rounds=1 width=0 steps=%d head_dim=128" % (tiles, tiles, nk))
        for c in range(tiles):
            t, s = heapq.heappop(heap)
            d = int(round(nk * speeds[s]))
            lines.append("BC 0 %d %d %d %d 1" % (c, s, t, t + entry + d))
            lines.append("B 0 %d %d 0 %d 0 %d %d %d %d" % (c, s, c, nk, t + entry, t + entry + d, int(d * 1.8)))
            heapq.heappush(heap, (t + entry + d, s))
    return lines


def selftest():
    n = 132
    rnd = random.Random(7)
    speeds = [2800.0 * (1 + 0.04 * rnd.random()) for _ in range(n)]  # ns a step, up to 4% apart
    ratio = max(speeds) / min(speeds)
    ok = True

    def check(name, got, want, tol):
        nonlocal ok
        good = abs(got - want) <= tol
        ok &= good
        print("  %-48s %12.5f  expected %12.5f  %s" % (name, got, want, "ok" if good else "FAIL"))

    for persistent in (True, False):
        # (one CTA a tile without an entry cost: the greedy model, which charges none, is then the schedule)
        lines = synthetic(persistent, speeds, entry=1000 if persistent else 0)
        runs = parse(lines + lines[:1] + lines[1:])  # a second process: run 1 (the first BK repeats)
        assert len(runs) == 2, runs.keys()
        print("synthetic %s:" % ("persistent + stream-K" if persistent else "one CTA a tile"))
        rows = report(runs, 0, out=open("/dev/null", "w"))
        r = rows[0]
        check("SMs", r["sms"], n, 0)
        check("ns a step max/min", r["sp_ratio"], ratio, 1e-3)
        check("SM clock (1.8 GHz)", r["clk_med"], 1.8, 2e-3)
        ends = {}
        for l in lines:
            f = l.split()
            if f[0] == "BC":
                ends[int(f[3])] = max(ends.get(int(f[3]), 0), int(f[5]))
        span = max(ends.values())
        check("idle %", r["idle"], 100.0 * sum(span - e for e in ends.values()) / (n * span), 1e-9)
        if persistent:
            # Static whole rounds: a CTA's finish grows with its ns a step; the tail evens the steps,
            # not the times, so the correlation stays strongly positive.
            check("corr(speed, finish) > 0.9", min(r["corr"], 0.9), 0.9, 0)
            check("tail steps a CTA (width)", r["width"], -(-(2048 - 14 * 132) * 128 // 132), 0)
        else:
            # One CTA a tile handed to the SM free first: the greedy model is the same schedule.
            check("greedy model = the schedule (loss %)", r["greedy_loss"], 0.0, 1e-3)
    print("selftest:", "passed" if ok else "FAILED")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--skip", type=int, default=1, help="launches of each run to leave out (warm-up; default 1)")
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    report(parse(read_lines(a.files)), a.skip)
    return 0


if __name__ == "__main__":
    sys.exit(main())
