#!/usr/bin/env python3
"""A model of the forward's tile schedules on a persistent grid (no GPU): the static snake
(config.h StreamK::round_tile) against tiles taken by ticket, claimed when a CTA starts its
current tile with 1 or 2 tiles held ahead (session 50's first tickets: the producer took its next
item at the current one's first key block and the server a ticket ahead of that), or `lead` units
before the current tile ends (the late claims). Tiles cost their key blocks plus a fixed part;
each CTA runs at its own speed (1 + uniform(0, spread)), fixed for the launch, as session 49's
trace found (the same CTAs 2-7% slower in every launch). Causal tiles come in head groups,
longest first within a group (config.h TileMap90).

    python3 bench/gpu/ticket_model.py [--spread 0.06] [--trials 3]
    python3 bench/gpu/ticket_model.py --selftest    # hand-worked schedules (a ctest)
"""
import argparse
import heapq
import random


def causal_tiles(pairs, qblocks, group, fixed):
    out = []
    for g0 in range(0, pairs, group):
        for blocks in range(qblocks, 0, -1):
            out += [blocks + fixed] * min(group, pairs - g0)
    return out


def static_snake(tiles, speed):
    grid, end = len(speed), [0.0] * len(speed)
    for i, cost in enumerate(tiles):
        r, k = divmod(i, grid)
        c = k if r % 2 == 0 else grid - 1 - k
        end[c] += cost * speed[c]
    return max(end)


def tickets_ahead(tiles, speed, ahead):
    """Makespan with tickets claimed when a CTA starts a tile, so that it holds `ahead` beyond it."""
    grid = len(speed)
    nxt, done = grid, 0.0
    held = [[] for _ in range(grid)]
    events = [(0.0, c, tiles[c]) for c in range(grid)]  # (start, CTA, cost): the first tile = blockIdx.x
    heapq.heapify(events)
    while events:
        t, c, cost = heapq.heappop(events)
        end = t + cost * speed[c]
        done = max(done, end)
        while len(held[c]) < ahead and nxt < len(tiles):
            held[c].append(tiles[nxt])
            nxt += 1
        if held[c]:
            heapq.heappush(events, (end, c, held[c].pop(0)))
    return done


def tickets_lead(tiles, speed, lead):
    """Makespan with a claim `lead` units before the current tile's end (at its start where it is
    shorter); tickets go out in claim order."""
    grid = len(speed)
    nxt, done = grid, 0.0
    events = [(0.0, 0, c, tiles[c]) for c in range(grid)]  # (time, 0 start / 1 claim, CTA, cost or end)
    heapq.heapify(events)
    while events:
        t, kind, c, x = heapq.heappop(events)
        if kind == 0:
            end = t + x * speed[c]
            heapq.heappush(events, (max(t, end - lead * speed[c]), 1, c, end))
        elif nxt < len(tiles):
            heapq.heappush(events, (x, 0, c, tiles[nxt]))
            nxt += 1
        else:
            done = max(done, x)
    return done


def selftest():
    # Equal CTAs, whole rounds of equal tiles: every schedule ends together.
    tiles, speed = [3.0] * 12, [1.0] * 4
    runs = [static_snake(tiles, speed), tickets_ahead(tiles, speed, 1), tickets_ahead(tiles, speed, 2),
            tickets_lead(tiles, speed, 1.0), tickets_lead(tiles, speed, 0.0)]
    assert all(abs(r - 9.0) < 1e-9 for r in runs), runs
    # A CTA twice as slow: static 3 tiles each (ends at 6); claimed at the end the fast CTA takes 4
    # (tiles end at 1, 2, 3, 4; the slow one's at 2, 4): 4.
    tiles, speed = [1.0] * 6, [1.0, 2.0]
    assert static_snake(tiles, speed) == 6.0
    assert tickets_lead(tiles, speed, 0.0) == 4.0, tickets_lead(tiles, speed, 0.0)
    # Longest first, claimed at the end: 2 CTAs, tiles 3, 3, 2, 2, 1, 1 -> each 6 (3 + 2 + 1).
    assert tickets_lead([3.0, 3.0, 2.0, 2.0, 1.0, 1.0], [1.0, 1.0], 0.0) == 6.0
    # Two held ahead: the slow CTA already holds its third tile when the fast one is done.
    assert tickets_ahead(tiles, [1.0, 2.0], 2) == 6.0, tickets_ahead(tiles, [1.0, 2.0], 2)
    print("ticket_model selftest: ok")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--spread", type=float, default=0.06, help="CTA speeds 1 + uniform(0, spread)")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--grid", type=int, default=132)
    ap.add_argument("--fixed", type=float, default=1.5, help="a tile's fixed cost in key blocks")
    a = ap.parse_args()
    if a.selftest:
        selftest()
        return
    random.seed(1)
    shapes = [("d128 causal 512", 512, 4), ("d128 causal 1k", 256, 8), ("d128 causal 2k", 128, 16),
              ("d64 causal 2k (192 rows)", 256, 11), ("d128 512 (equal tiles)", 512, 0)]
    print("shape | static (units) | tickets: 1 ahead | 2 ahead | lead 3.5 | lead 2 | at the end (gain over static)")
    for _ in range(a.trials):
        speed = [1.0 + random.uniform(0.0, a.spread) for _ in range(a.grid)]
        for name, pairs, qb in shapes:
            tiles = causal_tiles(pairs, qb, 33 if pairs > 66 else pairs, a.fixed) if qb else [4 + a.fixed] * 4 * pairs
            s = static_snake(tiles, speed)
            runs = [tickets_ahead(tiles, speed, 1), tickets_ahead(tiles, speed, 2), tickets_lead(tiles, speed, 3.5),
                    tickets_lead(tiles, speed, 2.0), tickets_lead(tiles, speed, 0.0)]
            print("%s | %.1f | %s" % (name, s, " | ".join("%+.1f%%" % (100 * (s / r - 1)) for r in runs)))


if __name__ == "__main__":
    main()
