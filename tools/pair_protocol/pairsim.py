#!/usr/bin/env python3
"""Randomized model checker of the kPair dQ protocol of src/cuda/sm90/bwd_kernel.h.

Two CTAs (rank 0, 1) of a cluster, each with
  * 256 consumer threads, grouped into units of T threads (T=1: every thread its own actor);
    unit j belongs to warp j*T//32; its rows lie in half `half_of_warp` (layout bm64: warp%4 // 2,
    layout bm128: warpgroup), as in store_dq (`mine`);
  * the dQ writer warp: 32 lanes, each an independent actor (independent thread scheduling);
  * thread 0: barrier init (+ initial arrive.expect_tx on stg_full), then the cluster syncs;
  * asynchronous agents: every st.async in flight (lands at a random later time: writes the
    partner's staging cell and completes its bytes on the partner's stg_full), every TMA cell read
    in flight (reads one cell of the own half at a random later time; the bulk group's read is
    complete once all its cells were read).
mbarrier: pending arrivals / tx-count / phase; a phase completes when pending == 0 and tx == 0
(tx may go negative); try_wait.parity(p) succeeds iff (completed phases & 1) != p.
Cells carry symbolic contents: a consumer of CTA c at step g stores ((c, g),); the writer's add
makes own + stg = ((r, g), (r^1, g)); the TMA read must see exactly that (check c).
"""
import random
import sys

KSTG = 16384  # (kBlockM/2)*kD*4 for both pair configs (bm64 x d128, bm128 x d64)
KSTG_PAD = 32 * (128 + 8) * 4  # kHalf*kRowdQ (bm64, d128): bytes incl. the pad columns


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
    __slots__ = ("val", "need_writer", "need_tma")

    def __init__(self):
        self.val, self.need_writer, self.need_tma = None, False, False


class Sim:
    def __init__(self, seed, N, kuses=1, T=32, chunks=2, layout="bm64", mut=(), trace=False):
        self.rng = random.Random(seed)
        self.N, self.K, self.T, self.chunks, self.layout = N, kuses, T, chunks, layout
        self.mut = set(mut)
        self.trace = [] if trace else None
        self.U = 256 // T
        # units per half and their cell ids (one cell per st.async / per store chunk)
        self.unit_half, self.unit_cells = [], []
        cnt = [0, 0]
        for j in range(self.U):
            w = j * T // 32
            h = (w % 4) // 2 if layout == "bm64" else w // 4
            self.unit_half.append(h)
            self.unit_cells.append([cnt[h] * chunks + c for c in range(chunks)])
            cnt[h] += 1
        assert cnt[0] == cnt[1]
        self.ncells = cnt[0] * chunks
        self.chunk_bytes = 16 * 8 * T // chunks  # 16 float2 puts a thread a step
        assert self.chunk_bytes * self.ncells == KSTG
        mk = lambda n: [[Bar(self, f"{n}[cta{r}][{b}]") for b in range(kuses)] for r in range(2)]
        self.dq_full, self.dq_empty, self.stg_full = mk("dq_full"), mk("dq_empty"), mk("stg_full")
        # own[r][b][cell]: rows of half r in CTA r's dQ buffer b; stg[r][b][cell]
        self.own = [[[Cell() for _ in range(self.ncells)] for _ in range(kuses)] for _ in range(2)]
        self.stg = [[[Cell() for _ in range(self.ncells)] for _ in range(kuses)] for _ in range(2)]
        self.inflight = []  # ('st', src, dst, b, cell, val) | ('tma', r, b, cell, g)
        self.tma_left = {}  # (r, g) -> cells not yet read by that reduction
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
        if idx == 1 and "no_final_cluster_sync" in self.mut:
            return
        self.csync[idx] += 1
        yield lambda: self.csync[idx] >= self.n_actors

    # ---------------- thread 0 ----------------
    def thread0(self, r):
        yield None
        for b in range(self.K):
            self.dq_full[r][b].do_init(256 // 2 if "dq_full_128" in self.mut else 256)
            self.dq_empty[r][b].do_init(32 if "empty32" in self.mut else 64)
            self.stg_full[r][b].do_init(1)
            if "no_init_tx" not in self.mut:
                self.stg_full[r][b].arrive_expect_tx(KSTG_PAD if "stg_bytes_pad" in self.mut else KSTG)
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
                if h == r:
                    cell = self.own[r][b][c]
                    if cell.need_writer or cell.need_tma:
                        self.err("race", f"cons cta{r} g{g}: own half buf{b} cell{c} overwritten while "
                                 f"{'the writer' if cell.need_writer else 'the TMA read'} still needs {cell.val}")
                    cell.val, cell.need_writer = ((r, g),), True
                else:
                    if self.exited[r ^ 1]:
                        self.err("exit", f"cons cta{r} g{g} st.async to exited cta{r ^ 1}")
                    self.inflight.append(("st", r, r ^ 1, b, c, (r, g)))
            yield None
            self.dq_full[r][b].arrive(T)
            self.log(f"cons{j}.cta{r} g{g} arrive dq_full[{b}] (phase {self.dq_full[r][b].phase})")
        yield None
        yield from self.cluster_sync(1, r)

    # ---------------- dQ writer ----------------
    def writer(self, r, l):
        yield from self.cluster_sync(0, r)
        m = self.mut
        stg_bytes = KSTG_PAD if "stg_bytes_pad" in m else (KSTG // 2 if "stg_bytes_small" in m else KSTG)
        mycells = [c for c in range(self.ncells) if c % 32 == l]
        for g in range(self.N):
            b, u = g % self.K, g // self.K
            fb, sb = self.dq_full[r][b], self.stg_full[r][b]
            yield None
            yield lambda: fb.done(u & 1)
            if "no_stg_wait" not in m:
                par = (u & 1) ^ (1 if "stg_parity" in m else 0)
                yield lambda: sb.done(par)
            if "remote_before_add" in m:
                yield None
                self._remote_arrive(r, b, g, l)
            for c in mycells:
                yield None
                o, s = self.own[r][b][c], self.stg[r][b][c]
                if o.val != ((r, g),) or not o.need_writer:
                    self.err("race", f"wr{l}.cta{r} g{g}: own buf{b} cell{c} holds {o.val}, expected ((cta{r},g{g}),)")
                if s.val != ((r ^ 1, g),) or not s.need_writer:
                    self.err("race", f"wr{l}.cta{r} g{g}: staging buf{b} cell{c} holds {s.val} "
                             f"(partner bytes of g{g} not landed)")
                sv, ov = s.val, o.val
                s.need_writer = False  # staging read done
                yield None  # (own's read, add, store: another actor may run between)
                if o.val != ov:
                    self.err("race", f"wr{l}.cta{r} g{g}: own cell{c} rewritten between the writer's load and store")
                o.val, o.need_writer, o.need_tma = ov + sv, False, True
            if l == 0 and "rearm_after" not in m:
                yield None
                sb.arrive_expect_tx(stg_bytes)
                self.log(f"wr0.cta{r} g{g} re-arm stg_full[{b}] (phase {sb.phase} tx {sb.tx})")
            if "no_syncwarp" not in m:
                key = (r, g)
                self.syncwarp[key] = self.syncwarp.get(key, 0) + 1
                yield lambda: self.syncwarp[key] >= 32
            if "remote_before_add" not in m:
                yield None
                self._remote_arrive(r, b, g, l)
            if l == 0 and "rearm_after" in m:
                yield None
                sb.arrive_expect_tx(stg_bytes)
                self.log(f"wr0.cta{r} g{g} re-arm stg_full[{b}] (phase {sb.phase} tx {sb.tx})")
            if l == 0:
                yield None
                self.tma_left[(r, g)] = self.ncells
                for c in range(self.ncells):
                    self.inflight.append(("tma", r, b, c, g))
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
        if it[0] == "st":
            _, src, dst, b, c, v = it
            if self.exited[dst]:
                self.err("exit", f"st.async from cta{src} {v} lands in exited cta{dst}")
            cell = self.stg[dst][b][c]
            if cell.need_writer:
                self.err("race", f"st.async {v} overwrites staging cta{dst} buf{b} cell{c} still unread: {cell.val}")
            if not self.stg_full[dst][b].inited:
                self.err("uninit", f"st.async {v} completes tx on uninitialized stg_full of cta{dst}")
            cell.val, cell.need_writer = (v,), True
            self.stg_full[dst][b].complete_tx(self.chunk_bytes)
            self.min_tx = min(self.min_tx, self.stg_full[dst][b].tx)
            if any(x[0] == "tma" and x[1] == dst and x[2] == b for x in self.inflight):
                self.overlap += 1  # lands while the destination's TMA read of this buffer is in flight
            self.log(f"st.async cta{src}->cta{dst} g{v[1]} buf{b} cell{c} lands (stg_full ph {self.stg_full[dst][b].phase} "
                     f"pend {self.stg_full[dst][b].pending} tx {self.stg_full[dst][b].tx})")
        else:
            _, r, b, c, g = it
            cell = self.own[r][b][c]
            exp = ((r, g), (r ^ 1, g))
            if cell.val != exp or not cell.need_tma:
                self.err("value", f"TMA reduce cta{r} g{g} buf{b} cell{c} reads {cell.val}, expected {exp}")
            cell.need_tma = False
            self.reduced[r][g] += 1
            self.tma_left[(r, g)] -= 1

    # ---------------- scheduler ----------------
    def run(self, max_steps=3_000_000):
        rng, acts = self.rng, self.actors
        w = [self.speed[a[2]] * self.role_speed[a[3].split(".")[0].rstrip("0123456789")]
             * 10 ** rng.uniform(-2, 0) for a in acts]
        live = list(range(len(acts)))
        choices = rng.choices
        while live:
            self.step += 1
            if self.step > max_steps:
                raise Deadlock("step limit")
            ready = [i for i in live if acts[i][1] is None or acts[i][1]()]
            if self.inflight and (not ready or rng.random() < self.p_async):
                self.land(rng.randrange(len(self.inflight)))
                continue
            if not ready:
                raise Deadlock(self._state())
            ai = choices(ready, [w[i] for i in ready])[0]
            a = acts[ai]
            try:
                a[1] = next(a[0])
            except StopIteration:
                live.remove(ai)
                r = a[2]
                if not any(acts[x][2] == r for x in live):
                    if any(it[0] == "tma" and it[1] == r for it in self.inflight):
                        self.err("exit", f"cta{r} exits with its TMA read in flight")
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
                for nm, bar in (("dq_full", self.dq_full), ("dq_empty", self.dq_empty), ("stg_full", self.stg_full)):
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
