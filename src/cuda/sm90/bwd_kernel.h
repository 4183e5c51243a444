// Backward kernel of the sm90 path (Hopper, sm_90a; the default for head_dim tiers 64, 128, 192
// and 256, see bwd_launch.cu; tiers 192 and 256: kSplitD, bwd_config.h, 64-key
// blocks whose two consumer warpgroups split the work by roles: warpgroup 0 S^T, P^T and dV,
// warpgroup 1 dP^T, dS^T and dK, both halves of dQ; split_step below). One CTA per (key block of 128 (64 at 192, 256), batch, kv head) keeps dK and dV of its keys in
// registers while it walks every query head of the group and every query block (64 or 128 rows,
// kBlockM) the mask lets its keys reach, as the sm80 bwd_kernel does, and computes the same function:
//   S^T = K Q^T, dP^T = V dO^T               wgmma SS, m64 = this warpgroup's 64 keys, n = kBlockM queries
//   P^T = exp2(S^T scale_log2 - LSE log2e)   the semantics' mask and score modifiers
//   dS^T = P^T (dP^T - D) d(score)/d(dot)
//   dV += P^T dO, dK += dS^T Q               wgmma RS (P^T, dS^T from registers), dO and Q N-major
//   dQ += dS K                               dS^T of both warpgroups stored transposed to one
//                                            shared tile (K-major A, 128 keys), K N-major; each
//                                            warpgroup half of head_dim; fp32 red.global.add
// Warp specialization: warpgroup 0 produces (thread 0 issues the TMA copies of K, V once and of
// Q, dO into a two-stage ring; warp 1 copies LSE (in log2 units) and D of the stage), warpgroups
// 1 and 2 consume, each owning 64 of the 128 keys for S^T, dP^T, dK, dV; for dQ each owns half
// of head_dim over all 128 keys, so a dQ element gets one reduction per key block.
// Invariants: a ring stage is refilled only after every consumer thread arrived on its empty
// barrier, which each does once its reads of LSE and D and the last GEMM reading its Q and dO
// have completed (one arrival per thread, not one per warpgroup after the dS barrier: racecheck
// does not follow the ordering through the named barrier); dS buffer s % 2 is
// rewritten at step s only after both consumers passed the dS barrier of step s - 1, which each
// reaches after its dQ GEMM of step s - 2 (the buffer's last reader) has completed.
// dQ variant (C::kDqSmem, FLASHATTN_SM90_BWD_DQ_TMA=1; FlashAttention-3's scheme): the consumers
// store dQ into a shared fp32 buffer instead of red.global.add, and warp 2 of the producer
// warpgroup adds it to the workspace with TMA: one tensor reduction of the whole box (padded
// batch: TMA clips the rows past seqlen_q) or, for varlen (whose rows past the sequence are the
// next sequence's), one flat bulk reduction per row inside the sequence.
// A dQ buffer is rewritten only after the writer's bulk reads of its previous use completed
// (dq_empty), and read only after all 256 consumer threads stored and fenced it (dq_full); with
// 80-query steps (kDqT) per half: a warpgroup's 64 columns, its 128 threads (kDqHalves).
// Head_dim 256 (kDqStage, padded batch): no dQ buffer; the consumers store dQ into the ring
// stage the step has consumed, once both warpgroups' GEMMs reading it completed (kBarStage), and
// the writer, after its bulk reads, releases the stage to the producer (q_empty) in their place.
#pragma once

#include <cuda.h>

#include <cmath>
#include <type_traits>

#include "cuda/prim/ldmatrix.h"
#include "cuda/prim/math.h"
#include "cuda/sm80/params.h"
#include "cuda/sm90/bwd_config.h"
#include "cuda/sm90/config.h"
#include "cuda/sm90/prim.h"
#include "cuda/sm90/streamk.h"
#include "cuda/sm90/wgmma_ops.h"
#include "semantics/mask.h"
#include "semantics/score_mod.h"

namespace flashattn::cuda::sm90 {

#ifdef FLASHATTN_SM90_TRACE
// Diagnostic timeline, compiled only with -DFLASHATTN_SM90_TRACE (a measurement build, never the
// library's; bench/gpu/bwd_trace.sh): do the SMs run at unequal speeds, so that the CTAs' finish
// times spread? Each CTA below kBwdTraceCtas (the one-CTA-a-tile grids of the standard shapes have
// 4096 at most) owns 1 + kBwdTraceItems records of BwdParams90::trace: record 0 holds its entry
// (thread 0), its SM, the end of its last item and its item count; record 1 + n its n-th work item
// (next_item; items without steps too): start and end in %globaltimer ns (one clock for all SMs)
// and in the SM's clock (low 32 bits), the SM, the tile, the role (StreamKPiece) and the steps. The launcher
// prints them (bwd_launch.cu). Consumer warpgroup 0's thread 0 writes the items' records, at their
// ends only (an item starts where the previous one ended; record 1 starts at the consumers'
// entry), with predicated stores: a store at an item's start made the compiler merge the item
// loop with the step loop (tier 128: 659 -> 810 instructions, the uniform datapath lost), a
// branch around the stores added 78 (tools/sass_report.py); so written, the loop takes one.
constexpr int kBwdTraceCtas = 8192, kBwdTraceItems = 64;
struct BwdTraceRec {
  unsigned long long t_start, t_end;  // ns
  uint32_t smid, tile, role, steps;   // record 0: smid, 0, 0, the CTA's items
  uint32_t c_start, c_end;            // clock64's low 32 bits (record 0: 0)
  // Inside the item (ns; 0 where not reached): the consumers past the K/V wait, at step 1's start
  // (step 0 done), and past the last step's GEMMs (before the epilogue); in the TMA-store
  // epilogue (dkdv_tma) past the barrier after dV's stmatrix (and, dv_early, its stores' issue)
  // and once the stores have read the tiles; the producer's thread issuing the item's V load
  // (after the last item's v_empty; K's follows after its kv_empty).
  unsigned long long t_kv, t_s1, t_last, t_bar, t_read, t_kvi;
};
__device__ __forceinline__ unsigned long long trace_globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ uint32_t trace_smid() {
  uint32_t v;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(v));
  return v;
}
__device__ __forceinline__ void trace_st(unsigned long long* p, unsigned long long v, bool pred) {
  asm volatile("{\n.reg .pred q;\nsetp.ne.b32 q, %2, 0;\n@q st.global.u64 [%0], %1;\n}\n" ::"l"(p), "l"(v), "r"(int(pred)));
}
__device__ __forceinline__ void trace_st(uint32_t* p, uint32_t v, bool pred) {
  asm volatile("{\n.reg .pred q;\nsetp.ne.b32 q, %2, 0;\n@q st.global.u32 [%0], %1;\n}\n" ::"l"(p), "r"(v), "r"(int(pred)));
}
// Record i of this CTA, and whether this thread writes it (consumer warpgroup 0's thread 0, or
// `writer`: the producer's thread for t_kvi).
__device__ __forceinline__ BwdTraceRec* trace_rec(BwdTraceRec* trace, int i, bool* ok, uint32_t writer = 128) {
  const uint32_t c = ctaid_x();
  *ok = (trace != nullptr) & (threadIdx.x == writer) & (c < uint32_t(kBwdTraceCtas)) &
        (uint32_t(i) <= uint32_t(kBwdTraceItems));
  return reinterpret_cast<BwdTraceRec*>(reinterpret_cast<uintptr_t>(trace) +
                                        (uint64_t(c) * (kBwdTraceItems + 1) + uint32_t(i)) * sizeof(BwdTraceRec));
}
// Record i's start: now.
__device__ __forceinline__ void trace_start(BwdTraceRec* trace, int i) {
  bool ok;
  BwdTraceRec* r = trace_rec(trace, i, &ok);
  trace_st(&r->c_start, uint32_t(clock64()), ok);
  trace_st(&r->t_start, trace_globaltimer(), ok);
}
// Record 1 + n's field f (0-4: t_kv, t_s1, t_last, t_bar, t_read; 5: t_kvi, the producer's
// thread): now, where `pred`.
__device__ __forceinline__ void trace_mark(BwdTraceRec* trace, int n, int f, bool pred) {
  bool ok;
  BwdTraceRec* r = trace_rec(trace, n + 1, &ok, f == 5 ? 0 : 128);
  unsigned long long* fields[6] = {&r->t_kv, &r->t_s1, &r->t_last, &r->t_bar, &r->t_read, &r->t_kvi};
  trace_st(fields[f], trace_globaltimer(), ok && pred);
}
// Item n ended now (where `pred`): its record 1 + n, and the start of the next one's.
__device__ __forceinline__ void trace_item_end(BwdTraceRec* trace, int n, bool pred, uint32_t tile, int role, int steps) {
  bool ok;
  BwdTraceRec* r = trace_rec(trace, n + 1, &ok);
  ok = ok && pred;
  const uint32_t c = uint32_t(clock64());
  const unsigned long long t = trace_globaltimer();
  trace_st(&r->c_end, c, ok);
  trace_st(&r->t_end, t, ok);
  trace_st(&r->smid, trace_smid(), ok);
  trace_st(&r->tile, tile, ok);
  trace_st(&r->role, uint32_t(role), ok);
  trace_st(&r->steps, uint32_t(steps), ok);
  r = trace_rec(trace, n + 2, &ok);
  ok = ok && pred;
  trace_st(&r->c_start, c, ok);
  trace_st(&r->t_start, t, ok);
}
#endif

struct BwdParams90 {
  sm80::BwdParams bp;  // the sm80 backward's parameters and workspace (dq_accum, dsum)
  // q, dout (boxes of block_m rows) and k, v (boxes of block_n rows) as 4-D tensors (head_dim, rows,
  // heads, batch), boxes of 64 columns, 128-byte swizzle (sm90::make_tensor_map).
  CUtensorMap tma_q, tma_do, tma_k, tma_v;
  // The dQ variant (Bwd90Config<kD, true>): FLASHATTN_SM90_BWD_DQ_TMA=1 and a 16-byte aligned
  // workspace (bwd_launch.cu). Without varlen, tma_dq is the fp32 workspace as a 4-D tensor
  // (dq_accum_dim, seqlen_q, heads, batch), boxes of kD + 8 columns x block_m rows, no swizzle.
  bool dq_smem = false, dq_tensor = false;
  int block_m = 64;   // queries per step: the tensor maps' box rows (q, dout, dq), Bwd90Config::kBlockM
  int block_n = 128;  // keys per CTA: the box rows of k, v (Bwd90Config::kBlockN)
  bool k_regs = false;  // the kernel with kKRegs (bwd_launch.h; FLASHATTN_SM90_BWD_K_REGS=0 opts out)
  // kSplitD: warpgroup 1 issues dP^T only once warpgroup 0's S^T has completed (s_done), so that
  // S^T does not share the tensor cores and warpgroup 0's P^T overlaps dP^T
  // (FLASHATTN_SM90_BWD_SERIAL_SDP=1; off by default until measured, session 11).
  bool serial_sdp = false;
  // The kernel with extras (kExtras, 64-query steps): a score modifier (and dropout with it).
  bool extras() const { return bp.fwd.has_score_mod; }
  // Softcap alone (kCap) or ALiBi alone (kAlibi) in the plain kernel's configuration (bwd_config.h
  // bwd90_has_mod): the launcher's choice (bwd_launch.cu).
  bool cap = false, alibi = false;
  bool one_mod() const { return cap || alibi; }
  // Dropout: with a score modifier, at head_dim 192 / 256, or at head_dim 64 in 64-query steps
  // (FLASHATTN_SM90_BWD_BLOCK_M=64) the kernel with extras, else kDrop (bwd_launch.h).
  bool dropout() const { return bp.fwd.dropout.enabled(); }
  // Dropout's keep scale ks folded into LSE and D by the producer (LSE - log2 ks, D / ks; 0 and 1
  // without dropout, exact): the consumers' P comes out as P ks, so dV's P ks and dS = P (dP ks -
  // D) = (P ks)(dP - D / ks) take no multiply by ks (kernel parameters: no registers in the
  // producer's 24).
  float lse_ks = 0.0f, inv_ks = 1.0f;
  // Host side: where the launcher writes the factor dQ's conversion must apply (BwdMain's return
  // value): softmax's scale where dS is without it (bwd90_scale_out), else 1.
  float* dq_scale_out = nullptr;
  CUtensorMap tma_dq{};
  // dK and dV out through shared memory (the item's K and V tiles, free once its last GEMMs have
  // read them) and TMA stores, boxes of 64 columns x 64 rows (a warpgroup's keys), instead of
  // 16-byte stores from registers: padded batches on the tiers whose warpgroups own 64 keys each
  // (not kSplitD; bwd_launch.cu, FLASHATTN_SM90_BWD_DKDV_TMA=0 opts out). The stores from
  // registers held an item 3.4-5.6 us past its last GEMM (session 43's trace).
  bool dkdv_tma = false;
  // dkdv_tma: each warpgroup stores its dV rows before the barrier of both (FLASHATTN_SM90_BWD_DV_EARLY).
  bool dv_early = true;
  CUtensorMap tma_dk{}, tma_dv{};
  // The CTAs' static work items (config.h StreamK; tiles: (key block, batch, kv head), steps: a
  // tile's query walk), where no dynamic grid runs (tile_counter below). Without a tail (width 0)
  // one CTA a tile, the launcher's StreamK(tiles, tiles, 0).
  // With one (the launcher's plan, bwd_launch.cu: tiles of equal walks only, not deterministic)
  // a persistent grid of sk.grid CTAs, whose last rounds cut the walks of the remaining tiles
  // into equal ranges: a tile cut between CTAs c and c + 1 has two pieces, CTA c + 1's first item
  // (kPartial: its dK and dV accumulators, unscaled, to slot c + 1 of sk.part, float4 i of
  // consumer thread t at i * 256 + t, then the slot's flag set to sk.epoch, unique per launch)
  // and CTA c's last (kMerge: waits for the flag, adds the slot into its accumulators, writes dK
  // and dV). dQ needs no merge: every step adds its own. (streamk.h; two flags a slot.)
  StreamKLaunch sk;
  // The tile order under a causal mask (not deterministic, not varlen; 0: (batch, kv head)
  // slowest, key blocks fastest): groups of head_group (batch, kv head) pairs whose key blocks
  // interleave, the longest walks (key block 0) first. In the (batch, kv head) order each head's
  // short walks come last but the last heads' long ones start late: a list-scheduling model of
  // the standard shapes (132 SMs) puts that 3-7% over the even share at 1k-8k, groups of 2-8 at
  // 0-2% (bench/NOTES.md session 28). bwd_launch.cu picks it; the launcher (bwd_launch.h) turns
  // it into `tiles`, the forward's tile map (config.h TileMap90), which the kernel decodes.
  int head_group = 0;
  TileMap90 tiles;
  // A persistent grid of dyn_grid CTAs (the SMs, or FLASHATTN_SM90_BWD_PERSISTENT) that take their
  // tiles dynamically (bwd_launch.cu: where the launcher would otherwise start one CTA a tile):
  // every tile, a CTA's first included, by atomicAdd(tile_counter, 1) on a counter zeroed before
  // the launch (sm80::BwdParams::tile_counter), in the tile map's order. So a taken tile always
  // belongs to a running CTA, which the deterministic order needs (a tile waits for the key
  // blocks taken before it; with a CTA's first tile its blockIdx.x, running CTAs could take and
  // wait for tiles after that of a CTA not yet on an SM, which never gets one: session 44's
  // review). The producer's thread takes them and publishes each to the other roles (the slots).
  // A CTA keeps its shared memory across its items, so the next item's K and V load while the
  // last one's epilogue runs, where a fresh CTA waited 2.4-3.2 us for them (session 43's trace).
  // nullptr: the static items of `sk`.
  int32_t* tile_counter = nullptr;
  int64_t dyn_grid = 0;  // the dynamic grid's CTAs (at most the tiles: the launcher clips it)
#ifdef FLASHATTN_SM90_TRACE
  BwdTraceRec* trace = nullptr;  // kBwdTraceCtas x (1 + kBwdTraceItems) records, zeroed (above)
#endif
};

// Who reads an item's record (bwd_kernel's next_item).
constexpr int kItemReader = 0, kItemTaker = 1, kItemConsumer = 2, kItemWriter = 3;

// The plain-score schedule (kLag below): no score modifier and a whole head_dim a warpgroup.
// Not at 80-query steps (kDqT): S^T, P^T's fragments, dQ^T, dK and dV at once take 40 + 20 + 40 +
// 128 registers a thread before any address (session 41, compiled so: spills 268/300 B and every
// wgmma serialized, C7514; nor dQ(s - 1) stored while S^T(s) runs: 1-5% slower, bench/NOTES.md).
template <typename C, bool kExtras>
__host__ __device__ constexpr bool bwd90_lag() {
  return !kExtras && !C::kSplitD && !C::kDqT;
}
// Softmax's scale left out of dS (as FlashAttention-2 does): one multiply an element fewer; dK
// takes the scale in the epilogue, dQ in its conversion (BwdParams90::dq_scale_out). Plain scores
// with a whole head_dim a warpgroup: the kLag schedule, and 80-query steps (kDqT; session 40:
// 40 multiplies a thread a step out of its main loop's 788 instructions).
template <typename C, bool kExtras>
__host__ __device__ constexpr bool bwd90_scale_out() {
  return bwd90_lag<C, kExtras>() || (C::kDqT && !kExtras);
}

// kExtras: a score modifier (softcap, ALiBi) or dropout may be on (64-query steps).
// kDrop: dropout may be on, the scores are plain: the plain-score schedule (kLag; 128-query steps
// at head_dim 64) with the keep bits drawn as the kernel with extras draws them (session 8: the
// kernel with extras at 64-query steps took dropout at head_dim 64 to 182 TFLOP/s, 401 without).
// kKRegs (the default at head_dim 64, 128-query steps, plain scores since session 8: +3-7% at
// seqlen 8k; FLASHATTN_SM90_BWD_K_REGS=0 opts out): each consumer warpgroup holds its 64 keys of K as wgmma A fragments (16 registers a
// thread at head_dim 64) and issues S^T = K Q^T from registers (RS): the GEMMs' shared-memory
// reads, at the bandwidth limit (about 350 KB a step against 128 bytes a cycle, more cycles than
// the tensor work, session 7's estimate), drop by K's 8 KB a warpgroup a step.
// kCap (bwd90_has_mod, the default where softcap alone is on: BwdParams90::cap): the plain kernel's
// configuration and schedule with each score tanh(dot softcap_in) (ScoreMod's folded constants,
// as the forward's kCap): P = exp2(t softcap_out(log2 e) - LSE) and d(score)/d(dot) = 1 - t^2 (the
// scale left out, bwd90_scale_out), one multiply, one MUFU.TANH and two more operations an element.
// The schedule without lag (80-query steps) forms dS with P at once; kLag keeps P^T d(score)/d(dot)
// for dS^T in place of P^T, whose fragments for dV are packed as each pair is computed (no
// register more than the plain kernel's).
// kAlibi (likewise, ALiBi alone with a scale of at least 2^-20: BwdParams90::alibi): P = exp2((dot +
// alibi_per_dot |i + diag - j|) scale_log2 - LSE), the forward's kAlibi expression; d(score)/d(dot)
// is the plain kernel's. An add and a multiply-add an element more.
template <typename T, typename C, bool kExtras, bool kKRegs = false, bool kDrop = false, bool kCap = false,
          bool kAlibi = false>
__global__ void __launch_bounds__(C::kThreads, 1) bwd_kernel(const __grid_constant__ BwdParams90 P) {
  static_assert(!kExtras || C::kBlockM == 64, "the kernel with extras: 64-query steps (registers)");
  static_assert(!kDrop || (!kExtras && !C::kSplitD), "kDrop: the plain-score schedule (kLag)");
  static_assert(!kCap || (!kExtras && !kDrop && !C::kSplitD), "kCap: the plain kernel with softcap alone");
  static_assert(!kAlibi || (!kExtras && !kDrop && !kCap && !C::kSplitD),
                "kAlibi: the plain kernel with ALiBi alone");
  constexpr bool kKeep = kExtras || kDrop;  // dropout's keep bits may be drawn
  static_assert(!kKeep || !C::kDqT, "80-query steps (kDqT): no dropout (bwd90_steps80_ok)");
  static_assert(!kKRegs || (!kExtras && C::kBlockM == 128 && C::kD == 64),
                "K's fragments in registers: head_dim 64, 128-query steps, plain scores (registers)");
  constexpr int kD = C::kD, kBlockM = C::kBlockM, kBlockN = C::kBlockN, kStages = C::kStages;
  constexpr int kNS = kBlockM / 2;  // S^T / dP^T floats a thread (m64 x n kBlockM / 128)
  // dK, dV floats a thread (m64 x kD / 128; kSplitD: one accumulator, dV in warpgroup 0, dK in 1).
  constexpr int kNKV = kD / 2;
  // dQ's accumulators of a warpgroup, by the same pieces.
  struct DqAcc {
    float a[C::kDqAcc];
    float b[C::kDQ1 > 0 ? C::kDQ1 / 2 : 1];
  };
  const sm80::BwdParams& bp = P.bp;
  const sm80::FwdParams& p = bp.fwd;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  // TMA's 128-byte swizzle and the wgmma descriptors need 1024-byte aligned panels.
  unsigned char* smem = smem_align1024(smem_raw);
  float* sLse0 = reinterpret_cast<float*>(smem + C::kOffLse);
  float* sDsum0 = reinterpret_cast<float*>(smem + C::kOffDsum);
  uint64_t* bar = reinterpret_cast<uint64_t*>(smem + C::kOffBar);
  uint64_t* kv_full = bar;
  uint64_t* q_full = bar + 1;              // per stage: Q, dO (TMA) and LSE, D (warp 1) landed
  uint64_t* q_empty = q_full + kStages;    // per stage: both consumers (kDqStage: the writer) are done with it
  uint64_t* dq_full = q_empty + kStages;   // dQ variant, per dQ buffer (kDqStage: stage): both consumers stored it
  uint64_t* dq_empty = dq_full + C::kBarsdQFull;  // ... the writer's bulk reads of it completed
  uint64_t* p_full = dq_empty + C::kBarsdQEmpty;  // kSplitD: the exchange tile stored (warpgroup 0)
  uint64_t* p_empty = p_full + 1;                 // ... and read (warpgroup 1)
  uint64_t* s_done = p_full + 2;                  // ... and warpgroup 0's S^T complete (serial_sdp)
  uint64_t* kv_empty = p_full + C::kBarsP;        // the consumers' last reads of an item's K and V done
  uint64_t* merge_ready = kv_empty + 1;           // the stream-K partner's partial dK, dV landed (warp 3)
  uint64_t* v_empty = merge_ready + 1;            // ... of its V tile (before kv_empty, or with it)

  // Tiles: (key block, batch, kv head), key blocks of one (batch, kv head) adjacent (as in the
  // sm80 kernel's grid); when deterministic, the last key block first: each query block takes
  // its key blocks' dQ in decreasing order, so a CTA waits only for tiles taken before its own
  // (launched before it, or on the dynamic grid taken from the counter before it), and
  // under a causal or sliding-window mask (a key block's first query block grows with it) key
  // block n + 1 reaches a query block one step before key block n: no CTA waits in the steady
  // state. (In increasing order every CTA waited for its predecessor's extra steps: the causal
  // backward took as long as the full one, session 7. The price: under a causal mask the longest
  // CTAs launch last.) A CTA's items: its tile (P.sk.plan), with a stream-K tail its whole tiles
  // and then its pieces, or on the dynamic grid the tiles it takes. The producer's thread takes
  // them and every other role (LSE/D warp, dQ writer, consumers) reads them (next_item); each
  // counts its steps over all of them (g: ring stage, dS, dQ and keep buffers, and their phases,
  // as one walk).
  const int64_t num_tiles = int64_t(bp.num_n_blocks) * p.batch * p.num_heads_kv;
  // The items' records (next_item below): slots, and their full (the producer's thread) and
  // empty barriers. The empty barrier counts the readers in the producer's warpgroup (the LSE/D
  // warp, the dQ writer warp, the stream-K tail's waiting lane); the consumers read a record
  // after the item's kv_full, and the producer rewrites its slot only after their kv_empty of a
  // later item. (Static arrays, as the forward's records.)
  constexpr int kSchedSlots = 4;
  const int sched_readers = 32 + (C::kDqSmem ? 32 : 0) + (P.sk.plan.width > 0 ? 1 : 0);
  __shared__ int4 sched_item[kSchedSlots];
  __shared__ uint64_t sched_bar[2 * kSchedSlots];
  static_assert(C::kSmemBytes + sizeof(sched_item) + sizeof(sched_bar) <= 227 * 1024,
                "the dynamic shared memory and the static slots within an SM's 227 KB");
  uint64_t* sched_full = sched_bar;
  uint64_t* sched_empty = sched_bar + kSchedSlots;
  int n_block = 0, b = 0, hk = 0, n0 = 0, cols = 0, qb = 0, kb = 0;
  sm80::SeqInfo seq;
  semantics::Mask mask;
  sm80::QueryWalk walk;
  int role = StreamKPiece::kWhole, step0 = 0, steps = 0;  // the item: steps [step0, step0 + steps) of the walk
#ifdef FLASHATTN_SM90_TRACE
  int64_t trace_tile = 0;  // the item's tile (the timeline, above)
#endif
  // Tile t into the variables above; false when its key block is past its sequence (varlen).
  // Its pair and key block from P.tiles (config.h TileMap90: FastDiv decodes); the rest in 32 bits
  // (tiles < 2^31, the launcher's check_grid; a 64-bit division is a call whose register saves
  // made the consumers spill).
  auto load_tile = [&](int64_t t) {
    const Tile90 tile = P.tiles(t);
    const uint32_t bhk = uint32_t(tile.bh), n_idx = uint32_t(bp.num_n_blocks - 1 - tile.m_block);
    n_block = bp.deterministic ? bp.num_n_blocks - 1 - int(n_idx) : int(n_idx);
    b = int(bhk / uint32_t(p.num_heads_kv));
    hk = int(bhk - uint32_t(b) * uint32_t(p.num_heads_kv));
    seq = sm80::SeqInfo(p, b);
    n0 = n_block * kBlockN;
    if (n0 >= seq.seqlen_k) return false;
    cols = min(kBlockN, seq.seqlen_k - n0);
    mask = semantics::make_mask(seq.seqlen_q, seq.seqlen_k, p.window_left, p.window_right, p.causal);
    walk = sm80::QueryWalk(mask, n0, cols, kBlockM, p.group, bp.rotate_walk, n_block, bp.num_n_blocks);
    // Coordinates of rows in the tensor maps: varlen sequences are rows of one batch entry.
    qb = p.cu_seqlens_q != nullptr ? 0 : b;
    kb = p.cu_seqlens_k != nullptr ? 0 : b;
    return true;
  };
  // The items are published in shared memory: the producer's thread takes the CTA's j-th item
  // and writes it to slot j % kSchedSlots as (tile, i_lo, i_hi, role), tile -1 past the
  // last. The producer's warpgroup reads it after the slot's sched_full phase and arrives on
  // sched_empty, which the producer waits for before it reuses the slot. The consumers read it
  // after the item's kv_full phase: every item, with steps or not, and the end, has one (the
  // producer arrives without loads where there is nothing to load), each after the consumers'
  // kv_empty of the one before. (An extra wait of theirs at the item's start, even a never
  // taken one, made ptxas spill in their main loop.) One code path for the readers, whichever
  // the schedule (static or dynamic: BwdParams90::tile_counter).
  // The producer's thread's next tile or piece (false when none is left): dynamic, the counter's
  // next (BwdParams90::tile_counter); else the static plan's (config.h StreamK) at a cursor of its
  // own.
  int sk_cursor = 0;
  auto take = [&](StreamKPiece* pc) {
    if (P.tile_counter != nullptr) {
      // (Unsigned: the count stays below 2^32, no wrap.)
      const int64_t t = int64_t(atomicAdd(reinterpret_cast<unsigned*>(P.tile_counter), 1u));
      *pc = StreamKPiece{t, 0, 0, StreamKPiece::kWhole};
      return t < num_tiles;
    }
    return P.sk.plan.item(int(ctaid_x()), int(gridDim.x), &sk_cursor, pc);
  };
  // The next item at cursor *c (the records so far) into the variables above; false when none is
  // left. who: kItemTaker (the producer's thread: it takes the item, skipping tiles past the grid's
  // or past their sequence, and publishes it), kItemReader (the rest of the producer's warpgroup),
  // kItemWriter (a reader whose whole warp calls: the dQ writer's, warp-uniform as the consumers'),
  // kItemConsumer (after the kv_full phase *c, which the caller waits for).
  auto next_item = [&](int* c, int who = kItemReader) {
    const int slot = *c % kSchedSlots;
    int4 it;
    if (who == kItemTaker) {
      StreamKPiece pc;
      bool have;
      do {
        have = take(&pc);
      } while (have && (pc.tile >= num_tiles || !load_tile(pc.tile)));
      it = have ? make_int4(int(pc.tile), pc.i_lo, pc.i_hi, pc.role) : make_int4(-1, 0, 0, 0);
      if (*c >= kSchedSlots) mbar_wait_idle(sched_empty + slot, (uint32_t(*c / kSchedSlots) & 1) ^ 1);
      sched_item[slot] = it;
      mbar_arrive(sched_full + slot);  // release: the slot's store
    } else {
      const bool reader = who == kItemReader || who == kItemWriter;
      if (reader) mbar_wait_idle(sched_full + slot, uint32_t(*c / kSchedSlots) & 1);
      it = sched_item[slot];
      if (reader) mbar_arrive(sched_empty + slot);  // (after the read: "memory" clobbers)
      if (who == kItemConsumer || who == kItemWriter) {
        // Through a warp reduction (redux.sync: its result is a uniform register): warp-uniform
        // to the compiler. (Loaded from shared memory they are not, nor broadcast by shfl, and
        // what derives from them left the uniform datapath: the 80-query d128 main loop took
        // 743 -> 853 instructions, with spills.)
        it.x = __reduce_min_sync(~0u, it.x);
        it.y = __reduce_min_sync(~0u, it.y);
        it.z = __reduce_min_sync(~0u, it.z);
        it.w = __reduce_min_sync(~0u, it.w);
      }
      if (it.x >= 0) load_tile(it.x);  // (a published tile has its key block in its sequence)
    }
    ++*c;
    if (it.x < 0) return false;
    role = it.w;
#ifdef FLASHATTN_SM90_TRACE
    trace_tile = it.x;
#endif
    const bool whole = it.w == StreamKPiece::kWhole;
    step0 = whole ? 0 : it.y;
    steps = whole ? walk.steps : it.z - it.y;
    return true;
  };

  // Steps walk (query head of the group, query block), query blocks fastest (sm80::QueryWalk);
  // an item's first: walk.at(hk * p.group, step0).
  using Step = sm80::QueryWalk::Step;
  auto next = [&](Step t) { return walk.next(t); };
  auto first_step = [&] { return walk.at(hk * p.group, step0); };

#ifdef FLASHATTN_SM90_TRACE
  if (threadIdx.x == 0 && P.trace != nullptr && ctaid_x() < kBwdTraceCtas) {
    BwdTraceRec& r = P.trace[int64_t(ctaid_x()) * (kBwdTraceItems + 1)];
    r.t_start = trace_globaltimer();
    r.smid = trace_smid();
  }
#endif
  if (threadIdx.x == 0) {
    mbar_init(kv_full, 1);
    // Every consumer thread, after its item's last GEMM reading K or V (dkdv_tma: once dK's and
    // dV's stores have read the tiles).
    mbar_init(kv_empty, 256);
    mbar_init(merge_ready, 1);  // warp 3's lane 0, after the flag of the slot its kMerge piece reads
    // Every consumer thread with its kv_empty arrival, or (dkdv_tma) each warpgroup's storing
    // thread for its 128 once the dV stores have read the tile.
    mbar_init(v_empty, 256);
    for (int i = 0; i < kSchedSlots; ++i) {
      mbar_init(sched_full + i, 1);
      mbar_init(sched_empty + i, sched_readers);
    }
    for (int s = 0; s < kStages; ++s) {
      mbar_init(q_full + s, 1 + 32);  // the TMA thread's expect_tx and warp 1's 32 lanes
      // Every consumer thread, after its own last read of the stage; kDqStage: every lane of the
      // writer warp, after the bulk reads of the dQ the consumers stored into the stage.
      mbar_init(q_empty + s, C::kDqStage ? 32 : 256);
    }
    // Every consumer thread (kDqT: of the half's warpgroup), after its stores and proxy fence.
    for (int i = 0; i < C::kBarsdQFull; ++i) mbar_init(dq_full + i, 256 / C::kDqHalves);
    for (int i = 0; i < C::kBarsdQEmpty; ++i) mbar_init(dq_empty + i, 32);  // every lane of the writer warp, after its bulk reads
    if (C::kBarsP > 0) {
      mbar_init(p_full, 128);   // every thread of warpgroup 0, after its stores to the exchange tile
      mbar_init(p_empty, 128);  // every thread of warpgroup 1, after its loads from it
      mbar_init(s_done, 128);   // every thread of warpgroup 0, after its S^T completed (serial_sdp)
    }
    fence_barrier_init();
  }
  __syncthreads();

  const int wg = threadIdx.x / 128;
  if (wg == 0) {
    // ---------------- producer ----------------
#ifndef FLASHATTN_SM90_NO_REGREALLOC  // diagnostic switch: build without register reallocation
    regs_dealloc<24>();
#endif
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    // An item without steps loads nothing (its dK and dV are zeros; a CTA must not exit with TMA
    // copies into its shared memory in flight).
    if (threadIdx.x == 0) {
      prefetch_tensor_map(&P.tma_q);
      prefetch_tensor_map(&P.tma_do);
      prefetch_tensor_map(&P.tma_k);
      prefetch_tensor_map(&P.tma_v);
      // g: steps loaded over all items; items: kv_full phases (below). An item's K and V go out after
      // the Q and dO of its first kStages steps, which only wait for the previous item's steps
      // (q_empty), while V waits for the tile to be free (v_empty) and K too (kv_empty).
      int g = 0, items = 0, cursor = 0;
      // Every item has a kv_full phase (the consumers read its record after it), with or without
      // steps, and so does the end; each after the consumers' kv_empty of the one before.
      for (;;) {
        const bool have = next_item(&cursor, kItemTaker);
        if (!have || steps == 0) {
          if (items > 0) mbar_wait_idle(kv_empty, (items - 1) & 1);
          mbar_arrive(kv_full);  // release: the record (nothing to load)
          ++items;
          if (!have) break;
          continue;
        }
        Step cur = first_step();
        const int kv_at = min(steps, kStages) - 1;
        for (int s = 0; s < steps; ++s, ++g, cur = next(cur)) {
          const int st = g % kStages;
          if (g >= kStages) mbar_wait_idle(q_empty + st, ((g / kStages) & 1) ^ 1);
          const int q_row = int(seq.row_begin_q) + cur.m_block * kBlockM;
#ifdef FLASHATTN_SM90_MEASURE_QDO_LOADS
          // A measurement build only (wrong results; bench/NOTES.md session 62): what the Q / dO
          // bytes from L2 cost (the forward's K / V: FLASHATTN_SM90_MEASURE_KV_LOADS). 2: every Q
          // and dO tile loaded twice; 0: after the ring's first round, every other step's not
          // loaded (the consumers compute on the stage's old bytes).
          constexpr int kQdoLoads = FLASHATTN_SM90_MEASURE_QDO_LOADS;
          const int qdo_loads = kQdoLoads == 2 ? 2 : (kQdoLoads == 0 && g >= kStages && (g & 1)) ? 0 : 1;
#else
          constexpr int qdo_loads = 1;
#endif
          if (qdo_loads == 0) mbar_arrive(q_full + st);
          else mbar_arrive_expect_tx(q_full + st, 2 * C::kBytesQ * qdo_loads);
          for (int l = 0; l < qdo_loads; ++l) {
#pragma unroll
            for (int pn = 0; pn < C::kPanels; ++pn) {
              tma_load_4d(smem + C::kOffQ + st * C::kBytesQ + pn * C::kPanelQ, &P.tma_q, q_full + st, pn * 64, q_row,
                          cur.h, qb);
              tma_load_4d(smem + C::kOffdO + st * C::kBytesQ + pn * C::kPanelQ, &P.tma_do, q_full + st, pn * 64,
                          q_row, cur.h, qb);
            }
          }
          if (s == kv_at) {
            // V first: with the TMA-store epilogue its tile is free once the dV stores have read
            // it (v_empty), while dK's may still be reading the K tile (kv_empty). (The phases
            // agree: kv_empty of an item completes after its v_empty, so the skipped v_empty
            // waits of items without loads leave this one at most one phase behind.)
            if (items > 0) mbar_wait_idle(v_empty, (items - 1) & 1);
#ifdef FLASHATTN_SM90_TRACE
            trace_mark(P.trace, items, 5, true);
#endif
            const int k_row = int(seq.row_begin_k) + n0;
            mbar_arrive_expect_tx(kv_full, 2 * C::kBytesKV);
#pragma unroll
            for (int pn = 0; pn < C::kPanels; ++pn)
              tma_load_4d(smem + C::kOffV + pn * C::kPanelKV, &P.tma_v, kv_full, pn * 64, k_row, hk, kb);
            if (items > 0) mbar_wait_idle(kv_empty, (items - 1) & 1);
#pragma unroll
            for (int pn = 0; pn < C::kPanels; ++pn)
              tma_load_4d(smem + C::kOffK + pn * C::kPanelKV, &P.tma_k, kv_full, pn * 64, k_row, hk, kb);
            ++items;
          }
        }
      }
    } else if (warp == 1) {
      // LSE in log2 units (a row that saw no key: +inf, so P = 0, as in the sm80 kernel) and D
      // per query row of the stage; rows past the sequence: P = 0 and D = 0. With dropout, the
      // keep scale ks folded in (BwdParams90::lse_ks, inv_ks): LSE - log2 ks and D / ks.
      int g = 0, cursor = 0;
      while (next_item(&cursor)) {
        Step cur = steps > 0 ? first_step() : Step{0, 0};
        for (int s = 0; s < steps; ++s, ++g, cur = next(cur)) {
          const int st = g % kStages;
          if (g >= kStages) mbar_wait_idle(q_empty + st, ((g / kStages) & 1) ^ 1);
          const int m0 = cur.m_block * kBlockM;
          const int rows = min(kBlockM, seq.seqlen_q - m0);
#pragma unroll
          for (int e = 0; e < (kBlockM + 31) / 32; ++e) {
            const int r = lane + 32 * e;
            if (kBlockM % 32 != 0 && r >= kBlockM) break;  // (80-query steps: lanes 16-31 of the last pass)
            float lse = INFINITY, dsum = 0.0f;
            if (r < rows) {
              const float raw = p.lse[b * p.lse_batch_stride + cur.h * p.lse_head_stride + seq.row_begin_q + m0 + r];
              lse = raw == -INFINITY ? INFINITY : raw * sm80::kLog2e - P.lse_ks;
              dsum = bp.dsum[cur.h * bp.dsum_head_stride + seq.row_global_q + m0 + r] * P.inv_ks;
            }
            sLse0[st * kBlockM + r] = lse;
            sDsum0[st * kBlockM + r] = dsum;
          }
          mbar_arrive(q_full + st);  // release: this lane's stores are visible to the waiters
        }
      }
    } else if (warp == 2) {
      if constexpr (C::kDqSmem) {
        // dQ writer: per step, the buffer's rows inside the sequence (rows past it are never
        // added). Padded batch: lane 0 adds the whole box (TMA clips rows past seqlen_q and the
        // pad columns). Varlen: lane r and r + 32 each add one row of kD floats, contiguous in
        // the workspace (row, head, dq_accum_dim) and in the buffer. kDqStage (padded batch
        // only): lane 0 adds the stage's eight 32-column boxes, then the stage goes back to the
        // producer.
        constexpr int kUses = C::kDqStage ? kStages : C::kBuffersdQ;  // buffers (kDqStage: stages)
        if (P.dq_tensor && lane == 0) prefetch_tensor_map(&P.tma_dq);
        int g = 0, cursor = 0;
        while (next_item(&cursor, kItemWriter)) {
          Step cur = steps > 0 ? first_step() : Step{0, 0};
          for (int s = 0; s < steps; ++s, ++g, cur = next(cur)) {
            const int bi = g % kUses;
            const unsigned char* sdQ = smem + C::kOffdQ + bi * C::kBytesdQ;  // (not kDqStage)
            const int m0 = cur.m_block * kBlockM;
            const int rows = min(kBlockM, seq.seqlen_q - m0);
            // Deterministic: key blocks add into a query block in decreasing order (the sm80
            // kernel's semaphores, one per (batch, query head, 64-row query block)): wait until the
            // blocks after this one, up to the last that reaches the query block, have added theirs
            // - before the consumers' dQ is ready, so that the poll's latency hides behind their step.
            int32_t* sem = nullptr;
            if (bp.deterministic) {
              int k_lo, k_hi;
              mask.key_range(m0, m0 + rows, &k_lo, &k_hi);
              const int expected = (k_hi - 1) / kBlockN - n_block;
              sem = bp.semaphore + (int64_t(b) * p.num_heads + cur.h) * bp.num_m_blocks + cur.m_block;
              if (lane == 0) {
                // Bounded: a count the walk never reaches (a bug) traps instead of hanging. The
                // sleep leaves the issue slots to the consumer warp beside this one.
                const long long t0 = clock64();
                while (*reinterpret_cast<volatile int32_t*>(sem) != expected) {
                  if (clock64() - t0 > (1ll << 36)) __trap();
                  __nanosleep(32);
                }
                __threadfence();  // acquire: the earlier blocks' reductions happen before ours
              }
              __syncwarp();
              __threadfence();
              fence_proxy_async_global();  // (generic-proxy order, then our bulk reductions)
            }
            // dq_accum uncleared (BwdParams::dq_tickets; the tensor forms, lane 0's): the query
            // block's first step stores its dQ, the others add theirs once that store is done.
            // Early (dq_store_mode 2, 3: before the consumers' dQ is ready, the atomic's round trip
            // off the step's path): safe, since a writer holds at most the ticket of the step it is
            // on, and a step depends on no other CTA (the one cross-CTA wait, a stream-K merge, is a
            // CTA's last item's end). Mode 1 takes it after dq_full.
            int32_t* ticket = nullptr;
            int32_t old = 0;
            if (bp.dq_tickets != nullptr && lane == 0) {
              ticket = bp.dq_tickets + (int64_t(b) * p.num_heads + cur.h) * bp.num_m_blocks + cur.m_block;
              if (bp.dq_store_mode >= 2) old = atom_add_acquire_gpu(ticket, 1);
            }
            // (kDqT: the first half's; the second's below, before its boxes)
            mbar_wait_idle(dq_full + bi * C::kDqHalves, (g / kUses) & 1);
            bool first = false;
            if (ticket != nullptr) {
              const int mode = bp.dq_store_mode;
              if (mode < 2) old = atomicAdd(ticket, 1);
              first = old == 0;
              if (!first && (old & sm80::BwdParams::kDqStored) == 0) {
                const long long t0 = clock64();  // bounded, as the semaphores' poll above
                while ((ld_acquire_gpu(ticket) & sm80::BwdParams::kDqStored) == 0) {
                  if (clock64() - t0 > (1ll << 36)) __trap();
                  __nanosleep(32);
                }
              }
              if (!first && mode != 3) {
                if (mode == 1) __threadfence();  // acquire: the first step's store before our reductions
                fence_proxy_async_global();      // (generic-proxy order, then our bulk reductions)
              }
            }
            // Lane 0's `first` and the box's coordinates, warp-uniform to the compiler through warp
            // reductions: the TMA issues below take them from uniform registers, without a loop over
            // the lanes. (`first` itself stays lane 0's: the other lanes hold no ticket.)
            const bool ufirst = __reduce_or_sync(~0u, first ? 1u : 0u) != 0u;
            const int um0 = __reduce_min_sync(~0u, m0), uh = __reduce_min_sync(~0u, cur.h), ub = __reduce_min_sync(~0u, b);
            // Box (c0, m0, h, b) of the step's dQ: stored by the block's first step, else added.
            const auto put = [&](const unsigned char* src, int c0) {
              if (ufirst) tma_store_4d(&P.tma_dq, src, c0, um0, uh, ub);
              else tma_reduce_add_4d(&P.tma_dq, src, c0, um0, uh, ub);
            };
            if constexpr (C::kDqStage) {
              if (lane == 0) {
#pragma unroll
                for (int w = 0; w < 2; ++w)
#pragma unroll
                  for (int j = 0; j < C::kDQ / C::kDqBoxCols; ++j)
                    put(smem + (w == 0 ? C::kOffQ : C::kOffdO) + bi * C::kBytesQ + j * C::kPanelQ,
                        w * C::kDQ + j * C::kDqBoxCols);
              }
            } else if constexpr (C::kDqT) {
              // (a padded batch only, bwd90_steps80_ok) The buffer's kD / 32 swizzled boxes, a
              // half (consumer warpgroup cw's kD / 64 boxes: its 64 columns) at a time: warpgroup
              // 0's half added and, its reads done, released to warpgroup 0 (dq_empty's first
              // half) before the writer waits for warpgroup 1's; the second half's release below.
              constexpr int kBoxesHalf = kD / C::kDqBoxCols / 2;
              if (lane == 0) {
#pragma unroll
                for (int j = 0; j < kBoxesHalf; ++j) put(sdQ + j * (kBlockM * 128), j * C::kDqBoxCols);
              }
              bulk_commit();
              bulk_wait_read();
              mbar_arrive(dq_empty + bi * 2);
              mbar_wait_idle(dq_full + bi * 2 + 1, (g / kUses) & 1);
              if (lane == 0) {
#pragma unroll
                for (int j = kBoxesHalf; j < 2 * kBoxesHalf; ++j) put(sdQ + j * (kBlockM * 128), j * C::kDqBoxCols);
              }
              bulk_commit();
            } else if (P.dq_tensor) {
#ifndef FLASHATTN_SM90_MEASURE_NO_DQ  // (a measurement build without dQ's reductions: bench/NOTES.md session 29)
              if (lane == 0) put(sdQ, 0);
#endif
            } else {
#pragma unroll
              for (int e = 0; e < kBlockM / 32; ++e) {
                const int r = lane + 32 * e;
                if (r < rows)
                  bulk_reduce_add_f32(
                      bp.dq_accum + ((seq.row_global_q + m0 + r) * p.num_heads + cur.h) * int64_t(bp.dq_accum_dim),
                      sdQ + sdq_offset<C>(r, 0), kD * 4);
              }
            }
            if constexpr (!C::kDqT) bulk_commit();
            bulk_wait_read();  // the buffer (kDqStage: the stage; kDqT: its second half) may be rewritten
            mbar_arrive(C::kDqStage ? q_empty + bi : dq_empty + bi * C::kDqHalves + C::kDqHalves - 1);
            if (first) {
              // The store complete, then the flag that lets the block's other steps add (release).
              bulk_wait();
              fence_proxy_async_global();
              red_add_release_gpu(ticket, sm80::BwdParams::kDqStored);
            }
            if (bp.deterministic) {
              // Every lane's reductions complete (not only their reads), then the next block's turn.
              bulk_wait();
              fence_proxy_async_global();
              __syncwarp();
              if (lane == 0) {
                __threadfence();
                atomicAdd(sem, 1);
              }
            }
          }
        }
        bulk_wait();  // the reductions done before the CTA exits
      }
    } else if (warp == 3 && lane == 0 && P.sk.plan.width > 0) {
      // The stream-K tail's wait: before the consumers merge a kMerge piece's partner, its flag
      // (set by CTA blockIdx.x + 1 after its kPartial piece, its first item: in practice set long
      // before it is needed). Here rather than in a consumer thread: the bounded poll (a flag that
      // never comes, a bug, traps instead of hanging) in the consumers' item loop made ptxas
      // serialize their wgmma (C7512) and spill 1.5 KB.
      int cursor = 0;
      while (next_item(&cursor)) {
        if (role != StreamKPiece::kMerge) continue;
        const unsigned long long* flag = P.sk.flag + int64_t(ctaid_x() + 1) * 2;
        const long long t0 = clock64();
        while (ld_acquire_gpu(flag) != P.sk.epoch || ld_acquire_gpu(flag + 1) != P.sk.epoch) {
          if (clock64() - t0 > (1ll << 36)) __trap();
          __nanosleep(64);
        }
        mbar_arrive(merge_ready);  // release: the acquired flags' stores are visible to the waiters
      }
    }
    return;
  }

  // ---------------- consumers ----------------
#ifndef FLASHATTN_SM90_NO_REGREALLOC
  regs_alloc<240>();
#endif
  const int cw = wg - 1;  // consumer warpgroup: keys cw * 64 .. + 63 of the block
  // The dQ buffers' barriers this warpgroup arrives on and waits for (kDqT: its half's).
  // (cw through a shuffle: warp-uniform to the compiler, the offset in a uniform register)
  const int dq_half = C::kDqT ? __shfl_sync(~0u, cw, 0) : 0;
  uint64_t* const dq_full_wg = dq_full + dq_half;
  uint64_t* const dq_empty_wg = dq_empty + dq_half;
  const int tid = threadIdx.x % 128, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tq = lane % 4;
  const int kr0 = warp * 16 + gr;  // this thread's keys (within the warpgroup): kr0 and kr0 + 8
  // The warpgroup's first key within the block (kSplitD: both warpgroups the same 64 keys).
  const int key0 = C::kSplitD ? 0 : cw * 64;
  const uint32_t sK = smem_addr(smem + C::kOffK) + uint32_t(key0) * 128u;  // its 64 rows of each panel
  const uint32_t sV = smem_addr(smem + C::kOffV) + uint32_t(key0) * 128u;
  // dQ = dS K: this warpgroup's dQ rows dq_row0 .. + 63 (of the step's kBlockM) and kDQ columns
  // from dq_col0 (bwd_config.h: 64-query steps split head_dim, 128-query steps the rows; tier
  // 192: two pieces, from dq_col0 and dq_col1). B = K's kBlockN rows, the columns
  // (inside one panel, or whole panels; for kDQ = 32 the second warpgroup starts 64 bytes into
  // each 128-byte row, which the swizzle, applied to the address bits 4-6 from bits 7-9, leaves
  // intact); A = dS rows dq_row0 .. (8 KB into each 1024-byte aligned panel).
  const int dq_row0 = C::kDqRows ? cw * 64 : 0, dq_col0 = C::dq_col0(cw);
  // A column's address in a tile of 64-column panels (panel_bytes each), for a B operand's piece.
  auto panel_col = [](uint32_t tile, int col, uint32_t panel_bytes) {
    return tile + uint32_t(col / 64) * panel_bytes + uint32_t(col % 64) * 2u;
  };
  const uint32_t sKdq = panel_col(smem_addr(smem + C::kOffK), dq_col0, C::kPanelKV);
  const uint32_t sKdq1 = panel_col(smem_addr(smem + C::kOffK), C::dq_col1(cw), C::kPanelKV);  // (piece 1)
  // Named barrier of both consumer warpgroups (256 threads): dS of the step written (id 0 is
  // __syncthreads; the kernel uses no other).
  constexpr int kBarDs = 1;
  // Named barrier of one consumer warpgroup (128 threads): dropout's keep bits of the step stored
  // (ids 2 and 3).
  constexpr int kBarKeep = 2;
  // kDqStage: named barrier of both consumer warpgroups: their GEMMs reading the step's ring stage
  // (dK, dV: each warpgroup reads the other's half of Q and dO too, S^T and dP^T all of it) have
  // completed, so either may overwrite it with dQ.
  constexpr int kBarStage = 4;
  // Named barrier of both consumer warpgroups (256 threads): their item's last GEMMs done, so
  // either may write dK into the K tile (dkdv_tma, the epilogue; ids 5 and 6 are split_bar's).
  constexpr int kBarOut = 7;

  // kSplitD: acc_dv is warpgroup 0's dV or warpgroup 1's dK (one array: the roles' registers
  // are the same), acc_dk a placeholder.
  float acc_dv[kNKV], acc_dk[C::kSplitD ? 1 : kNKV];

  semantics::ScoreMod<float> mod;  // (diag_offset: per item)
  if constexpr (kExtras || kCap || kAlibi) {
    mod.scale = p.scale;
    mod.softcap = p.softcap;
  }
  // kCap: a score in exp2's units is tanh(dot cap_in) cap_out.
  [[maybe_unused]] const float cap_in = kCap ? mod.softcap_in() : 0.0f;
  [[maybe_unused]] const float cap_out = kCap ? mod.softcap_out(sm80::kLog2e) : 0.0f;

  // S^T = K Q^T and dP^T = V dO^T of step s_ (its stage waited for: q_full), one commit group each. (Each wgmma has one call
  // site and its accumulators live inside one iteration: issuing step s + 1's from the end of
  // step s besides step 0's from before the loop made the compiler merge in-flight accumulators
  // with register moves, and ptxas serialized every wgmma of the kernel (C7515) and spilled.)
  // kKRegs: K's A fragments, loaded once the K tile has landed (below).
  uint32_t kfrag[kKRegs ? kD / 16 : 1][4];
  // X Y^T over the head dim, both K-major in shared memory (X: 64 key rows of K or V, Y: the
  // stage's Q or dO), one commit group.
  auto issue_kt = [&](float(&acc)[kNS], uint32_t sX, uint32_t sY) {
    reg_fence(acc);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kD / 16; ++kk)
      Wgmma<kBlockM, T, 0>::ss(acc, desc_k_major(sX, C::kPanelKV, kk), desc_k_major(sY, C::kPanelQ, kk), kk > 0);
    wgmma_commit();
  };
  auto issue_s = [&](int s_, float(&acc_s)[kNS]) {
    const uint32_t sQ_ = smem_addr(smem + C::kOffQ + (s_ % kStages) * C::kBytesQ);
    if constexpr (kKRegs) {
      reg_fence(acc_s);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kD / 16; ++kk)
        Wgmma<kBlockM, T, 0>::rs(acc_s, kfrag[kk], desc_k_major(sQ_, C::kPanelQ, kk), kk > 0);
      wgmma_commit();
    } else {
      issue_kt(acc_s, sK, sQ_);
    }
  };
  auto issue_dp = [&](int s_, float(&acc_dp)[kNS]) {
    issue_kt(acc_dp, sV, smem_addr(smem + C::kOffdO + (s_ % kStages) * C::kBytesQ));
  };

  // dQ[dq_row0 .. + 64, dq_col0 .. + kDQ) of step s_ = dS (those 64 queries x kBlockN keys, buffer
  // s_ mod 2) K (kBlockN keys x kDQ): K depth kBlockN, one commit group. (s_ = -1: kLag's discarded
  // product, below.)
  auto fence_dq = [](DqAcc& acc_dq) {
    reg_fence(acc_dq.a);
    if constexpr (C::kDQ1 > 0) reg_fence(acc_dq.b);
  };
  auto issue_dq = [&](int s_, DqAcc& acc_dq) {
    const int buf = (s_ + C::kBuffersdS) % C::kBuffersdS;
    const uint32_t sdS_ = smem_addr(smem + C::kOffdS + buf * C::kBytesdS) + uint32_t(dq_row0) * 128u;
    fence_dq(acc_dq);
    wgmma_fence();
    if constexpr (C::kDqT) {
      // dQ^T (this warpgroup's 64 columns x the kBlockM queries) = K^T dS^T: A = K's panel cw read
      // M-major (sKdq: columns dq_col0 = 64 cw, keys 16 kk.. at 2048 bytes a k16 step, as dQ's B
      // operand below), B = the whole dS buffer (dq_row0 = 0), K-major as stored (queries x keys).
#pragma unroll
      for (int kk = 0; kk < kBlockN / 16; ++kk)
        Wgmma<kBlockM, T, 0, 1>::ss(acc_dq.a, desc_mn_major(sKdq, C::kPanelKV, kk), desc_k_major(sdS_, C::kPaneldS, kk),
                                    kk > 0);
    } else {
#pragma unroll
      for (int kk = 0; kk < kBlockN / 16; ++kk) {
        Wgmma<C::kDQ0, T, 1>::ss(acc_dq.a, desc_k_major(sdS_, C::kPaneldS, kk), desc_mn_major(sKdq, C::kPanelKV, kk),
                                 kk > 0);
        if constexpr (C::kDQ1 > 0)
          Wgmma<C::kDQ1, T, 1>::ss(acc_dq.b, desc_k_major(sdS_, C::kPaneldS, kk), desc_mn_major(sKdq1, C::kPanelKV, kk),
                                   kk > 0);
      }
    }
    wgmma_commit();
  };
  // Step s_'s dQ (complete) out: into the dQ buffer for the writer warp (kDqSmem), else one
  // red.global.add.v2.f32 per column pair (8-byte aligned: dq_accum_dim is even; columns past
  // head_dim, K zero-filled there, add 0 inside the tier's row). h_, m0_, rows_: the step's query
  // head, first query row and rows.
  auto store_dq = [&](int s_, const DqAcc& acc_dq, int h_, int m0_, int rows_) {
    if constexpr (C::kDqStage) {
      // Into this warpgroup's tile of the step's ring stage (bwd_config.h), free once both
      // warpgroups passed kBarStage below; then fence and arrive, as into a dQ buffer.
      // Store t of a thread writes its column tile t (8 columns), or t ^ 2 for odd gr
      // (dq_stage_tile): the swizzle XORs a row's 16-byte chunks with row % 8 alone, so without the
      // swap rows 0 and 1 (2 and 3) of a half warp hit the same chunks.
      unsigned char* sdQ = smem + (cw == 0 ? C::kOffQ : C::kOffdO) + (s_ % kStages) * C::kBytesQ;
      const bool swap = dq_stage_swap(gr);
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        const int row = warp * 16 + gr + hf * 8;
#pragma unroll
        for (int t = 0; t < C::kDQ / 8; ++t) {
          const int u = t ^ 2;
          const float x = swap ? acc_dq.a[4 * u + 2 * hf] : acc_dq.a[4 * t + 2 * hf];
          const float y = swap ? acc_dq.a[4 * u + 2 * hf + 1] : acc_dq.a[4 * t + 2 * hf + 1];
          *reinterpret_cast<float2*>(sdQ + sdq_stage_offset<C>(row, dq_stage_tile(t, gr) * 8 + 2 * tq)) =
              make_float2(x, y);
        }
      }
      fence_proxy_async_shared();
      mbar_arrive(dq_full + (s_ % kStages));
    } else if constexpr (C::kDqSmem) {
      // Into dQ buffer s_ % kBuffersdQ once the writer has read its previous use (all 64 rows:
      // the writer skips those past the sequence); then fence (generic-proxy stores, bulk-copy
      // reads) and arrive.
      const int bi = s_ % C::kBuffersdQ, use = s_ / C::kBuffersdQ;
      if (use > 0) mbar_wait(dq_empty_wg + bi * C::kDqHalves, (use - 1) & 1);
      unsigned char* sdQ = smem + C::kOffdQ + bi * C::kBytesdQ;
      if constexpr (C::kDqT) {
        // dQ^T's element (column c, query q) - accumulator 4 g + 2 hf + e: c = 64 cw + warp * 16 +
        // gr + 8 hf, q = 8 g + 2 tq + e - as the buffer's kD / 32 swizzled boxes hold it
        // (bwd_config.h kDqT). Query 8 g + r lies 1024 g bytes past query r (the swizzle reads the
        // row within its 8-row atom only): four offsets a thread, the rest immediates (computed per
        // element, ptxas kept all 40 offsets across the loop and spilled them).
#pragma unroll
        for (int hf = 0; hf < 2; ++hf)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            unsigned char* row0 = sdQ + sdq_stage_offset<C>(2 * tq + e, dq_col0 + warp * 16 + gr + hf * 8);
#pragma unroll
            for (int g = 0; g < kBlockM / 8; ++g)
              *reinterpret_cast<float*>(row0 + g * 1024) = acc_dq.a[4 * g + 2 * hf + e];
          }
      } else {
#pragma unroll
        for (int hf = 0; hf < 2; ++hf) {
          const int row = dq_row0 + warp * 16 + gr + hf * 8;
#pragma unroll
          for (int t = 0; t < C::kDQ0 / 8; ++t)
            *reinterpret_cast<float2*>(sdQ + sdq_offset<C>(row, dq_col0 + t * 8 + 2 * tq)) =
                make_float2(acc_dq.a[4 * t + 2 * hf], acc_dq.a[4 * t + 2 * hf + 1]);
          if constexpr (C::kDQ1 > 0) {
#pragma unroll
            for (int t = 0; t < C::kDQ1 / 8; ++t)
              *reinterpret_cast<float2*>(sdQ + sdq_offset<C>(row, C::dq_col1(cw) + t * 8 + 2 * tq)) =
                  make_float2(acc_dq.b[4 * t + 2 * hf], acc_dq.b[4 * t + 2 * hf + 1]);
          }
        }
      }
      fence_proxy_async_shared();
      mbar_arrive(dq_full_wg + bi * C::kDqHalves);
    } else {
      const int64_t dq_row_stride = int64_t(p.num_heads) * bp.dq_accum_dim;
      float* gdq = bp.dq_accum + ((seq.row_global_q + m0_) * p.num_heads + h_) * int64_t(bp.dq_accum_dim) +
                   (dq_row0 + warp * 16 + gr) * dq_row_stride + 2 * tq;
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        if (dq_row0 + warp * 16 + gr + hf * 8 >= rows_) continue;
        float* row = gdq + hf * 8 * dq_row_stride;
#pragma unroll
        for (int t = 0; t < C::kDQ0 / 8; ++t)
          prim::red_add2(row + dq_col0 + t * 8, acc_dq.a[4 * t + 2 * hf], acc_dq.a[4 * t + 2 * hf + 1]);
        if constexpr (C::kDQ1 > 0) {
#pragma unroll
          for (int t = 0; t < C::kDQ1 / 8; ++t)
            prim::red_add2(row + C::dq_col1(cw) + t * 8, acc_dq.b[4 * t + 2 * hf], acc_dq.b[4 * t + 2 * hf + 1]);
        }
      }
    }
  };

  // Two schedules of a step. Plain scores (kLag): S^T(s) is issued with dQ(s - 1) (the dS tile
  // it reads waits in shared memory, two buffers), P^T is computed while dQ(s - 1) runs, dV(s)
  // is issued and dQ(s - 1) stored while it runs, then dP^T(s), dS^T, dK(s): the tensor cores
  // have queued work through the P^T and store phases, which in lockstep (both warpgroups meet
  // at the dS barrier) had left them idle (session 7's profile: the wait for dQ alone ~13% of the
  // consumers' samples). Registers: S^T (P^T in fp32 for dS^T), P^T's fragments, dQ, dK and dV
  // at once; dP^T is issued once dV has completed (P^T's fragments are free), so d128 fits in
  // 240. Step 0 issues a dQ product too, of the other dS buffer (not yet written: uninitialized
  // shared memory, which compute-sanitizer's initcheck would report; the result is discarded): a
  // conditional wgmma made ptxas serialize every wgmma of the kernel (C7514).
  // The other schedule (!kLag): a score modifier, dropout with it (kExtras: d(score)/d(dot) needs the
  // dot, which P^T overwrites; keeping it would cost kNS registers) and head_dim 192, 256 (kSplitD:
  // dQ's 64 registers a thread do not fit beside S^T): S^T and dP^T are issued together and both
  // waited, dS^T comes with P^T, and dQ(s) follows its dS directly and is stored at the end of the
  // step.
  constexpr bool kLag = bwd90_lag<C, kExtras>();
  int prev_h = 0, prev_m0 = 0, prev_rows = 0;  // the step before (kLag)
  // The mask of a step's tile for this thread's keys (kr0, kr0 + 8 past key0), branch-free: each
  // key as the query rows that see it (Mask::query_range of one key: exactly the rows visible()
  // accepts; rows past the sequence and keys past it see none), stored as an offset from query
  // m0_ + 2 tq and a span, so an element's test is one unsigned compare of its constant query
  // offset. Tiles the mask does not cut (rows or keys past the sequences included): a span that
  // takes every offset.
  // Once an item (key_rows): those rows of this thread's keys, and the query rows that see every
  // key of the block, [tile_lo, tile_hi): the first key's last rows and the last key's first
  // (query ranges move up with the key), none where the block has keys past the sequence. A
  // step's tile is uncut iff its kBlockM rows lie in it (Mask::tile_unmasked of the tile, rows
  // past the sequence included). (Held: ptxas recomputed them in the step loop, 64-bit, once the
  // item came from shared memory; the empty asm makes them opaque.) The kernel with extras takes
  // its keys' rows per step instead, on tiles the mask cuts only: held, they spilled there (3
  // LDL/STL in the loop, softcap d128 -2..-3% against session 43's kernel, session 45 call 1).
  constexpr bool kKeyRowsPerStep = kExtras;
  int key_lo[2] = {0, 0}, key_hi[2] = {0, 0}, tile_lo = 0, tile_hi = 0;
  auto key_rows = [&] {
    if constexpr (!kKeyRowsPerStep) {
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        const int jk = n0 + key0 + kr0 + hf * 8;
        mask.query_range(jk, jk + 1, &key_lo[hf], &key_hi[hf]);
        asm volatile("" : "+r"(key_lo[hf]), "+r"(key_hi[hf]));
      }
    }
    int unused;
    mask.query_range(n0 + kBlockN - 1, n0 + kBlockN, &tile_lo, &unused);
    mask.query_range(n0, n0 + 1, &unused, &tile_hi);
    if (cols < kBlockN) tile_hi = -(1 << 30);
  };
  auto key_mask = [&](int m0_, int (&qlo)[2], uint32_t (&qspan)[2]) {
    qlo[0] = qlo[1] = -(1 << 30);
    qspan[0] = qspan[1] = 1u << 31;
    if (!(m0_ >= tile_lo && m0_ + kBlockM <= tile_hi)) {
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        int lo = key_lo[hf], hi = key_hi[hf];
        if constexpr (kKeyRowsPerStep) {
          const int jk = n0 + key0 + kr0 + hf * 8;
          mask.query_range(jk, jk + 1, &lo, &hi);
        }
        qlo[hf] = lo - m0_ - 2 * tq;
        qspan[hf] = uint32_t(hi - lo);
      }
    }
  };
  // Dropout (kExtras, kDrop): the keep bits of this warpgroup's 64 keys x kBlockM queries of step
  // s_, drawn while its GEMMs run. The 64 keys are one stretch of the dropout rule (four Philox
  // units, q = 0..3, each deciding the 16 keys 8 t + 2 q + e); warp w draws units 2 kg and 2 kg + 1
  // (kg = w % 2: the 32 keys 8 t + 4 kg + j, j < 4) of query m0_ + qw * 32 + lane for its words qw
  // (bwd_config.h): two Philox calls a lane, no byte wasted; one ballot per byte and call (the
  // byte's keep test as its predicate) transposes the warp's 32 x 32 bits, so that lane L holds
  // key 8 (L / 4) + 4 kg + L % 4's word over the 32 queries (no bit packing in between: session 8
  // measured the packed form + 32 ballots at ~550 instructions a lane, the drawing at +120% of the
  // plain backward's time); through shared memory (read_keep) each thread then takes the words of
  // its keys kr0 and kr0 + 8. Off: every bit set (and no keep scale folded into LSE and D: exact).
  // kSplitD: warpgroup 0 draws, both read.
  auto keep_words = [&](int s_, int owner) {
    return reinterpret_cast<uint32_t*>(smem + C::kOffKeep) + ((s_ & 1) * 2 + owner) * C::kKeepWordsWG;
  };
  auto draw_keep = [&](int s_, int h_, int m0_) {
    uint32_t* sKeep = keep_words(s_, cw);
    const int kg = warp % 2;
    const int unit0 = ((n0 + key0) >> 6) * 4 + 2 * kg;  // this warp's first Philox unit
    const uint32_t threshold_hi = p.dropout.threshold_hi();
#pragma unroll
    for (int i = 0; i < C::kKeepDraws; ++i) {
      const int qw = C::keep_draw_qw(warp, i);
      uint32_t mine = 0;
#pragma unroll
      for (int u = 0; u < 2; ++u) {
        const semantics::Philox4 w = p.dropout.words(uint64_t(b) * p.num_heads + h_, m0_ + qw * 32 + lane, unit0 + u);
#pragma unroll
        for (int k = 0; k < 16; ++k) {
          const uint32_t word = __ballot_sync(0xffffffffu, semantics::Dropout::byte_kept(w, k, threshold_hi));
          if (lane == 4 * (k >> 1) + 2 * u + (k & 1)) mine = word;  // key column_of(2 kg + u, k)
        }
      }
      sKeep[C::keep_word(8 * (lane >> 2) + 4 * kg + (lane & 3), qw)] = mine;
    }
    if (cw == 0) named_bar_sync(kBarKeep, 128);  // literal ids: ptxas reserves all 16 for a variable one
    else named_bar_sync(kBarKeep + 1, 128);
  };
  auto read_keep = [&](int s_, int owner, uint32_t (&keep)[2][kBlockM / 32]) {
    const uint32_t* sKeep = keep_words(s_, owner);
#pragma unroll
    for (int hf = 0; hf < 2; ++hf)
#pragma unroll
      for (int qw = 0; qw < kBlockM / 32; ++qw) keep[hf][qw] = sKeep[C::keep_word(kr0 + 8 * hf, qw)];
  };

  // dS^T (registers dsa, A fragments) into panel `panel` of the step's dS buffer, as [query][key],
  // one stmatrix (four transposed 8 x 8 blocks) a k16 block (sds_stmatrix_offset).
  auto store_ds = [&](int s_, int panel, const uint32_t (&dsa)[kBlockM / 16][4]) {
    const uint32_t sdS_wg = smem_addr(smem + C::kOffdS + (s_ % C::kBuffersdS) * C::kBytesdS + panel * C::kPaneldS) +
                            sds_stmatrix_offset<C>(warp, lane);
#pragma unroll
    for (int kk = 0; kk < kBlockM / 16; ++kk) prim::stmatrix_x4<true>(sdS_wg + uint32_t(kk) * 16u * 128u, dsa[kk]);
  };

  // kSplitD's step (head_dim 192, 256; roles, bwd_config.h). Warpgroup 0: S^T, P^T (the mask,
  // score modifiers, dropout's draw), P^T d(score)/d(dot) in fp32 into the exchange tile, dV +=
  // P^T dO (all columns, RS). Warpgroup 1, meanwhile: dP^T; once the tile is full (p_full),
  // dS^T = (P^T d(score)/d(dot)) (dP^T dropped - D) (pr is P ks and D is D / ks already, warp 1
  // folded the keep scale in), dS into the dS buffer, dK += dS^T Q (RS). Both: barrier
  // kBarDs, dV / dK complete, then dQ (their halves of the columns, as before) and its store.
  // Each role does 2.5 of the step's 5 units of GEMM work (7 before session 11: both computed S^T
  // and dP^T). Order: the exchange tile by its mbarriers (p_full, p_empty: every thread of a
  // warpgroup arrives, so compute-sanitizer's racecheck follows them, which it did not through
  // named barriers, session 11 run 3; the keep words ride along, double-buffered); the dS buffer
  // (one) is rewritten only after kBarDs of the step that read it, whose dQ GEMMs completed before
  // warpgroup 0's p_full of the next step.
  auto split_step = [&](int s, const Step& cur) {
    const int h = cur.h, m0 = cur.m_block * kBlockM;
    const int rows = min(kBlockM, seq.seqlen_q - m0);
    const int st = s % kStages;
    const uint32_t sQ = smem_addr(smem + C::kOffQ + st * C::kBytesQ);
    const uint32_t sdO = smem_addr(smem + C::kOffdO + st * C::kBytesQ);
    float acc[kNS];                  // warpgroup 0: S^T, then P^T (dropped); 1: dP^T, then dS^T
    uint32_t frag[kBlockM / 16][4];  // P^T's (0) or dS^T's (1) A fragments (k = queries)
    uint32_t keep[2][kBlockM / 32];
#pragma unroll
    for (int hf = 0; hf < 2; ++hf)
#pragma unroll
      for (int qw = 0; qw < kBlockM / 32; ++qw) keep[hf][qw] = 0xffffffffu;
    // S^T (warpgroup 0) or dP^T (1): one call site (two wgmma sequences on the same accumulators
    // in the branches of the roles made ptxas serialize every wgmma, C7511).
    if (cw == 1 && P.serial_sdp) mbar_wait(s_done, s & 1);
    issue_kt(acc, cw == 0 ? sK : sV, cw == 0 ? sQ : sdO);
    if (cw == 0) {
      if constexpr (kExtras) mod.alibi_slope = p.alibi != nullptr ? p.alibi[b * p.alibi_batch_stride + h] : 0.0f;
      int qlo[2];
      uint32_t qspan[2];
      key_mask(m0, qlo, qspan);
      if constexpr (kKeep) {
        if (p.dropout.enabled()) {
          draw_keep(s, h, m0);
          read_keep(s, 0, keep);
        }
      }
      const float* sLse = sLse0 + st * kBlockM;
      float2 lse2[kNS / 4];
#pragma unroll
      for (int g = 0; g < kNS / 4; ++g) lse2[g] = *reinterpret_cast<const float2*>(sLse + g * 8 + 2 * tq);
      wgmma_wait<0>();
      reg_fence(acc);
      if (P.serial_sdp) mbar_arrive(s_done);
      if (s > 0) mbar_wait(p_empty, (s - 1) & 1);  // warpgroup 1 has read step s - 1's tile
      float dist0 = 0.0f;
      if constexpr (kExtras) dist0 = float(m0 + 2 * tq + int(mod.diag_offset) - n0 - kr0);
      // Element j = 4 g + e: key kr0 + 8 (e / 2), query g * 8 + 2 tq + e % 2.
      // (With extras, softcap tested once outside the loop: ScoreMod::with_softcap.)
      auto elements = [&](auto softcap_on) {
#pragma unroll
        for (int g = 0; g < kNS / 4; ++g) {
          float pg[4];
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int j = 4 * g + e, hf = e / 2, qoff = g * 8 + (e % 2);  // query offset past 2 tq
            const float lse = e % 2 ? lse2[g].y : lse2[g].x;
            float pr, grad = p.scale;
            if constexpr (kExtras) {
              const float dist = dist0 + float(qoff - hf * 8);
              const float sm = mod.template apply_dist_grad<decltype(softcap_on)::value, -1>(acc[j], dist, &grad, sm80::kLog2e);
              pr = prim::exp2_approx(sm - lse);
            } else {
              pr = prim::exp2_approx(acc[j] * p.scale_log2 - lse);
            }
            if (!(uint32_t(qoff - qlo[hf]) < qspan[hf])) pr = 0.0f;
            pg[e] = pr * grad;
            bool kept = true;
            if constexpr (kExtras) kept = (keep[hf][g / 4] >> C::keep_shift(g, e, tq)) & 1u;
            acc[j] = kept ? pr : 0.0f;  // dV takes P dropped (and scaled: pr is P ks)
          }
          *reinterpret_cast<float4*>(smem + sp_offset<C>(tid, g)) = make_float4(pg[0], pg[1], pg[2], pg[3]);
        }
      };
      if constexpr (kExtras) mod.with_softcap(elements);
      else elements(std::integral_constant<int, 0>{});
      mbar_arrive(p_full);  // release: this thread's tile stores (and keep words) to warpgroup 1
    } else {
      const float* sDsum = sDsum0 + st * kBlockM;
      float2 dsum2[kNS / 4];
#pragma unroll
      for (int g = 0; g < kNS / 4; ++g) dsum2[g] = *reinterpret_cast<const float2*>(sDsum + g * 8 + 2 * tq);
      wgmma_wait<0>();
      reg_fence(acc);
      mbar_wait(p_full, s & 1);
      if constexpr (kKeep) {
        if (p.dropout.enabled()) read_keep(s, 0, keep);
      }
#pragma unroll
      for (int g = 0; g < kNS / 4; ++g) {
        const float4 pg4 = *reinterpret_cast<const float4*>(smem + sp_offset<C>(tid, g));
        const float pg[4] = {pg4.x, pg4.y, pg4.z, pg4.w};
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int j = 4 * g + e, hf = e / 2;
          float dpv = acc[j];
          if constexpr (kExtras) dpv = (keep[hf][g / 4] >> C::keep_shift(g, e, tq)) & 1u ? dpv : 0.0f;
          acc[j] = pg[e] * (dpv - (e % 2 ? dsum2[g].y : dsum2[g].x));
        }
      }
      mbar_arrive(p_empty);  // this thread's loads of the tile (and of the keep words) done
    }
    // P^T's (0) or dS^T's (1) A fragments; dS into the dS buffer (1).
#pragma unroll
    for (int kk = 0; kk < kBlockM / 16; ++kk)
#pragma unroll
      for (int e = 0; e < 4; ++e) frag[kk][e] = prim::pack2(acc[8 * kk + 2 * e], acc[8 * kk + 2 * e + 1], T());
    if (cw == 1) store_ds(s, 0, frag);
    // dV += P^T dO (0) or dK += dS^T Q (1): one call site, one commit group.
    {
      const uint32_t sB = cw == 0 ? sdO : sQ;
      reg_fence(acc_dv);
      reg_fence(frag);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kBlockM / 16; ++kk) Wgmma<kD, T, 1>::rs(acc_dv, frag[kk], desc_mn_major(sB, C::kPanelQ, kk), 1);
      wgmma_commit();
    }
    if (cw == 1) fence_proxy_async_shared();  // dS: generic-proxy stores, then wgmma (async proxy) reads
    named_bar_sync(kBarDs, 256);
    // dV / dK complete (registers: the fragments free before dQ's accumulators), then dQ.
    wgmma_wait<0>();
    reg_fence(acc_dv);
    reg_fence(frag);
    if constexpr (!C::kDqStage) mbar_arrive(q_empty + st);  // (kDqStage: the writer releases it)
    DqAcc acc_dq;
    issue_dq(s, acc_dq);
    if constexpr (C::kDqStage) named_bar_sync(kBarStage, 256);  // (while dQ's GEMM runs)
    wgmma_wait<0>();
    fence_dq(acc_dq);
    store_dq(s, acc_dq, h, m0, rows);
  };

  // The stream-K tail's pieces (P.sk.plan): this warpgroup's part of slot `slot`, float4 i of its
  // thread tid at i * 256 + cw * 128 + tid (dV's kNKV / 4, then dK's; kSplitD: the one
  // accumulator), and its flag.
  constexpr int kPartF4 = (C::kSplitD ? kNKV : 2 * kNKV) / 4;
  auto part_of = [&](uint32_t slot) { return P.sk.part + int64_t(slot) * kPartF4 * 256 + cw * 128 + tid; };
  auto flag_of = [&](uint32_t slot) { return P.sk.flag + int64_t(slot) * 2 + cw; };
  // This warpgroup's 128 threads (ids 5, 6). A variable id, which makes ptxas reserve all 16
  // (one CTA an SM: no cost); the literal ids of two branches (as kBarKeep) took the main loop
  // from 649 to 732 instructions with 5 local-memory accesses (tools/sass_report.py).
  auto split_bar = [&] { named_bar_sync(5 + cw, 128); };
  // kPartial: the accumulators (dK unscaled) out to slot blockIdx.x, then the flag (every thread's
  // stores fenced before the barrier, the flag after).
  auto save_partial = [&] {
    float4* dst = part_of(ctaid_x());
#pragma unroll
    for (int i = 0; i < kNKV / 4; ++i)
      __stcg(dst + i * 256, make_float4(acc_dv[4 * i], acc_dv[4 * i + 1], acc_dv[4 * i + 2], acc_dv[4 * i + 3]));
    if constexpr (!C::kSplitD) {
#pragma unroll
      for (int i = 0; i < kNKV / 4; ++i)
        __stcg(dst + (kNKV / 4 + i) * 256,
               make_float4(acc_dk[4 * i], acc_dk[4 * i + 1], acc_dk[4 * i + 2], acc_dk[4 * i + 3]));
    }
    __threadfence();
    split_bar();
    if (tid == 0) st_release_gpu(flag_of(ctaid_x()), P.sk.epoch);
  };
  // kMerge: the rest of the tile's walk from slot blockIdx.x + 1 (CTA blockIdx.x + 1's kPartial
  // piece, its first item) added into this thread's accumulators, once warp 3 has seen its flag
  // (merge_ready; a CTA's only kMerge piece is its last item). Run for every item, adding zeros
  // but for kMerge (one version of the accumulators whatever the role).
  auto merge_partial = [&] {
    const bool merge = role == StreamKPiece::kMerge;
    if (merge) mbar_wait(merge_ready, 0);
    const float4* src = part_of(ctaid_x() + 1);
    // Eight float4 loads in flight at a time (the compiler barrier keeps it from hoisting all of
    // them beside the accumulators).
    auto add = [&](float(&acc)[kNKV], int f0) {
#pragma unroll
      for (int i = 0; i < kNKV / 4; ++i) {
        if (i % 8 == 0) asm volatile("" ::: "memory");
        const float4 o = merge ? __ldcg(src + (f0 + i) * 256) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        acc[4 * i] += o.x;
        acc[4 * i + 1] += o.y;
        acc[4 * i + 2] += o.z;
        acc[4 * i + 3] += o.w;
      }
    };
    add(acc_dv, 0);
    if constexpr (!C::kSplitD) add(acc_dk, kNKV / 4);
  };

  // gs: this warpgroup's steps over all items (ring stage, dS, dQ and keep buffers, and phases);
  // items: the records read (kv_full's phases: one an item and one at the end; the item's index + 1).
  int gs = 0, items = 0;
#ifdef FLASHATTN_SM90_TRACE
  trace_start(P.trace, 1);
#endif
  for (;;) {
    // The record (next_item), and the item's K and V where it has steps. (Reading the record
    // after its sched_full phase instead, before K and V land, took the d128 main loops from
    // 625-712 to 689-768 instructions: measured in ptxas's output only, session 44.)
    mbar_wait(kv_full, items & 1);
    __syncwarp();  // (converged: without it, what the record decodes to left the uniform datapath)
    if (!next_item(&items, kItemConsumer)) break;
#pragma unroll
    for (int i = 0; i < kNKV; ++i) acc_dv[i] = 0.0f;
#pragma unroll
    for (int i = 0; i < (C::kSplitD ? 1 : kNKV); ++i) acc_dk[i] = 0.0f;
    if constexpr (kExtras || kAlibi) mod.diag_offset = int64_t(seq.seqlen_k) - seq.seqlen_q;
#ifdef FLASHATTN_SM90_TRACE
    trace_mark(P.trace, items - 1, 0, steps > 0);
#endif
    key_rows();
    if constexpr (kKRegs) {
      // ldmatrix .x4 per k16 block: lane l addresses row l % 8 of 8 x 8 matrix i = l / 8, i.e. key
      // warp * 16 + (i % 2) * 8 + l % 8, columns 16 kk + (i / 2) * 8 .. + 7: matrices (rows 0-7 | 8-15)
      // x (columns 0-7 | 8-15) in the order of the mma A fragment's registers (k_frag_offset). (No
      // step: no K tile either.)
      if (steps > 0) {
#pragma unroll
        for (int kk = 0; kk < kD / 16; ++kk)
          prim::ldmatrix_x4(kfrag[kk], smem_addr(smem + C::kOffK) + k_frag_offset<C>(key0 + warp * 16, lane, kk));
      }
    }
    Step cur = steps > 0 ? first_step() : Step{0, 0};
    for (int i = 0; i < steps; ++i, ++gs, cur = next(cur)) {
      const int s = gs;
#ifdef FLASHATTN_SM90_TRACE
      trace_mark(P.trace, items - 1, 1, i == 1);
#endif
      mbar_wait(q_full + s % kStages, (s / kStages) & 1);  // the step's Q, dO, LSE and D landed
      if constexpr (C::kSplitD) {
        split_step(s, cur);
      } else {
        float acc_s[kNS], acc_dp[kNS];
        issue_s(s, acc_s);
        DqAcc acc_dq_prev;
        if constexpr (kLag) issue_dq(s - 1, acc_dq_prev);
        else issue_dp(s, acc_dp);
        // Pending wgmma groups here: S^T(s), then dQ(s - 1) (kLag) or dP^T(s).
        const int h = cur.h, m0 = cur.m_block * kBlockM;
        const int rows = min(kBlockM, seq.seqlen_q - m0);
        const int st = s % kStages;
        const uint32_t sQ = smem_addr(smem + C::kOffQ + st * C::kBytesQ);
        const uint32_t sdO = smem_addr(smem + C::kOffdO + st * C::kBytesQ);
        const float* sLse = sLse0 + st * kBlockM;
        const float* sDsum = sDsum0 + st * kBlockM;
        if constexpr (kExtras || kAlibi)
          mod.alibi_slope = p.alibi != nullptr ? p.alibi[b * p.alibi_batch_stride + h] : 0.0f;
        [[maybe_unused]] const float alibi_raw = kAlibi ? mod.alibi_per_dot() : 0.0f;

        // P^T in place of S^T, dS^T in place of dP^T. Element j: key kr0 + 8 * ((j % 4) / 2), query
        // (j / 4) * 8 + 2 tq + j % 2. The mask only on tiles it cuts (rows or keys past the
        // sequences included).
        int qlo[2];
        uint32_t qspan[2];
        key_mask(m0, qlo, qspan);
        uint32_t keep[2][kBlockM / 32];
#pragma unroll
        for (int hf = 0; hf < 2; ++hf)
#pragma unroll
          for (int qw = 0; qw < kBlockM / 32; ++qw) keep[hf][qw] = 0xffffffffu;
        if constexpr (kKeep) {
          if (p.dropout.enabled()) {
            draw_keep(s, h, m0);
            read_keep(s, cw, keep);
          }
        }
        // LSE of the query pairs (2 tq, 2 tq + 1) of each group of 8, one 8-byte load each, before
        // the wait: their latency hides behind the GEMM's. (D: kLag loads it while dP^T runs, the
        // other schedule after the wait, for registers.)
        // (kKRegs: after the wait, for registers.)
        // (kDqT: after the wait too, for registers.)
        constexpr bool kLseLate = kKRegs || C::kDqT;
        float2 lse2[kNS / 4], dsum2[kNS / 4];
        if constexpr (!kLseLate) {
#pragma unroll
          for (int g = 0; g < kNS / 4; ++g) lse2[g] = *reinterpret_cast<const float2*>(sLse + g * 8 + 2 * tq);
        }
        if constexpr (kLag) {
          wgmma_wait<1>();  // S^T (dQ(s - 1) may still run)
        } else {
          wgmma_wait<0>();
          reg_fence(acc_dp);
        }
        reg_fence(acc_s);
        float dist0 = 0.0f;
        if constexpr (kExtras || kAlibi) dist0 = float(m0 + 2 * tq + int(mod.diag_offset) - n0 - key0 - kr0);
        constexpr bool kScaleOut = bwd90_scale_out<C, kExtras>();
        // P^T and dS^T as wgmma A fragments (k = queries): two n8 column tiles form one k16 block.
        uint32_t pa[kBlockM / 16][4], dsa[kBlockM / 16][4];
        [[maybe_unused]] float grad_prev = 0.0f;  // (kLag && kCap: the pair's first element's)
        // Element j = 4 g + e: key kr0 + 8 (e / 2), query g * 8 + 2 tq + e % 2.
        // (With extras, softcap tested once outside the loop: ScoreMod::with_softcap.)
        auto elements = [&](auto softcap_on) {
#pragma unroll
          for (int g = 0; g < kNS / 4; ++g) {
            if constexpr (kLseLate) lse2[g] = *reinterpret_cast<const float2*>(sLse + g * 8 + 2 * tq);
            if constexpr (!kLag) dsum2[g] = *reinterpret_cast<const float2*>(sDsum + g * 8 + 2 * tq);
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              const int j = 4 * g + e, hf = e / 2, qoff = g * 8 + (e % 2);  // query offset past 2 tq
              const float lse = e % 2 ? lse2[g].y : lse2[g].x;
              const float dot = acc_s[j];
              float pr;
              [[maybe_unused]] float grad = kScaleOut ? 1.0f : p.scale;  // (kScaleOut: dK and dQ take it at the end)
              if constexpr (kExtras) {
                // ALiBi's distance i - jk + diag: a base (one conversion a step) plus a constant.
                const float dist = dist0 + float(qoff - hf * 8);
                const float sm = mod.template apply_dist_grad<decltype(softcap_on)::value, -1>(dot, dist, &grad, sm80::kLog2e);
                pr = prim::exp2_approx(sm - lse);
              } else if constexpr (kCap) {
                const float t = semantics::fa_tanh(dot * cap_in);
                pr = prim::exp2_approx(t * cap_out - lse);
                grad = 1.0f - t * t;  // (kScaleOut)
              } else if constexpr (kAlibi) {
                const float dist = dist0 + float(qoff - hf * 8);
                pr = prim::exp2_approx(fmaf(fabsf(dist), alibi_raw, dot) * p.scale_log2 - lse);
              } else {
                pr = prim::exp2_approx(dot * p.scale_log2 - lse);
              }
              if (!(uint32_t(qoff - qlo[hf]) < qspan[hf])) pr = 0.0f;
              acc_s[j] = pr;
              if constexpr (kLag && kCap) {
                // P^T's fragment of the pair (j - 1, j) for dV, then P^T d(score)/d(dot) for dS^T.
                if (e % 2 == 1) {
                  pa[j / 8][(j % 8) / 2] = prim::pack2(acc_s[j - 1], pr, T());
                  acc_s[j - 1] *= grad_prev;
                  acc_s[j] = pr * grad;
                }
                grad_prev = grad;
              }
              if constexpr (!kLag) {
                // dS^T with P^T (the schedule without lag: kExtras). Dropout (as the sm80
                // backward): dV takes P dropped and scaled, dS = P (dP dropped and scaled - D)
                // d(score)/d(dot); pr is P ks and D is D / ks already (warp 1 folded ks into them).
                float dpv = acc_dp[j];
                if constexpr (kExtras) {
                  const bool kept = (keep[hf][g / 4] >> C::keep_shift(g, e, tq)) & 1u;
                  acc_s[j] = kept ? pr : 0.0f;
                  dpv = kept ? dpv : 0.0f;
                }
                acc_dp[j] = pr * (dpv - (e % 2 ? dsum2[g].y : dsum2[g].x)) * grad;
              }
            }
          }
        };
        if constexpr (kExtras) mod.with_softcap(elements);
        else elements(std::integral_constant<int, 0>{});

        // kDrop (kLag keeps P^T undropped in acc_s for dS^T): element j = 4 g + e dropped (its keep
        // bit), as the sm80 backward: dV takes P dropped and scaled, dS = P (dP dropped and scaled -
        // D) scale; the scale ks is folded into P and D (warp 1), so dropping is a select.
        auto dropped = [&](float x, int j) {
          if constexpr (kDrop) {
            const bool kept = (keep[(j % 4) / 2][j / 16] >> C::keep_shift(j / 4, j % 4, tq)) & 1u;
            return kept ? x : 0.0f;
          } else {
            return x;
          }
        };
        // P^T's fragments (kLag && kCap: packed in the element loop).
        if constexpr (!(kLag && kCap)) {
#pragma unroll
          for (int kk = 0; kk < kBlockM / 16; ++kk)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              const int j = 8 * kk + 2 * e;
              pa[kk][e] = prim::pack2(dropped(acc_s[j], j), dropped(acc_s[j + 1], j + 1), T());
            }
        }
        // dV += P^T dO: one commit group.
        reg_fence(acc_dv);
        reg_fence(pa);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kBlockM / 16; ++kk) Wgmma<kD, T, 1>::rs(acc_dv, pa[kk], desc_mn_major(sdO, C::kPanelQ, kk), 1);
        wgmma_commit();
        if constexpr (kLag) {
          // dQ(s - 1) out while dV runs (pending: dQ(s - 1), dV).
          wgmma_wait<1>();
          fence_dq(acc_dq_prev);
          if (i > 0) store_dq(s - 1, acc_dq_prev, prev_h, prev_m0, prev_rows);
          // dV complete (P^T's fragments free), then dP^T, then dS^T (D loaded while dP^T runs).
          wgmma_wait<0>();
          reg_fence(pa);
          reg_fence(acc_dv);
          issue_dp(s, acc_dp);
          if constexpr (!kKRegs) {  // (kKRegs: after the wait, for registers)
#pragma unroll
            for (int g = 0; g < kNS / 4; ++g) dsum2[g] = *reinterpret_cast<const float2*>(sDsum + g * 8 + 2 * tq);
          }
          wgmma_wait<0>();
          reg_fence(acc_dp);
#pragma unroll
          for (int g = 0; g < kNS / 4; ++g) {
            if constexpr (kKRegs) dsum2[g] = *reinterpret_cast<const float2*>(sDsum + g * 8 + 2 * tq);
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              const int j = 4 * g + e;
              acc_dp[j] = acc_s[j] * (dropped(acc_dp[j], j) - (e % 2 ? dsum2[g].y : dsum2[g].x));  // (no scale: bwd90_scale_out)
            }
          }
        }
#pragma unroll
        for (int kk = 0; kk < kBlockM / 16; ++kk)
#pragma unroll
          for (int e = 0; e < 4; ++e) dsa[kk][e] = prim::pack2(acc_dp[8 * kk + 2 * e], acc_dp[8 * kk + 2 * e + 1], T());
        // dS (dsa's rounded values) into this warpgroup's panel of the step's dS buffer, as
        // [query][key], one stmatrix (four transposed 8 x 8 blocks) a k16 block (sds_stmatrix_offset),
        // before dK's GEMM takes dsa as its A operand (registers an issued wgmma reads are not to be
        // touched until it completes). The buffer's previous readers, the dQ GEMMs of step s - 2,
        // completed before either warpgroup arrived at step s - 1's barrier (kLag: they completed in
        // step s - 1, before its barrier too). The barrier of both warpgroups follows below.
        store_ds(s, cw, dsa);
        // dK += dS^T Q: one commit group (the schedule without lag: after dQ's, below).
        auto issue_dk = [&] {
          reg_fence(acc_dk);
          reg_fence(dsa);
          wgmma_fence();
#pragma unroll
          for (int kk = 0; kk < kBlockM / 16; ++kk)
            Wgmma<kD, T, 1>::rs(acc_dk, dsa[kk], desc_mn_major(sQ, C::kPanelQ, kk), 1);
          wgmma_commit();
        };
        if constexpr (kLag) issue_dk();

        // dS stored above: make it visible to wgmma (async proxy) reads, then the barrier of both
        // warpgroups.
        fence_proxy_async_shared();  // generic-proxy stores, then wgmma (async proxy) reads
        named_bar_sync(kBarDs, 256);

        if constexpr (kLag) {
          // dK of this step complete (dV already): Q and dO of the stage are no longer read (nor
          // LSE and D, read above), and dS^T's registers are free.
          wgmma_wait<0>();
          reg_fence(acc_dk);
          reg_fence(dsa);
          mbar_arrive(q_empty + st);
          prev_h = h;
          prev_m0 = m0;
          prev_rows = rows;
        } else {
          // dQ issued, then dK (it reads dS^T from registers and Q, neither of them dQ's): dV and
          // dQ complete, dQ stored while dK runs (session 46: dQ^T's 40 shared-memory stores a
          // thread had run with nothing of the warpgroup's in flight, ~460 of a d128 step's ~4950
          // cycles; dK after dQ: +0.6-2.6% at d128 2k-16k without a mask, even with it, +2.4-3.0%
          // with softcap), then dK complete: Q and dO of the stage no longer read (nor LSE and D,
          // read above), and dS^T's registers free.
          DqAcc acc_dq;
          issue_dq(s, acc_dq);
          issue_dk();
          wgmma_wait<1>();
          reg_fence(acc_dv);
          reg_fence(pa);
          fence_dq(acc_dq);
          store_dq(s, acc_dq, h, m0, rows);
          wgmma_wait<0>();
          reg_fence(acc_dk);
          reg_fence(dsa);
          mbar_arrive(q_empty + st);
        }
      }
    }
    if constexpr (kLag) {
      // The item's last step's dQ.
      if (steps > 0) {
        DqAcc acc_dq;
        issue_dq(gs - 1, acc_dq);
        wgmma_wait<0>();
        fence_dq(acc_dq);
        store_dq(gs - 1, acc_dq, prev_h, prev_m0, prev_rows);
      }
    }
    // Every GEMM reading the item's K and V has completed: the producer may load the next item's
    // (with dkdv_out, once dK and dV have left the tiles, below).
#ifdef FLASHATTN_SM90_TRACE
    trace_mark(P.trace, items - 1, 2, steps > 0);
#endif
    const bool dkdv_out = !C::kSplitD && P.dkdv_tma && steps > 0 && role != StreamKPiece::kPartial;
    if (!dkdv_out) {
      mbar_arrive(v_empty);
      mbar_arrive(kv_empty);
    }
    if (role == StreamKPiece::kPartial) {  // the tile's dK and dV are another CTA's to write
      save_partial();
#ifdef FLASHATTN_SM90_TRACE
      trace_item_end(P.trace, items - 1, true, uint32_t(trace_tile), role, steps);
#endif
      continue;
    }
    merge_partial();

    // Epilogue: dK (scaled through grad already, or here: bwd90_scale_out) and dV of this warpgroup's
    // keys of the sequence (kSplitD: warpgroup 0's dV, 1's dK, all columns).
    const float dk_scale = bwd90_scale_out<C, kExtras>() ? p.scale : 1.0f;
    if constexpr (!C::kSplitD) {
      if (dkdv_out) {
        // Into this warpgroup's 64 rows of the V tile (its own: dP^T read only them), then, once
        // both warpgroups are past their last GEMMs (dQ^T reads every row of K), of the K tile,
        // in the layout the TMA loads wrote (64-column panels, 128-byte swizzle), by stmatrix
        // (as the forward's O: blocks i = (row half i % 2, column tile 2 j + i / 2), lane l row
        // l % 8 of block l / 8); then fenced, out by TMA stores of the warpgroup's rows (rows
        // past seqlen_k and columns past head_dim clipped), and the tiles released to the
        // producer once the stores have read them.
        const int bi = lane / 8, rr = key0 + warp * 16 + (bi % 2) * 8 + lane % 8;
        auto to_tile = [&](int off, const float(&acc)[kNKV], float scale) {
#pragma unroll
          for (int j = 0; j < kD / 16; ++j) {
            const uint32_t regs[4] = {prim::pack2(acc[8 * j] * scale, acc[8 * j + 1] * scale, T()),
                                      prim::pack2(acc[8 * j + 2] * scale, acc[8 * j + 3] * scale, T()),
                                      prim::pack2(acc[8 * j + 4] * scale, acc[8 * j + 5] * scale, T()),
                                      prim::pack2(acc[8 * j + 6] * scale, acc[8 * j + 7] * scale, T())};
            prim::stmatrix_x4(smem_addr(smem + off) + swizzled_offset(rr, (2 * j + bi / 2) * 8, C::kPanelKV), regs);
          }
        };
        const int k_row = int(seq.row_begin_k) + n0 + key0;
        auto store_rows = [&](const CUtensorMap* map, int off) {
#pragma unroll
          for (int pn = 0; pn < C::kPanels; ++pn)
            tma_store_4d(map, smem + off + pn * C::kPanelKV + key0 * 128, pn * 64, k_row, hk, kb);
        };
        to_tile(C::kOffV, acc_dv, 1.0f);
        if (P.dv_early) {
          // dV's rows out before the barrier: they drain while the other warpgroup finishes
          // and dK goes into the K tile.
          fence_proxy_async_shared();
          split_bar();
          if (tid == 0) {
            store_rows(&P.tma_dv, C::kOffV);
            bulk_commit();
          }
        }
        named_bar_sync(kBarOut, 256);
#ifdef FLASHATTN_SM90_TRACE
        trace_mark(P.trace, items - 1, 3, true);
#endif
        to_tile(C::kOffK, acc_dk, dk_scale);
        fence_proxy_async_shared();  // the st.shared above, then the TMA (async proxy) reads
        split_bar();
        if (tid == 0) {
          store_rows(&P.tma_dk, C::kOffK);
          if (!P.dv_early) store_rows(&P.tma_dv, C::kOffV);
          bulk_commit();
          // The warpgroup's rows of V free for the next item's load (its GEMMs' reads completed
          // before the barrier above; its stmatrix writes were read by the stores): dV's group
          // is the older one with dv_early.
          if (P.dv_early) {
            bulk_wait_read<1>();
            mbar_arrive(v_empty, 128);
          }
          bulk_wait_read();
          if (!P.dv_early) mbar_arrive(v_empty, 128);
#ifdef FLASHATTN_SM90_TRACE
          trace_mark(P.trace, items - 1, 4, true);
#endif
        }
        split_bar();
        mbar_arrive(kv_empty);
#ifdef FLASHATTN_SM90_TRACE
        trace_item_end(P.trace, items - 1, true, uint32_t(trace_tile), role, steps);
#endif
        continue;
      }
    }
    T* gdK = static_cast<T*>(bp.dk.data) + b * bp.dk.batch_stride + (seq.row_begin_k + n0 + key0) * bp.dk.row_stride +
             hk * bp.dk.head_stride;
    T* gdV = static_cast<T*>(bp.dv.data) + b * bp.dv.batch_stride + (seq.row_begin_k + n0 + key0) * bp.dv.row_stride +
             hk * bp.dv.head_stride;
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const int kr = kr0 + hf * 8;
      const bool live = key0 + kr < cols;  // a key of the sequence
      // One row's kD columns as 16-byte stores (prim::store_quad_tiles, in every lane: a warp's
      // quads are different keys). head_dim is a multiple of 8 here; dk and dv are 16-byte aligned
      // (sm90_bwd_eligible's tma_ok).
      auto store = [&](T* row, const float(&acc)[kNKV], float scale) {
#pragma unroll
        for (int j = 0; j < kD / 32; ++j) {
          uint32_t w[4];
#pragma unroll
          for (int c = 0; c < 4; ++c)
            w[c] = prim::pack2(acc[4 * (4 * j + c) + 2 * hf] * scale, acc[4 * (4 * j + c) + 2 * hf + 1] * scale, T());
          prim::store_quad_tiles(row, 32 * j, w, tq, live, p.head_dim);
        }
      };
      if constexpr (C::kSplitD) {
        if (cw == 0) store(gdV + kr * bp.dv.row_stride, acc_dv, 1.0f);
        else store(gdK + kr * bp.dk.row_stride, acc_dv, dk_scale);
      } else {
        store(gdK + kr * bp.dk.row_stride, acc_dk, dk_scale);
        store(gdV + kr * bp.dv.row_stride, acc_dv, 1.0f);
      }
    }
#ifdef FLASHATTN_SM90_TRACE
    trace_item_end(P.trace, items - 1, true, uint32_t(trace_tile), role, steps);
#endif
  }
  // dkdv_tma: the TMA stores complete before the CTA's shared memory goes.
  if (!C::kSplitD && P.dkdv_tma && tid == 0) bulk_wait();
#ifdef FLASHATTN_SM90_TRACE
  {
    bool pred;
    BwdTraceRec* r = trace_rec(P.trace, 0, &pred);
    trace_st(&r->t_end, trace_globaltimer(), pred);
    trace_st(&r->steps, uint32_t(items - 1), pred);
  }
#endif
}

}  // namespace flashattn::cuda::sm90
