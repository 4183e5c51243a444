#!/usr/bin/env python3
"""Randomized model checker of the kPair dQ protocol of src/cuda/sm90/bwd_kernel.h (variant 2 of
commit 8c09ff0: the partner's half goes by one bulk copy of the writer, not by consumer st.async).

Two CTAs (rank 0, 1) of a cluster; CTA r owns the rows of half r (rows r kBlockM / 2 ..) of the
step's dQ tile. Each CTA has, per dQ buffer b (kUses = kBuffersdQ of them, step g uses b = g % kUses,
its use u = g / kUses), a dQ buffer of two halves and a staging buffer of one half, and barriers
dq_full[b] (count 256), dq_empty[b] (count 64) and stg_full[b] (count 1). Actors:
  * 256 consumer threads, grouped into units of T threads (T=1: every thread its own actor); unit
    j belongs to warp j*T//32, its rows lie in half `half_of_warp` (layout bm64: warp%4 // 2, layout
    bm128: warpgroup). Per step: if u > 0 wait dq_empty[b] (parity (u-1)&1), store
    its cells of the WHOLE tile (both halves) into the own dQ buffer b, fence.proxy.async, arrive
    dq_full[b] (T arrivals).
  * the dQ writer warp: 32 lanes, each an independent actor (independent thread scheduling). Per
    step: wait dq_full[b] (parity u&1); lane 0 issues ONE bulk copy (cp.async.bulk shared::cluster)
    of the partner's half of buffer b (rows of rank^1) into the partner's staging b, completing
    kStgBytes of tx on the partner's stg_full[b]; every lane waits its own stg_full[b] (parity u&1),
    adds its cells (c % 32 == lane) of the staging into the own half of buffer b; lane 0 re-arms
    stg_full[b] (arrive.expect_tx(kStgBytes)); __syncwarp; every lane arrives (remote,
    mapa) on the partner's dq_empty[b]; lane 0 issues the TMA reduce of the own half; bulk_commit
    + bulk_wait_read; every lane arrives on its own dq_empty[b]. So dq_empty[b] of CTA r completes
    after r's 32 lanes' TMA reads of its own half and the partner's 32 lanes, which arrive after
    the copy from r landed (r's source half read) and after they read their staging (which r's
    copy of the next use rewrites).
  * thread 0: barrier init (+ the initial arrive.expect_tx(kStgBytes) on every stg_full), the
    cluster sync; the cluster sync before exit (every actor of both CTAs takes part in both; an
    actor ends at its arrival on the final one, and both CTAs exit once all have arrived).
  * asynchronous agents: every bulk copy in flight (reads each source cell at a random later time,
    writes each destination cell at a random time after its read, then, after all of them, completes
    its bytes on the destination's stg_full in one go at a random later time), every TMA reduce
    cell read in flight (reads one cell of the own half at a random later time; the bulk group's
    read is complete once all its cells were read).
mbarrier: pending arrivals / tx-count / phase; a phase completes when pending == 0 and tx == 0
(tx may go negative); try_wait.parity(p) succeeds iff (completed phases & 1) != p. Memory order is
sequentially consistent (the acquire/release scopes, CTA or cluster: b36d025, and the proxy
fences are not modelled).
Cells carry symbolic contents: a consumer of CTA c at step g stores ((c, g, h),) into half h; the
copy of CTA c must read ((c, g, c^1),) (check value); the writer of r needs own ((r, g, r),) and
staging ((r^1, g, r),) and makes ((r, g, r), (r^1, g, r)); the TMA read must see exactly that.
Scheduler: at each event, with probability p_async one agent step in flight (uniformly), else one
ready actor, drawn by weight (per CTA x per role x per actor, some actors 1000x slower, and in 30%
of the runs one CTA's writer lane 0 10^4x slower: the windows between its steps get long).
Checks: deadlock (no actor can move and nothing is in flight; or a step limit), a cell rewritten
while still needed (own half: by the writer's add or the TMA read; partner half: by the copy's read;
staging: by the writer's add), wrong values, arrivals / tx on uninitialized barriers, more arrivals
than pending, accesses to or from an exited CTA (remote arrivals, copies in flight, TMA reads in
flight at exit), and at the end every reduction read every cell of its half.
Mutations (`mut`, drive.py MUTS): the protocol with one step changed, each named where it acts.
The st.async variant of the protocol (consumers pushing their partner half, 8 bytes each) and its
model: commit 721243f.
"""
import itertools
from bisect import bisect_right as bisect
import random
import sys

# kStgBytes = (kBlockM / 2) * kRowdQ, kRowdQ = (kD + 8) * 4: the copy of the half's rows with padding
KSTG = {"bm64": 32 * (128 + 8) * 4, "bm128": 64 * (64 + 8) * 4}
KSTG_DATA = 16384  # (kBlockM / 2) * kD * 4: the data columns only (the st.async variant's bytes)


class ProtocolError(Exception):
    pass


class Deadlock(Exception):
    pass


class Bar:
    __slots__ = ("name", "init", "pending", "tx", "phase", "inited", "sim")

    def __init__(self, sim, name):
        self.sim, self.name, self.inited = sim, name, False
        self.init = self.pending = self.tx = self.phase = 0

    def do_init(self, count):
        self.init = self.pending = count
        self.tx = self.phase = 0
        self.inited = True

    def _need_init(self, what):
        if not self.inited:
            self.sim.err("uninit", f"{what} on {self.name} before its init")

    def _maybe_complete(self):
        if self.pending == 0 and self.tx == 0:
            self.phase += 1
            self.pending = self.init
            self.sim.log(f"  {self.name} phase {self.phase - 1} completes")

    def arrive(self, n=1):
        self._need_init("arrive")
        if self.pending < n:  # more arrivals than the phase expects (pending 0, tx != 0): UB
            self.sim.err("overarrive", f"{n} arrivals on {self.name} with pending {self.pending} tx {self.tx}")
        self.pending -= n
        self._maybe_complete()

    def arrive_expect_tx(self, b):
        self._need_init("arrive.expect_tx")
        self.tx += b
        self.arrive(1)

    def complete_tx(self, b):
        self._need_init("complete_tx")
        self.tx -= b
        if abs(self.tx) >= (1 << 20):
            self.sim.err("txrange", f"{self.name} tx {self.tx}")
        self._maybe_complete()

    def done(self, parity):  # try_wait.parity
        return (self.phase & 1) != parity


class Cell:
    __slots__ = ("val", "need_writer", "need_tma", "need_copy")

    def __init__(self):
        self.val, self.need_writer, self.need_tma, self.need_copy = None, False, False, False


class Copy:
    """One cp.async.bulk shared::cluster in flight: src CTA's buffer b (half src^1) -> dst staging b."""
    __slots__ = ("id", "src", "dst", "b", "g", "half", "reads_left", "writes_left", "nbytes")

    def __init__(self, cid, src, b, g, half, ncells, nbytes):
        self.id, self.src, self.dst, self.b, self.g, self.half = cid, src, src ^ 1, b, g, half
        self.reads_left = self.writes_left = ncells
        self.nbytes = nbytes


class Sim:
    def __init__(self, seed, N, kuses=1, T=32, chunks=2, layout="bm64", mut=(), trace=False):
        self.rng = random.Random(seed)
        self.N, self.K, self.T, self.chunks, self.layout = N, kuses, T, chunks, layout
        self.mut = set(mut)
        self.kstg = KSTG[layout]
        self.trace = [] if trace else None
        self.U = 256 // T
        # units: their half and their cell ids within it (one cell per store chunk)
        self.unit_half, self.unit_cells = [], []
        cnt = [0, 0]
        for j in range(self.U):
            w = j * T // 32
            h = (w % 4) // 2 if layout == "bm64" else w // 4
            self.unit_half.append(h)
            self.unit_cells.append([cnt[h] * chunks + c for c in range(chunks)])
            cnt[h] += 1
        assert cnt[0] == cnt[1]
        self.ncells = cnt[0] * chunks  # cells per half
        mk = lambda n: [[Bar(self, f"{n}[cta{r}][{b}]") for b in range(kuses)] for r in range(2)]
        self.dq_full, self.dq_empty, self.stg_full = mk("dq_full"), mk("dq_empty"), mk("stg_full")
        # buf[r][b][h][cell]: CTA r's dQ buffer b, rows of half h; stg[r][b][cell]: CTA r's staging b
        self.buf = [[[[Cell() for _ in range(self.ncells)] for _ in range(2)] for _ in range(kuses)] for _ in range(2)]
        self.stg = [[[Cell() for _ in range(self.ncells)] for _ in range(kuses)] for _ in range(2)]
        # ('tma', r, b, cell, g) | ('cr', copy, cell) | ('cw', copy, cell, val) | ('cc', copy)
        self.inflight = []
        self.copies_open = [0, 0]  # copies issued by CTA r not yet completed
        self.ncopies = 0
        self.tma_left = {}  # (r, g) -> cells not yet read by that reduction
        self.tma_busy = [[0] * kuses for _ in range(2)]  # TMA cell reads in flight per (r, b)
        self.reduced = [[0] * N for _ in range(2)]  # cells read (correct) per reduction
        self.syncwarp = {}
        self.csync = [0, 0, 0, 0]  # arrivals: cluster sync 0 (init), 1 (end); CTA-local fallbacks
        self.exited = [False, False]
        self.actors = []  # [gen, cond, cta, name]
        for r in range(2):
            self.actors.append(self._mk(self.thread0(r), r, f"t0.cta{r}"))
            for j in range(self.U):
                self.actors.append(self._mk(self.consumer(r, j), r, f"cons{j}.cta{r}"))
            for l in range(32):
                self.actors.append(self._mk(self.writer(r, l), r, f"wr{l}.cta{r}"))
        self.per_cta = [sum(1 for a in self.actors if a[2] == r) for r in range(2)]
        self.n_actors = len(self.actors)
        # random speeds: per CTA, per role, async agents
        self.speed = [self.rng.choice([1.0, 1.0, 0.5, 0.1, 0.02]) for _ in range(2)]
        self.p_async = self.rng.choice([0.005, 0.05, 0.3, 0.7, 0.95])
        self.role_speed = {k: self.rng.choice([1.0, 0.3, 0.05]) for k in ("t", "cons", "wr")}
        self.step = 0
        # coverage: the lowest stg_full tx seen (< 0: a copy completed before the re-arm), the
        # copy's reads and writes while its source CTA's TMA read of the same buffer was in flight
        self.min_tx, self.overlap = 0, 0

    def _mk(self, gen, r, name):
        return [gen, None, r, name]

    def log(self, msg):
        if self.trace is not None:
            self.trace.append(f"{self.step}: {msg}")

    def err(self, kind, msg):
        raise ProtocolError(f"[{kind}] {msg}")

    # ---------------- cluster syncs ----------------
    def cluster_sync(self, idx, r):
        if idx == 0 and "no_init_cluster_sync" in self.mut:  # __syncthreads instead
            k = 2 + r
            self.csync[k] += 1
            yield lambda: self.csync[k] >= self.per_cta[r]
            return
        if idx == 1:  # the actor ends here; its CTA exits once every actor of both CTAs arrived (run)
            if "no_final_cluster_sync" not in self.mut:  # (mutation: once the CTA's own actors ended)
                self.csync[1] += 1
            return
        self.csync[idx] += 1
        yield lambda: self.csync[idx] >= self.n_actors

    # ---------------- thread 0 ----------------
    def thread0(self, r):
        yield None
        m = self.mut
        for b in range(self.K):
            self.dq_full[r][b].do_init(256 // 2 if "dq_full_128" in m else 256)
            self.dq_empty[r][b].do_init(32 if "empty32" in m else 64)
            self.stg_full[r][b].do_init(1)
            if "no_init_tx" not in m:
                self.stg_full[r][b].arrive_expect_tx(KSTG_DATA if "stg_bytes_data" in m else self.kstg)
        self.log(f"cta{r} init barriers")
        yield from self.cluster_sync(0, r)
        yield None
        yield from self.cluster_sync(1, r)

    # ---------------- consumers ----------------
    def consumer(self, r, j):
        yield from self.cluster_sync(0, r)
        h, cells, T = self.unit_half[j], self.unit_cells[j], self.T
        for g in range(self.N):
            b, u = g % self.K, g // self.K
            yield None
            if u > 0 and "no_wait_empty" not in self.mut:
                par = (u & 1) if "cons_parity" in self.mut else ((u - 1) & 1)
                bar = self.dq_empty[r][b]
                yield lambda: bar.done(par)
            for c in cells:
                yield None
                cell = self.buf[r][b][h][c]
                if cell.need_writer or cell.need_tma or cell.need_copy:
                    who = "the writer's add" if cell.need_writer else ("the TMA read" if cell.need_tma else
                                                                       "the bulk copy to the partner")
                    self.err("race", f"cons cta{r} g{g}: buf{b} half{h} cell{c} overwritten while {who} "
                             f"still needs {cell.val}")
                cell.val = ((r, g, h),)
                if h == r:
                    cell.need_writer = True
                else:
                    cell.need_copy = True
            yield None  # fence.proxy.async, then the arrival
            self.dq_full[r][b].arrive(T)
            self.log(f"cons{j}.cta{r} g{g} arrive dq_full[{b}] (phase {self.dq_full[r][b].phase})")
        yield None
        yield from self.cluster_sync(1, r)

    # ---------------- dQ writer ----------------
    def writer(self, r, l):
        yield from self.cluster_sync(0, r)
        m = self.mut
        rearm_bytes = KSTG_DATA if ("stg_bytes_data" in m or "rearm_bytes_data" in m) else self.kstg
        copy_bytes = KSTG_DATA if "copy_bytes_data" in m else self.kstg
        mycells = [c for c in range(self.ncells) if c % 32 == l]
        remote_at = ("remote_before_wait" if "remote_before_wait" in m else
                     "remote_before_add" if "remote_before_add" in m else
                     None if "no_remote_arrive" in m else "normal")
        for g in range(self.N):
            b, u = g % self.K, g // self.K
            fb, sb = self.dq_full[r][b], self.stg_full[r][b]
            yield None
            if l == 0 and "copy_before_full" in m:
                self._issue_copy(r, b, g, copy_bytes)
                yield None
            yield lambda: fb.done(u & 1)
            if l == 0 and "copy_before_full" not in m:
                yield None
                self._issue_copy(r, b, g, copy_bytes)
            if remote_at == "remote_before_wait":
                yield None
                self._remote_arrive(r, b, g, l)
            if "no_stg_wait" not in m:
                par = (u & 1) ^ (1 if "stg_parity" in m else 0)
                yield lambda: sb.done(par)
            if remote_at == "remote_before_add":
                yield None
                self._remote_arrive(r, b, g, l)
            for c in mycells:
                yield None
                o, s = self.buf[r][b][r][c], self.stg[r][b][c]
                if o.val != ((r, g, r),) or not o.need_writer:
                    self.err("race", f"wr{l}.cta{r} g{g}: own half buf{b} cell{c} holds {o.val}, "
                             f"expected (({r}, {g}, {r}),) (consumers' store not there)")
                if s.val != ((r ^ 1, g, r),) or not s.need_writer:
                    self.err("race", f"wr{l}.cta{r} g{g}: staging buf{b} cell{c} holds {s.val}, expected "
                             f"(({r ^ 1}, {g}, {r}),) (partner's copy of g{g} not landed)")
                sv, ov = s.val, o.val
                s.need_writer = False  # staging read done
                yield None  # (own's read, add, store: another actor may run between)
                if o.val != ov:
                    self.err("race", f"wr{l}.cta{r} g{g}: own cell{c} rewritten between the writer's load and store")
                o.val, o.need_writer, o.need_tma = ov + sv, False, True
            yield None  # fence.proxy.async
            if l == 0 and "rearm_after" not in m and "no_rearm" not in m:
                yield None
                sb.arrive_expect_tx(rearm_bytes)
                self.log(f"wr0.cta{r} g{g} re-arm stg_full[{b}] (phase {sb.phase} tx {sb.tx})")
            if "no_syncwarp" not in m:
                key = (r, g)
                self.syncwarp[key] = self.syncwarp.get(key, 0) + 1
                yield lambda: self.syncwarp[key] >= 32
            if remote_at == "normal":
                yield None
                self._remote_arrive(r, b, g, l)
            if l == 0 and "rearm_after" in m:
                yield None
                sb.arrive_expect_tx(rearm_bytes)
                self.log(f"wr0.cta{r} g{g} re-arm stg_full[{b}] (phase {sb.phase} tx {sb.tx})")
            if l == 0:
                yield None
                self.tma_left[(r, g)] = self.ncells
                for c in range(self.ncells):
                    self.inflight.append(("tma", r, b, c, g))
                self.tma_busy[r][b] += self.ncells
                self.log(f"wr0.cta{r} g{g} issue TMA reduce of own half buf{b}")
                if "arrive_before_read" not in m:
                    yield lambda: self.tma_left[(r, g)] == 0  # bulk_wait_read (lane 0's group)
            # lanes 1..31: bulk_commit of an empty group, bulk_wait_read returns at once
            yield None
            self.dq_empty[r][b].arrive(1)
        if l == 0:
            yield lambda: all(self.tma_left[(r, g)] == 0 for g in range(self.N))  # bulk_wait
        yield None
        yield from self.cluster_sync(1, r)

    def _issue_copy(self, r, b, g, nbytes):
        half = r if "copy_own_half" in self.mut else r ^ 1
        cp = Copy(self.ncopies, r, b, g, half, self.ncells, nbytes)
        self.ncopies += 1
        self.copies_open[r] += 1
        for c in range(self.ncells):
            self.inflight.append(("cr", cp, c))
        self.log(f"wr0.cta{r} g{g} issue bulk copy of buf{b} half{half} -> cta{r ^ 1} stg{b}")

    def _remote_arrive(self, r, b, g, l):
        p = r ^ 1
        if self.exited[p]:
            self.err("exit", f"wr{l}.cta{r} g{g}: remote arrive on exited cta{p}")
        self.dq_empty[p][b].arrive(1)
        if l == 0:
            self.log(f"wr*.cta{r} g{g} remote arrive dq_empty[cta{p}][{b}] (phase {self.dq_empty[p][b].phase})")

    # ---------------- async agents ----------------
    def land(self, i):
        it = self.inflight[i]
        self.inflight[i] = self.inflight[-1]
        self.inflight.pop()
        kind = it[0]
        if kind == "tma":
            _, r, b, c, g = it
            cell = self.buf[r][b][r][c]
            exp = ((r, g, r), (r ^ 1, g, r))
            if cell.val != exp or not cell.need_tma:
                self.err("value", f"TMA reduce cta{r} g{g} buf{b} cell{c} reads {cell.val}, expected {exp}")
            cell.need_tma = False
            self.reduced[r][g] += 1
            self.tma_left[(r, g)] -= 1
            self.tma_busy[r][b] -= 1
            return
        cp = it[1]
        if self.tma_busy[cp.src][cp.b]:
            self.overlap += 1
        if kind == "cr":  # the copy reads one source cell
            c = it[2]
            if self.exited[cp.src]:
                self.err("exit", f"bulk copy of cta{cp.src} g{cp.g} reads exited cta{cp.src}")
            cell = self.buf[cp.src][cp.b][cp.half][c]
            exp = ((cp.src, cp.g, cp.src ^ 1),)
            if cell.val != exp or not cell.need_copy:
                self.err("value", f"bulk copy cta{cp.src} g{cp.g} buf{cp.b} half{cp.half} cell{c} reads "
                         f"{cell.val} (need_copy {cell.need_copy}), expected {exp}")
            cell.need_copy = False
            cp.reads_left -= 1
            self.inflight.append(("cw", cp, c, cell.val))
        elif kind == "cw":  # the copy writes one destination cell
            _, _, c, v = it
            if self.exited[cp.dst]:
                self.err("exit", f"bulk copy from cta{cp.src} g{cp.g} writes exited cta{cp.dst}")
            cell = self.stg[cp.dst][cp.b][c]
            if cell.need_writer:
                self.err("race", f"bulk copy from cta{cp.src} g{cp.g} overwrites staging cta{cp.dst} buf{cp.b} "
                         f"cell{c} still unread: {cell.val}")
            cell.val, cell.need_writer = v, True
            cp.writes_left -= 1
            if cp.writes_left == 0:
                self.inflight.append(("cc", cp))
        else:  # complete_tx on the destination's stg_full, all bytes at once
            if self.exited[cp.dst]:
                self.err("exit", f"bulk copy from cta{cp.src} g{cp.g} completes on exited cta{cp.dst}")
            bar = self.stg_full[cp.dst][cp.b]
            if not bar.inited:
                self.err("uninit", f"bulk copy from cta{cp.src} g{cp.g} completes tx on uninitialized {bar.name}")
            bar.complete_tx(cp.nbytes)
            self.min_tx = min(self.min_tx, bar.tx)
            self.copies_open[cp.src] -= 1
            self.log(f"bulk copy cta{cp.src}->cta{cp.dst} g{cp.g} buf{cp.b} completes ({bar.name} ph {bar.phase} "
                     f"pend {bar.pending} tx {bar.tx})")

    # ---------------- scheduler ----------------
    def run(self, max_steps=3_000_000):
        rng, acts = self.rng, self.actors
        # weights: the CTA's speed x the role's x the actor's own (a few stragglers 1000x slower)
        strag = rng.choice([0, 0, 0.01, 0.05])
        w = [self.speed[a[2]] * self.role_speed[a[3].split(".")[0].rstrip("0123456789")]
             * 10 ** rng.uniform(-2, 0) * (1e-3 if rng.random() < strag else 1) for a in acts]
        if rng.random() < 0.3:  # the lane that issues the copy, re-arms and reduces, a straggler
            slow = f"wr0.cta{rng.randrange(2)}"
            w[next(i for i, a in enumerate(acts) if a[3] == slow)] *= 1e-4
        live = list(range(len(acts)))
        rand = rng.random
        cum = list(itertools.accumulate(w[i] for i in live))
        hint, hcum, hint_step = [], [], -10
        while live:
            self.step += 1
            if self.step > max_steps:
                raise Deadlock("step limit")
            if self.inflight and rand() < self.p_async:
                self.land(rng.randrange(len(self.inflight)))
                continue
            # an actor by weight among the ready ones: rejection sampling over the live ones (the
            # same distribution as a draw over the ready set), then over the ready set of a full
            # scan of the last 3 steps (not yet ready then: left to the first way), then a full scan
            for _ in range(12):
                ai = live[bisect(cum, rand() * cum[-1], 0, len(cum) - 1)]
                c = acts[ai][1]
                if c is None or c():
                    break
            else:
                for _ in range(12 if hint and self.step - hint_step <= 3 else 0):
                    ai = hint[bisect(hcum, rand() * hcum[-1], 0, len(hcum) - 1)]
                    c = acts[ai][1]
                    if c is None or c():
                        break
                else:
                    hint = [i for i in live if acts[i][1] is None or acts[i][1]()]
                    hint_step = self.step
                    if not hint:
                        if self.inflight:
                            self.land(rng.randrange(len(self.inflight)))
                            continue
                        raise Deadlock(self._state())
                    hcum = list(itertools.accumulate(w[i] for i in hint))
                    ai = hint[bisect(hcum, rand() * hcum[-1], 0, len(hcum) - 1)]
            a = acts[ai]
            try:
                a[1] = next(a[0])
            except StopIteration:
                live.remove(ai)
                cum = list(itertools.accumulate(w[i] for i in live))
                hint_step = -10
                fin = "no_final_cluster_sync" in self.mut or self.csync[1] == self.n_actors
                for r in range(2):
                    if fin and not self.exited[r] and not any(acts[x][2] == r for x in live):
                        if self.tma_busy[r] != [0] * self.K:
                            self.err("exit", f"cta{r} exits with its TMA read in flight")
                        if self.copies_open[r]:
                            self.err("exit", f"cta{r} exits with its bulk copy in flight")
                        self.exited[r] = True
                        self.log(f"cta{r} exits")
        if self.inflight:
            raise ProtocolError(f"[exit] in flight after both CTAs exited: {self.inflight[:3]}")
        for r in range(2):
            for g in range(self.N):
                if self.reduced[r][g] != self.ncells:
                    raise ProtocolError(f"[value] cta{r} g{g}: {self.reduced[r][g]} cells reduced")

    def _state(self):
        s = []
        for r in range(2):
            for b in range(self.K):
                for bar in (self.dq_full, self.dq_empty, self.stg_full):
                    x = bar[r][b]
                    s.append(f"{x.name}: phase {x.phase} pending {x.pending} tx {x.tx}")
        return "deadlock: " + "; ".join(s)


def one(seed, N, kuses, T, chunks, layout, mut, trace=False):
    sim = Sim(seed, N, kuses, T, chunks, layout, mut, trace)
    try:
        sim.run()
        return None, sim
    except (ProtocolError, Deadlock) as e:
        return str(e), sim


if __name__ == "__main__":
    e, sim = one(int(sys.argv[1]) if len(sys.argv) > 1 else 1, 5, 1, 32, 2, "bm64", (), True)
    print(e or "ok", sim.step)
