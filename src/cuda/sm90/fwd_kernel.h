// Forward kernel of the sm90 path (Hopper, sm_90a): TMA brings each tile's Q once and K/V tiles
// into a kStages-deep shared-memory ring completing on mbarriers; wgmma computes S = Q K^T (both
// operands from shared memory) and O += P V (P from registers, V read N-major). Warp
// specialization: warpgroup 0 is the producer (one thread decodes each tile into a record in shared
// memory and issues every TMA copy, the group gives its registers up with setmaxnreg), the other 2
// (or 3) warpgroups consume 64 query rows each.
// The softmax, mask, score modifiers and dropout are the ones of src/semantics, applied exactly
// as the sm80 kernel applies them (scores in log2 units, exp2, the same finalize).
//
// Scheduling inside a consumer warpgroup: S_{i+1} = Q K_{i+1}^T and P_i V_i are in flight on
// the tensor cores while the softmax of S_{i+1} runs; between the consumer warpgroups:
// ping-pong (named barriers), so one's softmax runs while another's GEMMs hold the tensor
// cores (FwdParams90::pingpong; FLASHATTN_SM90_PINGPONG=0 turns it off for comparison).
// Validated on the H200 (bench/NOTES.md, session 4): tests/cuda/test_sm90.cc,
// tests/cuda/sm90_probe.cu (TMA, the S and the P V stages in isolation).
#pragma once

#include <cuda.h>

#include <cmath>
#include <type_traits>

#include "cuda/prim/ldmatrix.h"
#include "cuda/prim/math.h"
#include "cuda/sm80/params.h"
#include "cuda/sm90/config.h"
#include "cuda/sm90/prim.h"
#include "cuda/sm90/streamk.h"
#include "cuda/sm90/wgmma_ops.h"
#include "semantics/mask.h"
#include "semantics/score_mod.h"
#include "semantics/softmax.h"

namespace flashattn::cuda::sm90 {

#ifdef FLASHATTN_SM90_TRACE
// Diagnostic timeline, compiled only with -DFLASHATTN_SM90_TRACE (a measurement build, never the
// library's; bench/gpu/fwd_trace.sh): the first kTraceCtas CTAs record, per tile, the SM clock
// (cycles since the role started) at fixed points of the producer (role 0) and of each consumer
// warpgroup's thread 0 (role 1 + warpgroup) into FwdParams90::trace; the launcher prints them
// after the kernel (launch.cu), one line a tile: "T cta role tile e0 e1 e2 e3 e4 n_count e6 e7".
// Producer: before Q's slot wait, Q issued, the tile's first K and V issued, its last issued.
// Consumer: tile start and Q landed (both at q_full: the tile's record is read there), S_0 landed, the last P V landed, epilogue done, n_count, and
// inside the epilogue: finish() done, O written (thread 0 past write_out's stores and barriers);
// then the tile's cycles summed over its waits: for the ping-pong turn, for K and V to land, and
// for its own wgmma groups (wgmma_wait).
constexpr int kTraceCtas = 4, kTraceRoles = 4, kTraceTiles = 64, kTraceEvents = 11;
constexpr int kTraceWords = kTraceCtas * kTraceRoles * kTraceTiles * kTraceEvents;
// After them, every CTA's span (the first kTraceSpanCtas CTAs) in %globaltimer ns (one clock for
// all SMs; its low 32 bits): the CTA's start, the producer's end, each consumer warpgroup's end
// (past its last TMA store), and its work items: "S cta start end0 end1 end2 end3 items".
constexpr int kTraceSpanCtas = 1024, kTraceSpanWords = 6;
constexpr int kTraceAllWords = kTraceWords + kTraceSpanCtas * kTraceSpanWords;
__device__ __forceinline__ uint32_t trace_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return uint32_t(t);
}
#endif

using sm80::FwdParams;
using sm80::kLn2;
using sm80::kLog2e;
using sm80::SeqInfo;

// FwdParams90's measured switches and their defaults, X(name, default), listed once (each decided
// by an A/B in bench/NOTES.md; launch.cu reads each from its FLASHATTN_SM90_* knob, the default
// when unset): fwd90_default and fwd90_switched below expand it. The kernel reads a switch through
// FA_SWITCH(name): the field in the build with kSwitches, the default compiled in without. Every
// tier has both builds and launches the one with the defaults unless some switch is off its
// default: the paths a switch turns off cost the default path's code where they are compiled in
// (session 38, H100, in one binary: +2-6%, head_dim 64 causal 512 +5.9%, 128 8k +3.3%, for 5
// fewer instructions of a 621-675 instruction main loop; session 40 at tiers 96, 192, 256: +1.4-3.9%
// at d96, +0.6-2.1% at d192, -0.2 to +1.7% at d256).
#define FA_SM90_FWD_SWITCHES(X)                                                                 \
  X(out_vec16, 1) X(out_stsm, 1) X(pingpong, 1) X(skip_masked, 1) X(fast_finish, 1) X(early_s0, 0) \
  X(skip_rescale, 0) X(q_buffers, 2) X(skip_idle, 1)
namespace fwd90_default {
#define FA_DEFAULT(name, value) constexpr int name = value;
FA_SM90_FWD_SWITCHES(FA_DEFAULT)
#undef FA_DEFAULT
}  // namespace fwd90_default

struct FwdParams90 {
  FwdParams p;
  // q, k, v (and out) as 4-D tensors (head_dim, rows, heads, batch), boxes of 64 columns, 128-byte swizzle.
  CUtensorMap tma_q, tma_k, tma_v, tma_o;
  // The epilogue writes O through shared memory with TMA stores (tma_o: boxes of 64 rows), where
  // the tier's shared memory has room (Fwd90Config::kStoreO) and the batch is not varlen.
  int store_o = 0;
  // Otherwise O's rows go out from registers: as 16-byte vectors (out_vec16, the default), or as
  // 4-byte column pairs.
  int out_vec16 = fwd90_default::out_vec16;
  // With TMA stores: O into the shared tile by stmatrix (four 8 x 8 blocks an instruction: 8 a
  // thread at head_dim 128 instead of 32 4-byte stores), else one 4-byte store a column pair.
  int out_stsm = fwd90_default::out_stsm;
  // The consumer warpgroups take turns issuing their GEMMs (named barriers 1 .. consumers), so
  // one's softmax runs while another's GEMMs hold the tensor cores.
  int pingpong = fwd90_default::pingpong;
  // Live warpgroups skip the key blocks at the start of a tile's walk that their rows do not see
  // (config.h fwd90_skip_blocks; only with ping-pong).
  int skip_masked = fwd90_default::skip_masked;
  // The epilogue's row normalizer and LSE by rcp.approx and lg2.approx (two MUFU instructions a
  // row) instead of the shared semantics' IEEE division and logf (~90 instructions a thread a
  // tile). FLASHATTN_SM90_FAST_FINISH=0 turns it off (launch.cu).
  int fast_finish = fwd90_default::fast_finish;
  // A warpgroup issues its tile's first S (S_0) and computes its softmax before its S_0 turn
  // (then an empty turn) where that is safe: it waited on the ring's last kStages uses itself, so
  // the stage's previous phase has completed (tools/pingpong_model.py --early-s0; without the
  // condition a warpgroup idle in the last tile would pass a stale parity wait). Session 37's
  // profile of d64 512 causal: 10.5% of the samples in the S_0 turn's wait at the tile start.
  // FLASHATTN_SM90_EARLY_S0=1; off until measured.
  int early_s0 = fwd90_default::early_s0;
  // Skip O's rescale where no row of the warp got a new maximum (every alpha exactly 1: the
  // product would be O unchanged, so the result is bit-identical). FLASHATTN_SM90_SKIP_RESCALE=1;
  // off: session 13 measured no gain beyond the run-to-run spread (bench/NOTES.md).
  int skip_rescale = fwd90_default::skip_rescale;
  // Which key-block size of the tier runs (config.h fwd90_block_n): 0 default, 1 alternative.
  int alt = 0;
  // Three consumer warpgroups (192-row tiles) where the tier has them (config.h fwd90_consumers);
  // their configuration has the default key block only.
  int three_consumers = 0;
  // Dropout without a score modifier at head_dim 64 / 128 on the plain kernel with dropout (kDrop,
  // fwd90_has_drop_kernel) instead of the kernel with extras; FLASHATTN_SM90_FWD_DROP=0 turns it off.
  int drop_kernel = 1;
  // Softcap alone on the plain kernel with softcap (kCap, fwd90_cap_call) at the tier's default
  // key block instead of the kernel with extras; FLASHATTN_SM90_FWD_CAP=0 turns it off. (launch.cu
  // packs GQA heads for it as for the plain kernel: the two choices must agree.)
  int cap_kernel = 1;
  // Two Q buffers where the configuration has them (Fwd90Config::kQBuffers): the next tile's Q
  // loads while this one runs. FLASHATTN_SM90_Q_PREFETCH=0 keeps one (for comparisons).
  int q_buffers = fwd90_default::q_buffers;
  // Consumer warpgroups without a query row in a tile skip its key blocks, with ping-pong only
  // (config.h fwd90_live_consumers; a 192-row tile at 512 queries has 128 rows: a third of its GEMM
  // work was padding). Session 35 (H100): +2.7% at head_dim 64 causal 2k, even elsewhere.
  // FLASHATTN_SM90_SKIP_IDLE=0 turns it off (comparisons; Sm90.SkipIdleSameBytes).
  int skip_idle = fwd90_default::skip_idle;
  // FLASHATTN_SM90_SWITCHED=1: the build that reads the switches (kSwitches) even with every
  // switch at its default (its tests and A/Bs); launch.h takes it too where fwd90_switched.
  int switched = 0;
  // The tile the host built the tensor maps for (rows of Q, keys of K/V): the launcher checks it
  // against the configuration it picks, since boxes of another size would never complete a stage.
  int block_m = 0, block_n = 0;
  // GQA packing: the tile's kBlockM rows are `pack` query heads of one KV group (consecutive
  // heads, pack divides the group) times kBlockM / pack query rows each, so short queries (decoding,
  // small chunks) still fill the tile; tma_q's boxes are (kBlockM / pack rows, pack heads). Only
  // for the plain kernel (no score modifier, no dropout: their per-head state is per tile).
  int pack = 1;
  // Causal tile order in head groups (config.h TileMap90): the tiles of group_heads (batch,
  // head) pairs at a time, longest first within the group, so that several tiles of each head in
  // flight share its K/V in L2; 0: one group (every head's longest tile first). The launcher
  // decides (launch.cu).
  int group_heads = 0;
  // The tile sequence (config.h; built by the launcher from group_heads and the problem), and the
  // divisors of a pair index by the head packs of a batch entry (num_heads / pack) and of a
  // packed tile's row by its head's rows (kBlockM / pack).
  TileMap90 tiles;
  FastDiv heads_div, rows_div;
  // Persistent grid: min(tiles, sm_count) CTAs walk the tiles; else one CTA a tile.
  int persistent = 0;
  int sm_count = 0;
  // The last rounds as stream-K (streamk.h; plan width 0: off): the pieces' slots hold, per
  // consumer warpgroup, 128 threads' O, row maxima and row sums as float4s, thread fastest; a flag
  // a consumer warpgroup. The launcher decides (launch.cu).
  StreamKLaunch sk;
  // Dynamic whole tiles (a persistent grid): a CTA's first tile is blockIdx.x and each next one
  // gridDim.x + a ticket, an atomic count, so the CTAs of faster SMs take more tiles (session 49's
  // trace: the CTAs of a launch differ by up to 7% a tile, the same CTAs in every launch). A
  // second producer thread takes each ticket when the producer asks, near its current item's
  // last key-block loads (session 50: taken a tile ahead they lost 3-4% at causal 1k-2k).
  // tile_tickets: 16 bytes nobody clears, a flag (tile_tickets[0], set to tile_epoch, unique per
  // launch, once the count is zeroed) and the count (tile_tickets[1]). Null: the static rounds
  // (StreamK::round_tile). A stream-K tail stays static after them. The launcher decides (launch.cu:
  // on by default at every length since session 52; FLASHATTN_SM90_DYNAMIC forces either).
  unsigned long long* tile_tickets = nullptr;
  unsigned long long tile_epoch = 0;
  // ALiBi alone on the plain kernel with ALiBi (kAlibi, fwd90_alibi_call) at tiers 64 and 128's
  // default key block instead of the kernel with extras; FLASHATTN_SM90_FWD_ALIBI=0 turns it off.
  // (No GQA packing: a slope a head.) (Last: a field inserted before the others' moves their
  // parameter offsets, and every kernel's code with them.)
  int alibi_kernel = 1;
  // A cluster of two CTAs on pairs of query blocks of one head, each CTA loading half of every K
  // and V block's rows into both CTAs' stage by TMA multicast (fwd_kernel kCluster): half the K/V
  // bytes an SM takes from L2 (bench/NOTES.md session 62: half of them measured +3.5-4.4%
  // sustained at d128). The launcher decides (launch.cu: by default head_dim 128 and 256 over 512
  // keys, causal over 1024, a left window over 2048 of its keys); tma_k / tma_v are then built
  // with boxes of block_n / 2 rows.
  int cluster = 0;
#ifdef FLASHATTN_SM90_TRACE
  uint32_t* trace = nullptr;  // kTraceWords (above)
#endif
};

// Whether a call takes the build that reads the switches (launch.h): FLASHATTN_SM90_SWITCHED=1, or
// any measured switch of P off its default.
inline bool fwd90_switched(const FwdParams90& P) {
  bool off = P.switched != 0;
#define FA_OFF(name, value) off = off || P.name != value;
  FA_SM90_FWD_SWITCHES(FA_OFF)
#undef FA_OFF
  return off;
}

// The plain kernel (kExtras = false) runs problems without score modifiers and dropout and with a
// positive scale (it folds the scale into the exponent, which keeps the max only for scale > 0).
inline bool fwd90_plain_scores(const FwdParams& p) { return !p.has_score_mod && p.scale_log2 > 0.0f; }
inline bool fwd90_plain(const FwdParams& p) { return fwd90_plain_scores(p) && !p.dropout.enabled(); }
// The plain kernel with dropout (kDrop): the plain kernel's scores (fwd90_plain_scores) with the
// keep bits drawn and applied as in the kernel with extras, at head_dim 64 and 128 (dropout's
// usual training tiers) on their default tile with two consumers; elsewhere dropout takes the
// kernel with extras. It keeps the plain kernel's raw-dot softmax (one FFMA an exponent instead
// of a multiply and an add) and leaves out the modifiers' code and registers.
template <typename C>
constexpr bool fwd90_has_drop_kernel() {
  return (C::kD == 64 || C::kD == 128) && C::kDv == C::kD && C::kConsumers == 2 && C::kBlockN == fwd90_block_n(C::kD);
}

// The plain kernel with softcap (kCap): softcap alone (no ALiBi, no dropout; any scale) on the
// plain kernel's schedule, at every tier's default key block (fwd90_has_cap_kernel). Each score
// is tanh(dot * softcap_in) until the exponent, where softcap_out = softcap log2(e) (> 0: the
// maximum over the tanh values scales with it) takes the place of scale_log2: exp2(t softcap_out
// - max) is one FFMA, so an element costs the plain kernel's work plus one multiply and one
// MUFU.TANH. The kernel with extras spent ~1600 instructions a key block at head_dim 128 (its
// modifiers, ALiBi's test, the dropout code, S by SS) where the plain kernel spends ~650.
// FLASHATTN_SM90_FWD_CAP=0 sends softcap to the kernel with extras (comparisons).
//
// Whether a tier's configuration on block_n keys has kCap (its default key block), and whether a
// call takes kCap there: one rule for the launcher's GQA packing (launch.cu, before the kernel is
// picked; the switches read before it) and the pick (launch.h), which must agree (the kernel with
// extras takes no packing). kCap has only the build with the switches' defaults compiled in (half
// the compile time of both builds): a switch off its default sends softcap to the kernel with extras.
constexpr bool fwd90_default_block(int head_dim_tier, int block_n) { return block_n == fwd90_block_n(head_dim_tier); }
template <typename C>
constexpr bool fwd90_has_cap_kernel() {
  return fwd90_default_block(C::kD, C::kBlockN);
}
inline bool fwd90_cap_call(const FwdParams90& P) {
  return P.cap_kernel != 0 && sm80::softcap_alone(P.p) && !fwd90_switched(P);
}
inline bool fwd90_takes_cap(const FwdParams90& P, int head_dim_tier, int block_n) {
  return fwd90_cap_call(P) && fwd90_default_block(head_dim_tier, block_n);
}
// The plain kernel with ALiBi (kAlibi): ALiBi alone (no softcap, no dropout; scale >= 2^-20,
// sm80::alibi_alone) on the plain kernel's schedule at tiers 64 and 128 (ALiBi's models'
// head_dims), their default key block, the switches' defaults; one head a tile (a slope a head: no
// GQA packing). The bias joins the raw dot in raw-dot units, dot - (slope / scale) |i + diag - j|
// (ScoreMod::alibi_per_dot; the distance a row's base minus a constant), so the maximum and the
// exponent's FFMA stay the plain kernel's (a positive scale keeps the order): an element costs
// one add and one multiply-add more. (In log2 units, as the kernel with extras, it cost a
// multiply more: 820 loop instructions at head_dim 64 against 757.) FLASHATTN_SM90_FWD_ALIBI=0
// sends ALiBi to the kernel with extras.
constexpr bool fwd90_alibi_tier(int head_dim_tier) { return head_dim_tier == 64 || head_dim_tier == 128; }
template <typename C>
constexpr bool fwd90_has_alibi_kernel() {
  return fwd90_alibi_tier(C::kD) && C::kDv == C::kD && fwd90_default_block(C::kD, C::kBlockN);
}
inline bool fwd90_alibi_call(const FwdParams90& P, int head_dim_tier) {
  return P.alibi_kernel != 0 && sm80::alibi_alone(P.p) && fwd90_alibi_tier(head_dim_tier) && !fwd90_switched(P);
}
inline bool fwd90_takes_alibi(const FwdParams90& P, int head_dim_tier, int block_n) {
  return fwd90_alibi_call(P, head_dim_tier) && fwd90_default_block(head_dim_tier, block_n);
}

// The plain kernel in a cluster of two with K/V multicast (kCluster, FwdParams90::cluster): head_dim
// 128 and 256 on two consumers (every key block: a half of 88, 64, 40 or 32 rows keeps the panels'
// 1024-byte swizzle alignment, eight 128-byte rows).
template <typename C>
FA_HD constexpr bool fwd90_has_cluster_kernel() {
  return (C::kD == 128 || C::kD == 256) && C::kDv == C::kD && C::kConsumers == 2 && (C::kBlockN / 2) % 8 == 0;
}

template <typename T, typename C, bool kExtras, bool kDrop = false, bool kSwitches = false, bool kCap = false,
          bool kAlibi = false, bool kCluster = false>
__global__ void __launch_bounds__(C::kThreads, 1) fwd_kernel(const __grid_constant__ FwdParams90 P) {
  static_assert(!(kExtras && kDrop), "kDrop is the plain kernel with dropout");
  static_assert(!kCluster || (!kExtras && !kDrop && !kSwitches && !kCap && !kAlibi && fwd90_has_cluster_kernel<C>()),
                "kCluster: the plain kernel's default build (fwd90_has_cluster_kernel)");
  static_assert(!kCluster || C::kConsumers == 2, "kCluster: two consumer warpgroups (fwd90_trail_field)");
  static_assert(!(kCap && (kExtras || kDrop)), "kCap is the plain kernel with softcap alone");
  static_assert(!(kAlibi && (kExtras || kDrop || kCap)), "kAlibi is the plain kernel with ALiBi alone");
  constexpr bool kDropout = kExtras || kDrop;  // the dropout code is compiled in
  constexpr int kD = C::kD, kBlockM = C::kBlockM, kBlockN = C::kBlockN, kStages = C::kStages;
  // Tile tickets: the next is asked for this many key blocks before an item's last load.
  constexpr int kTicketLead = 1;
  constexpr int kNS = kBlockN / 2;  // S accumulator floats a thread (m64 x kBlockN / 128)
  constexpr int kDv = C::kDv;
  constexpr int kNO = kDv / 2;      // O accumulator floats a thread
  // Q as wgmma A fragments in registers (kD / 4 a thread), loaded by ldmatrix at the tile's start:
  // S = Q K^T reads only K from shared memory (of a k16 step's 6 KB, Q's 2 KB were re-read every
  // key block) and Q's buffer is released at once. Plain kernels with two consumers up to head_dim
  // 128 (three consumers at 64 and the 176-key alternative at 128 spill with it: tools/sass_report.py;
  // the kernel with extras measured -0.7 to -1.3% with it, session 54).
  constexpr bool kQRegs = !kExtras && C::kConsumers == 2 && kD <= 128 && (kD <= 64 || kBlockN <= 128);
  const FwdParams& p = P.p;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  // TMA's 128-byte swizzle and the wgmma descriptors need 1024-byte aligned panels.
  unsigned char* smem = smem_align1024(smem_raw);
  uint64_t* bar = reinterpret_cast<uint64_t*>(smem + C::kOffBar);
  uint64_t* q_full = bar;       // per Q buffer
  uint64_t* q_empty = bar + 2;  // per Q buffer: it may be overwritten (a later tile's Q)
  uint64_t* k_full = bar + 4;
  uint64_t* v_full = k_full + kStages;
  uint64_t* k_empty = v_full + kStages;
  uint64_t* v_empty = k_empty + kStages;

#ifdef FLASHATTN_SM90_TRACE
  const long long trace_t0 = clock64();
  // The CTA's span (kTraceSpanCtas above): word w of its record.
  auto trace_span = [&](int w, uint32_t v) {
    if (P.trace != nullptr && blockIdx.x < kTraceSpanCtas)
      P.trace[kTraceWords + blockIdx.x * kTraceSpanWords + w] = v;
  };
  if (threadIdx.x == 0) trace_span(0, trace_ns());
  auto trace = [&](int role, int tile, int ev, uint32_t v = 0xffffffffu) {
    if (P.trace != nullptr && blockIdx.x < kTraceCtas && tile < kTraceTiles)
      P.trace[((blockIdx.x * kTraceRoles + role) * kTraceTiles + tile) * kTraceEvents + ev] =
          v != 0xffffffffu ? v : uint32_t(clock64() - trace_t0);
  };
#define FA_TRACE(...) trace(__VA_ARGS__)
#define FA_TRACE_SPAN(...) trace_span(__VA_ARGS__)
  long long trace_wait[3] = {0, 0, 0};  // the current tile's cycles waiting: turn, K/V, wgmma
#define FA_WAIT(k, ...)                          \
  do {                                           \
    const long long tw0_ = clock64();            \
    __VA_ARGS__;                                 \
    trace_wait[k] += clock64() - tw0_;           \
  } while (0)
#else
#define FA_TRACE(...) ((void)0)
#define FA_TRACE_SPAN(...) ((void)0)
#define FA_WAIT(k, ...) __VA_ARGS__
#endif
  // A measured switch: P's field, or its default compiled in (fwd90_default).
#define FA_SWITCH(name) (kSwitches ? P.name : fwd90_default::name)
  const int pack = kDropout ? 1 : P.pack;      // query heads per tile
  const int rows_per_head = kBlockM / pack;     // query rows of each head in the tile
  const int heads_t = p.num_heads / pack;       // head packs per batch entry
  const int64_t bh_count = int64_t(p.batch) * heads_t;
  const int64_t num_tiles = bh_count * p.num_m_blocks;
  // Consumer warpgroups with a query row in a tile of `rows` rows (the others skip it; config.h).
  // Only with ping-pong: a warpgroup live again after skipping a tile waits on K/V phases it did not
  // see, which is sound only while another warpgroup has seen the earlier ones first (its turn comes
  // after theirs). Without turns it could run two phases behind a stage and pass its parity wait on
  // the older phase (stale K/V; session 35's review).
  auto live_consumers = [&](int rows) {
    return fwd90_live_consumers(C::kConsumers, rows, FA_SWITCH(skip_idle) != 0 && FA_SWITCH(pingpong) != 0 && pack == 1);
  };
  // Live warpgroups skip the key blocks at the start of a tile's walk that their rows do not see
  // (config.h fwd90_skip_blocks; unpacked tiles, with the turns, for the same reason as above).
  const bool skip_masked = FA_SWITCH(skip_masked) != 0 && FA_SWITCH(pingpong) != 0 && pack == 1;
  // The work items' records (config.h TileInfo90): the producer decodes each item once and writes
  // its record to slot j % kTileInfos (j: the CTA's j-th item) before the item's Q load completes
  // q_full; the consumers read it after their wait on q_full. Slot reuse: record j is written after
  // the wait for Q buffer j % q_bufs's release by item j - q_bufs, which every consumer thread gives
  // (an arrival each) after its last read of records up to j - q_bufs - 1 (the epilogue's fields are
  // copied out in finish()), so slot j % kTileInfos is free with kTileInfos > q_bufs + 1. (A
  // static array: its fields' addresses are constants, where a pointer into the dynamic shared
  // memory took registers in the consumers' loop, session 33.)
  __shared__ TileInfo90 infos[C::kTileInfos];
  // The tile tickets' handoff (FwdParams90::tile_tickets; config.h counts its 32 bytes): producer
  // thread 32 takes ticket k from global memory on the producer's (thread 0's) request k and puts
  // it in the slot (in thread 0 the atomic spilled the 24-register producer). kCluster: a ticket
  // is a pair's, taken by rank 0's thread 32 on both producers' requests (rank 1's a remote
  // arrival) and put in both CTAs' slots.
  __shared__ uint64_t ticket_bar[2];  // full, request
  __shared__ int ticket_slot;

  if (threadIdx.x == 0) {
    for (int j = 0; j < 2; ++j) {
      mbar_init(q_full + j, 1);
      mbar_init(q_empty + j, 128 * C::kConsumers);  // every consumer thread (compute-sanitizer's racecheck follows each thread's own arrival)
    }
    for (int s = 0; s < kStages; ++s) {
      mbar_init(k_full + s, 1);
      mbar_init(v_full + s, 1);
      // One arrival per consumer warpgroup (kCluster: the peer's too, since either CTA's loads
      // write both CTAs' stage).
      mbar_init(k_empty + s, C::kConsumers * (kCluster ? 2 : 1));
      mbar_init(v_empty + s, C::kConsumers * (kCluster ? 2 : 1));
    }
    mbar_init(ticket_bar, 1);
    mbar_init(ticket_bar + 1, kCluster ? 2 : 1);
    fence_barrier_init();
  }
  // kCluster: the peer's barriers are initialized before any load or arrival reaches them.
  if constexpr (kCluster) cluster_sync();
  else __syncthreads();

  // Q buffers: a CTA's j-th tile takes buffer j % q_bufs.
  const int q_bufs = C::kQBuffers == 2 && FA_SWITCH(q_buffers) == 2 ? 2 : 1;
  // The warpgroup, broadcast from lane 0: warp-uniform to the compiler (from threadIdx.x it is not,
  // and what derives from it, the ping-pong turns and the ring counters, left the uniform datapath:
  // +26 instructions a key block, session 34).
  const int wg = __shfl_sync(~0u, int(threadIdx.x) / 128, 0);
  if (wg == 0) {
    // ---------------- producer ----------------
#ifndef FLASHATTN_SM90_NO_REGREALLOC  // diagnostic switch: build without register reallocation
    regs_dealloc<C::kProducerRegs>();
#endif
    // The schedule's units: tiles on CTAs, or kCluster pairs of tiles (2 q, 2 q + 1: one head's
    // query blocks in a row, an even number of them, launch.cu) on clusters, rank r taking tile
    // 2 q + r of each pair, so that both CTAs walk the same key blocks (the tickets, the static
    // rounds and the stream-K tail's pieces below are all the pairs' on kCluster).
    auto units = [] { return kCluster ? int(cluster_count_x()) : int(gridDim.x); };
    // This CTA's unit in the first round (blockIdx.x through a volatile read: what derives from it
    // is not held in registers across the tile loop; session 27's spills).
    auto unit = [] { return kCluster ? cluster_id_x() : ctaid_x(); };
    // Whole units by ticket: those of the rounds before a stream-K tail, [0, dp_rounds * units)
    // (past the last unit where there is no tail: the producer skips those). Ints: the launcher
    // takes tickets below 2^30 tiles only (launch.cu).
    const auto ticket_end = [&] { return P.sk.plan.dp_rounds * units(); };
    // This producer's request for its next ticket (kCluster: at rank 0's server).
    auto request_ticket = [&] {
      if constexpr (kCluster) mbar_arrive_cluster(ticket_bar + 1, 0);
      else mbar_arrive(ticket_bar + 1);
    };
    if (__shfl_sync(~0u, int(threadIdx.x) / 32, 0) == 1) {
      // The tickets' server, lane 0 of warp 1 (a warp-uniform branch: as a branch on thread 32
      // beside thread 0's, ptxas spilled the 24-register producer): ticket k into the slot (full's
      // phase k) on the producer's request k (request's phase k: the producer asks kTicketLead key
      // blocks before its current item's last load, so a CTA claims its next tile late, session 50:
      // claimed a tile and more ahead, the causal grids' longest-first tiles balanced worse than
      // the static snake); the first past the whole tiles is the last. The counter
      // (tile_tickets[1]) is nobody's to clear: CTA 0 zeroes it and then sets the flag
      // (tile_tickets[0]) to this launch's epoch; the others wait for the flag before their first
      // ticket (in practice long set: they ask a tile after their start, and CTA 0 is dispatched
      // first).
      // No whole rounds before a stream-K tail (ticket_end() 0): no CTA asks for a ticket.
      // kCluster: rank 0 serves, on both producers' requests (so rank 1 has read the previous
      // ticket), into both slots.
      if (threadIdx.x == 32 && P.tile_tickets != nullptr && ticket_end() > 0 && (!kCluster || cluster_rank() == 0)) {
        int* count = reinterpret_cast<int*>(P.tile_tickets + 1);
        if (ctaid_x() == 0) {
          *count = 0;
          st_release_gpu(P.tile_tickets, P.tile_epoch);
        }
        while (ld_acquire_gpu(P.tile_tickets) != P.tile_epoch) __nanosleep(256);
        for (int k = 0;; ++k) {
          mbar_wait_idle(ticket_bar + 1, uint32_t(k) & 1);
          const int t = units() + atomicAdd(count, 1);
          ticket_slot = t;
          mbar_arrive(ticket_bar);
          if constexpr (kCluster) st_arrive_cluster(&ticket_slot, t, ticket_bar, 1);
          if (t >= ticket_end()) break;
        }
      }
      return;
    }
    if (threadIdx.x == 0) {
      // Tiles (query block, batch, head): a persistent grid walks them in rounds of gridDim.x in a
      // snake (config.h StreamK::round_tile; 16k causal with plain striding: CTA 0 had 14% more
      // work than the last), then the pieces of a stream-K tail where the launcher planned one
      // (FwdParams90::sk). The launcher's grid is min(tiles, SMs) with FwdParams90::persistent,
      // else one CTA a tile and one round. The order of the tiles: config.h TileMap90.
      TileInfo90 cur{};
      int hk = 0, kb = 0, k_row0 = 0;  // the K/V coordinates of the item in cur
      // Decodes tile t into cur; false when its query block is past its sequence.
      auto load_tile = [&](int64_t t) {
        Tile90 tile = P.tiles(t);
        if constexpr (kCluster) tile.m_block = 2 * tile.m_block + int(cluster_rank());  // (t: the pair)
        cur.b = int(P.heads_div.div(uint32_t(tile.bh)));
        cur.h = (tile.bh - cur.b * heads_t) * pack;  // the tile's first query head
        const SeqInfo seq(p, cur.b);
        cur.m0 = tile.m_block * rows_per_head;  // rows: the query rows m0 .. m0 + rows - 1 (of each head)
        if (cur.m0 >= seq.seqlen_q) return false;
        cur.rows = min(rows_per_head, seq.seqlen_q - cur.m0);
        hk = cur.h / p.group;
        const semantics::Mask mask =
            semantics::make_mask(seq.seqlen_q, seq.seqlen_k, p.window_left, p.window_right, p.causal);
        int key_lo, key_hi;
        mask.key_range(cur.m0, cur.m0 + cur.rows, &key_lo, &key_hi);
        const int n_lo = key_lo / kBlockN;
        cur.n_hi = key_hi > key_lo ? (key_hi + kBlockN - 1) / kBlockN : n_lo;
        cur.n_count = cur.n_hi - n_lo;
        mask.common_key_range(cur.m0, cur.m0 + cur.rows, &cur.all_lo, &cur.all_hi);
        // The key blocks each live warpgroup but the last skips (config.h fwd90_skip_blocks), only
        // with turns (two or more live warpgroups, ping-pong on).
        cur.skip = 0;
        const int live = live_consumers(cur.rows);
        if (skip_masked && live > 1)
          for (int w = 0; w + 1 < live; ++w) {
            int lo, hi;
            mask.key_range(cur.m0 + 64 * w, cur.m0 + 64 * w + 64, &lo, &hi);
            cur.skip |= fwd90_skip_field(fwd90_skip_blocks(cur.n_hi, cur.n_count, lo, hi, kBlockN), w);
          }
        if constexpr (kCluster) {
          // Both CTAs walk the pair's key blocks: the union of its two tiles' (rank 1's rows see
          // the highest keys, rank 0's the lowest). The blocks at the start of the walk that this
          // tile's rows do not see (rank 0's past its diagonal, or all where its rows see none)
          // every warpgroup passes over first: skips (waiting on the blocks' K and V and releasing
          // them, below), added to its own. Without turns (never: rank 0's tiles have both
          // warpgroups live) they would be computed, masked. Under a window the blocks at the end
          // of the walk that this tile's rows do not see (rank 1's below its window) every
          // warpgroup passes over after its walk (fwd90_trail_field; outside the turns).
          int pair_lo, pair_hi;
          const int pm0 = cur.m0 - int(cluster_rank()) * rows_per_head;
          mask.key_range(pm0, pm0 + 2 * rows_per_head, &pair_lo, &pair_hi);
          const int pn_lo = pair_lo / kBlockN;
          const int pn_hi = pair_hi > pair_lo ? (pair_hi + kBlockN - 1) / kBlockN : pn_lo;
          const int lead = cur.n_count > 0 ? pn_hi - cur.n_hi : pn_hi - pn_lo;
          const int trail = cur.n_count > 0 ? cur.n_hi - cur.n_count - pn_lo : 0;
          if (skip_masked && live > 1 && lead > 0) {
            int skip = 0;
            for (int w = 0; w < live; ++w) skip |= fwd90_skip_field(fwd90_skip_of(cur.skip, w) + lead, w);
            cur.skip = skip;
          }
          if (trail > 0) cur.skip |= fwd90_trail_field(trail);
          cur.n_hi = pn_hi;
          cur.n_count = pn_hi - pn_lo;
        }
        // Coordinates of rows in the tensor maps: varlen sequences are rows of one batch entry.
        cur.qb = p.cu_seqlens_q != nullptr ? 0 : cur.b;
        kb = p.cu_seqlens_k != nullptr ? 0 : cur.b;
        cur.q_row = int(seq.row_begin_q) + cur.m0;
        k_row0 = int(seq.row_begin_k);
        cur.seqlen_q = seq.seqlen_q;
        cur.seqlen_k = seq.seqlen_k;
        cur.row_begin_q = seq.row_begin_q;
        return true;
      };
      // The next work item at cursor *c into cur: whole units while *c is below
      // P.sk.plan.dp_rounds (the launcher's rounds; the round), then, with a stream-K tail, this
      // unit's pieces of it (*c - dp_rounds: steps into its range; a piece's key-block steps only,
      // as n_hi and n_count); false when none is left.
      // With tile_tickets the whole units [0, ticket_end()) come first by tickets (the first:
      // blockIdx.x, kCluster the cluster's), then *c jumps to dp_rounds: the tail's pieces, or the end.
      bool by_ticket = P.tile_tickets != nullptr;
      // Ticket *c - 1 is asked for by the walk (at q_at below); next_item asks again for each
      // tile it skips (past its sequence; kCluster never: the launcher's pairs have both tiles).
      auto next_item = [&](int* c) {
        for (bool retry = false;; retry = true) {
          StreamKPiece pc;
          if (by_ticket) {
            if (*c == 0) {
              pc.tile = unit();
            } else {  // ticket *c - 1 from thread 32's slot
              if (retry) request_ticket();
              if constexpr (kCluster) mbar_wait_idle_cluster(ticket_bar, uint32_t(*c - 1) & 1);
              else mbar_wait_idle(ticket_bar, uint32_t(*c - 1) & 1);
              pc.tile = ticket_slot;
            }
            pc.role = StreamKPiece::kWhole;
            ++*c;
            if (pc.tile >= ticket_end()) {
              by_ticket = false;
              *c = P.sk.plan.dp_rounds;
              continue;
            }
          } else if (!P.sk.plan.item(int(unit()), units(), c, &pc)) {
            return false;
          }
          if (pc.tile >= (kCluster ? num_tiles / 2 : num_tiles) || !load_tile(pc.tile)) continue;  // (a piece's tile: tiles of equal length, never)
          cur.role = pc.role;
          if (pc.role != StreamKPiece::kWhole) {
            cur.n_hi -= pc.i_lo;
            cur.n_count = pc.i_hi - pc.i_lo;
            cur.skip = 0;  // (pieces: no mask, every row sees every key)
          }
          return true;
        }
      };
      prefetch_tensor_map(&P.tma_q);
      prefetch_tensor_map(&P.tma_k);
      prefetch_tensor_map(&P.tma_v);
      // it: key blocks loaded so far over all tiles (ring stage it % kStages); q_loads: records
      // published (the CTA's items so far). Item j + 1's record and Q are issued with item j's
      // first key block where there are two Q buffers (its buffer was freed by item j - 1's last
      // S), else after item j's last (whose S frees the one buffer). After the last item a record
      // with n_count -1 and an arrival without a load end the consumers' walk.
      int it = 0, q_loads = 0, tile_no = -1;
      auto publish = [&](bool have) {  // the item in cur, or the end
        const int qs = q_loads % q_bufs;
        FA_TRACE(0, q_loads, 0);
        FA_TRACE(0, q_loads, 5, uint32_t(cur.n_count));
        if (q_loads >= q_bufs) mbar_wait_idle(q_empty + qs, (q_loads / q_bufs - 1) & 1);
        FA_TRACE(0, q_loads, 1);
        if (!have) cur.n_count = -1;
        infos[q_loads % C::kTileInfos] = cur;
        if (have) {
          mbar_arrive_expect_tx(q_full + qs, C::kBytesQ);
#pragma unroll
          for (int pn = 0; pn < C::kPanels; ++pn)
            tma_load_4d(smem + qs * C::kBytesQ + pn * C::kPanelQ, &P.tma_q, q_full + qs, pn * 64, cur.q_row, cur.h,
                        cur.qb);
        } else {
          mbar_arrive(q_full + qs);
        }
        ++q_loads;
      };
      // The walk starts with an empty item (cur's n_count 0, nothing loaded or published for it):
      // its turn takes and publishes the CTA's first (one call site of next_item fewer: the
      // 24-register producer spilled with three).
      int cursor = 0;
      bool have = true;
      while (have) {
        const int c_hi = cur.n_hi, c_count = cur.n_count, c_k_row0 = k_row0, c_hk = hk, c_kb = kb;
        const int c_idle = C::kConsumers - live_consumers(cur.rows);  // warpgroups skipping the item
        const int c_skip = cur.skip;  // and those skipping its first key blocks
        // The next item, published with its Q after the loads of key block q_at (with two Q
        // buffers the first: its Q loads a tile ahead). With tickets it is claimed and published
        // after this item's last (a claim before the first held the next tile a whole tile early,
        // session 50), and its ticket asked for at q_at, kTicketLead blocks before the last load
        // (after the item where it has fewer blocks), so that the atomic's round trip runs under
        // the last blocks' waits (q_at's register: a condition of its own spilled the producer).
        // After the ticketed tiles (a stream-K tail's pieces) the server has returned and the
        // arrivals are nobody's.
        bool next = P.tile_tickets != nullptr ? false : next_item(&cursor);
        const int q_at = P.tile_tickets != nullptr ? c_count - 1 - kTicketLead : q_bufs == 2 ? 0 : c_count - 1;
        // Key blocks from the last to the first: the masked diagonal block comes first. The
        // arrivals on each stage's empty barriers for the warpgroups that skip the block (idle, or
        // skipping the walk's first blocks) come right after the wait for its previous phase (so
        // they count in this one).
        for (int i = 0; i < c_count; ++i, ++it) {
          const int n = c_hi - 1 - i;
          const int st = it % kStages;
          const uint32_t phase = (it / kStages) & 1;
          unsigned char* sK = smem + C::kOffK + st * C::kBytesK;
          unsigned char* sV = smem + C::kOffV + st * C::kBytesV;
          // (kCluster: none; its warpgroups release the blocks they skip or pass over idle.)
          const int c_arr = kCluster ? 0 : c_idle + (c_skip != 0 ? fwd90_skippers(c_skip, i, C::kConsumers) : 0);
#ifdef FLASHATTN_SM90_MEASURE_KV_LOADS
          // A measurement build only (wrong results; bench/NOTES.md session 62): what the K/V
          // bytes from L2 cost. 2: every K and V tile loaded twice (the stage's bytes counted twice);
          // 0: after the ring's first round, every other use of a stage not loaded (its full
          // barrier completes on an arrival alone; the consumers compute on the stage's old bytes).
          constexpr int kKvLoads = FLASHATTN_SM90_MEASURE_KV_LOADS;
          const int kv_loads = kKvLoads == 2 ? 2 : (kKvLoads == 0 && it >= kStages && (it & 1)) ? 0 : 1;
#else
          constexpr int kv_loads = 1;
#endif
          // K's tile, then V's (the same steps on their own barriers): the wait for the stage's
          // previous phase, the skippers' arrivals, the expected bytes, the loads. kCluster: this
          // CTA loads its rank's half of the block's rows (tma_k / tma_v boxes of kBlockN / 2 rows)
          // into both CTAs' stage, and its barrier counts the whole stage's bytes, the peer's half
          // included.
          constexpr int kHalf = kBlockN / 2;
          const int half = kCluster ? int(cluster_rank()) : 0;
          auto load_block = [&](uint64_t* full, uint64_t* empty, const CUtensorMap* map, unsigned char* dst,
                                auto panels, uint32_t bytes) {
            if (it >= kStages) mbar_wait_idle(empty + st, phase ^ 1);
            if (c_arr > 0) mbar_arrive(empty + st, uint32_t(c_arr));
            if (kv_loads == 0) mbar_arrive(full + st);
            else mbar_arrive_expect_tx(full + st, bytes * kv_loads);
            for (int l = 0; l < kv_loads; ++l) {
#pragma unroll
              for (int pn = 0; pn < decltype(panels)::value; ++pn) {
                if constexpr (kCluster)
                  tma_load_4d_multicast(dst + pn * C::kPanelKV + half * kHalf * 128, map, full + st, pn * 64,
                                        c_k_row0 + n * kBlockN + half * kHalf, c_hk, c_kb, 3);
                else
                  tma_load_4d(dst + pn * C::kPanelKV, map, full + st, pn * 64, c_k_row0 + n * kBlockN, c_hk, c_kb);
              }
            }
          };
          load_block(k_full, k_empty, &P.tma_k, sK, std::integral_constant<int, C::kPanels>{}, C::kBytesK);
          load_block(v_full, v_empty, &P.tma_v, sV, std::integral_constant<int, C::kPanelsV>{}, C::kBytesV);
          if (i == 0) FA_TRACE(0, tile_no, 2);
          if (i == c_count - 1) FA_TRACE(0, tile_no, 3);
          if (i == q_at) {
            if (P.tile_tickets != nullptr) {
              // (tickets: the next one asked for; kCluster only while the server serves, so that
              // no arrival reaches rank 0 after it returned)
              if (!kCluster || by_ticket) request_ticket();
            } else {
              publish(next);
            }
          }
        }
        // (The mode, not q_at: with one Q buffer q_at is -1 for an item without key blocks, the
        // walk's empty first one included, whose next item is already taken.)
        if (P.tile_tickets != nullptr) {
          if (c_count <= kTicketLead && cursor > 0 && (!kCluster || by_ticket)) request_ticket();
          next = next_item(&cursor);
        }
        if (P.tile_tickets != nullptr || c_count == 0) publish(next);
        have = next;
        ++tile_no;
      }
      FA_TRACE_SPAN(1, trace_ns());
    }
    return;
  }

  // ---------------- consumers ----------------
#ifndef FLASHATTN_SM90_NO_REGREALLOC
  regs_alloc<C::kConsumerRegs>();
#endif
  const int cw = wg - 1;  // consumer warpgroup: rows cw * 64 .. + 63 of the tile
  const int tid = threadIdx.x % 128, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tq = lane % 4;
  const int row0 = cw * 64 + warp * 16 + gr;  // this thread's tile rows: row0 and row0 + 8
  // The current item (its record: slot info_slot): what the key blocks use, in registers; the
  // rest is read from the record where used.
  int m0 = 0, n_hi = 0, n_count = 0, role = StreamKPiece::kWhole, info_slot = 0;
  semantics::Mask mask;
  // This thread's tile row row0 + 8 hf: its query row past the tile's first (m0) and its head past
  // the tile's first (h); q_of: the query row of the current tile (computed where needed: kept
  // across the main loop they would cost registers).
  auto head_in = [&](int hf) { return pack == 1 ? 0 : int(P.rows_div.div(uint32_t(row0 + hf * 8))); };
  auto row_in = [&](int hf) { return row0 + hf * 8 - head_in(hf) * rows_per_head; };
  auto q_of = [&](int hf) { return m0 + row_in(hf); };

  semantics::ScoreMod<float> mod;  // per tile: the ALiBi slope and the diagonal
  if constexpr (kExtras || kCap || kAlibi) {
    mod.scale = p.scale;
    mod.softcap = p.softcap;
  }
  // The plain kernels' exponent scale (raw dots, or kCap's tanh values, to log2 units) and kCap's
  // factor before the tanh.
  const float exp_scale = kCap ? mod.softcap_out(kLog2e) : p.scale_log2;
  const float cap_in = kCap ? mod.softcap_in() : 0.0f;
  float alibi_raw = 0.0f;  // kAlibi: ScoreMod::alibi_per_dot, per tile
  uint64_t bh_dropout = 0;

  float acc_o[kNO];
  float row_max[2], row_sum[2];  // row_max in log2 units

  // This warpgroup's 64 rows of the tile's Q buffer (q_slot).
  const uint32_t sQ0 = smem_addr(smem) + uint32_t(cw) * 64u * 128u;
  uint32_t sQ = sQ0;
  int q_slot = 0;
  // kQRegs: this warp's 16 rows of Q as A fragments, one .x4 ldmatrix a k16 step (desc.h
  // a_frag_offset).
  uint32_t qfrag[kQRegs ? kD / 16 : 1][4];
  auto load_q = [&] {
#pragma unroll
    for (int kk = 0; kk < kD / 16; ++kk)
      prim::ldmatrix_x4(qfrag[kk], sQ + a_frag_offset(warp * 16, lane, kk, uint32_t(C::kPanelQ)));
  };

  // The steps of the tile's key block i (block n_hi - 1 - i; it0 + i over all tiles of this CTA
  // picks the ring stage, as in the producer).
  int it0 = 0;
  auto stage_of = [&](int i) { return (it0 + i) % kStages; };
  auto phase_of = [&](int i) { return uint32_t((it0 + i) / kStages) & 1u; };
  // S_i = Q K_i^T, issued (asynchronous until the next wgmma_wait).
  auto issue_s = [&](int i, float (&s)[kNS]) {
    const uint32_t sK = smem_addr(smem + C::kOffK + stage_of(i) * C::kBytesK);
    FA_WAIT(1, mbar_wait(k_full + stage_of(i), phase_of(i)));
    reg_fence(s);  // earlier ordinary reads of these registers stay before the fence
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kD / 16; ++kk) {
      if constexpr (kQRegs)
        Wgmma<kBlockN, T, 0>::rs(s, qfrag[kk], desc_k_major(sK, C::kPanelKV, kk), kk > 0);
      else
        Wgmma<kBlockN, T, 0>::ss(s, desc_k_major(sQ, C::kPanelQ, kk), desc_k_major(sK, C::kPanelKV, kk), kk > 0);
    }
    wgmma_commit();
  };
  // O += P_i V_i, issued; P_i is in pa.
  uint32_t pa[kBlockN / 16][4];
  auto issue_pv = [&](int i) {
    const uint32_t sV = smem_addr(smem + C::kOffV + stage_of(i) * C::kBytesV);
    FA_WAIT(1, mbar_wait(v_full + stage_of(i), phase_of(i)));
    // Ordinary writes of the registers the wgmma reads (the rescaled O, the packed P) must come
    // before wgmma.fence: the register fences keep the compiler from sinking them past it.
    reg_fence(acc_o);
    reg_fence(pa);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kBlockN / 16; ++kk) Wgmma<kDv, T, 1>::rs(acc_o, pa[kk], desc_mn_major(sV, C::kPanelKV, kk), 1);
    wgmma_commit();
  };
  // K_i has been read (S_i complete); after the tile's last S, Q too (kQRegs: at the tile's start,
  // once in registers): its buffer may take a later tile's Q (the next one's with one buffer, while
  // this one's last P V and epilogue run).
  // kCluster: the peer's producer writes this CTA's stage too, so the release goes to both.
  const uint32_t peer = kCluster ? cluster_rank() ^ 1u : 0u;
  auto release_k = [&](int i) {
    if (tid == 0) mbar_arrive(k_empty + stage_of(i));
    if (kCluster && tid == 0) mbar_arrive_cluster(k_empty + stage_of(i), peer);
    if (!kQRegs && i == n_count - 1) mbar_arrive(q_empty + q_slot);  // every thread (q_empty counts 128 a warpgroup)
  };
  auto release_v = [&](int i) {
    if (tid == 0) mbar_arrive(v_empty + stage_of(i));
    if (kCluster && tid == 0) mbar_arrive_cluster(v_empty + stage_of(i), peer);
  };
  // kCluster: the peer's producer loads into this CTA's stages too, and a block's empty barriers
  // count both CTAs' warpgroups, so a warpgroup that passes over a block (a skip below, or idle)
  // waits on its K and V and releases them in both CTAs itself (no producer arrivals). Every
  // phase is then waited on in each CTA, whichever warpgroups pass.
  auto pass_block = [&](int j) {
    mbar_wait(k_full + stage_of(j), phase_of(j));
    mbar_wait(v_full + stage_of(j), phase_of(j));
    // Every warp past its waits before the release: a warp still polling when the stage has
    // been refilled would see the same parity again and wait a phase too far (on the compute
    // path the wgmma's warpgroup-wide wait orders the release the same way).
    named_bar_sync(1 + C::kConsumers + cw, 128);
    if (tid == 0) {
      mbar_arrive(k_empty + stage_of(j));
      mbar_arrive_cluster(k_empty + stage_of(j), peer);
      mbar_arrive(v_empty + stage_of(j));
      mbar_arrive_cluster(v_empty + stage_of(j), peer);
    }
  };
  // Dropout's keep bits of key block i for this thread's two rows (bit 2 t + e of word t / 16:
  // column pair t, column e of it), drawn between S_i's issue and its wait, where the tensor
  // cores run this warpgroup's GEMMs (in softmax the draw lay on the path between S_i and
  // P_i V_i). Key blocks of a multiple of 64 keys: each 64-key stretch one Philox call a row,
  // the calls unrolled and independent (Dropout::keep_mask_pairs<2>), their rounds overlapped.
  constexpr int kPairs = kBlockN / 8, kKeepWords = (kPairs + 15) / 16;
  uint32_t keep[2][kKeepWords];
  auto draw_keep = [&](int i) {
    if (!(kDropout && p.dropout.enabled())) return;
    const int n0 = (n_hi - 1 - i) * kBlockN;
#pragma unroll
    for (int hf = 0; hf < 2; ++hf)
#pragma unroll
      for (int ch = 0; ch < kKeepWords; ++ch) {
        const int pairs = kPairs - 16 * ch < 16 ? kPairs - 16 * ch : 16;
        keep[hf][ch] = p.dropout.keep_mask_pairs<kBlockN % 64 == 0 ? 2 : 1>(bh_dropout, q_of(hf),
                                                                           n0 + 128 * ch + 2 * tq, pairs);
      }
  };
  // Online softmax of S_i in place (P_i, with dropout applied), the running max and sum
  // updated; alpha: the factor O must be rescaled by before P_i V_i is added. all_lo, all_hi:
  // the keys every row of the tile sees (Mask::common_key_range, set per tile).
  int all_lo = 0, all_hi = 0;
  // This thread's two rows' visible keys (Mask::key_range of one row) less 2 tq, set per tile
  // where a key block of its walk is cut: the key ranges' 64-bit arithmetic and the packed rows'
  // division once a tile instead of once a masked block (-80 instructions a masked block at head_dim
  // 64 and 128). Not at head_dim 256 nor in the three-consumer extras kernel: their four registers
  // would spill there (tools/sass_report.py), so those compute them in the masked block.
  constexpr bool kTileRanges = kD <= 192 && !(C::kConsumers == 3 && kExtras);
  int vis_lo[2] = {0, 0}, vis_hi[2] = {0, 0};
  auto row_ranges = [&](int (&lo)[2], int (&hi)[2]) {
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const int i = q_of(hf);
      mask.key_range(i, i + 1, &lo[hf], &hi[hf]);
      lo[hf] -= 2 * tq;
      hi[hf] -= 2 * tq;
    }
  };
  auto softmax = [&](int i, float (&s)[kNS], float (&alpha)[2]) {
    const int n0 = (n_hi - 1 - i) * kBlockN;
    // Without extras the scores stay raw dots until the exponent: the max is taken over raw
    // dots (the launcher sends scale <= 0 to the extras kernel, so scaling keeps the order) and
    // exp2(dot * scale_log2 - max) is one FFMA (kCap: tanh(dot * cap_in) in place of the dot,
    // exp_scale in place of scale_log2). With extras: modifiers, then log2 units.
    if constexpr (kExtras) {
      if (p.has_score_mod) {  // (the branch outside the element loop: dropout alone skips it whole)
        // ALiBi's distance: the row's base (one conversion a row) minus the element's column
        // offset (a constant), exact (ScoreMod::alibi_bias).
        float base[2];
#pragma unroll
        for (int hf = 0; hf < 2; ++hf) base[hf] = float(q_of(hf) + int(mod.diag_offset) - n0 - 2 * tq);
        // Softcap tested once, outside the loop (ScoreMod::with_softcap): tested per element, each
        // element's tanh chain sat in a branch of its own and none overlapped.
        mod.with_softcap([&](auto softcap_on) {
#pragma unroll
          for (int j = 0; j < kNS; ++j)
            s[j] = mod.template apply_dist_as<decltype(softcap_on)::value, -1>(
                s[j], base[(j % 4) / 2] - float((j / 4) * 8 + (j % 2)), kLog2e);
        });
      } else {
#pragma unroll
        for (int j = 0; j < kNS; ++j) s[j] *= p.scale_log2;
      }
    }
    if constexpr (kCap) {
#pragma unroll
      for (int j = 0; j < kNS; ++j) s[j] = semantics::fa_tanh(s[j] * cap_in);  // (before the mask)
    }
    if constexpr (kAlibi) {
      // The bias in raw-dot units (-slope / scale |distance|), the distance as the kernel with
      // extras forms it: the row's base minus the element's column offset (exact).
      float base[2];
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) base[hf] = float(q_of(hf) + int(mod.diag_offset) - n0 - 2 * tq);
#pragma unroll
      for (int j = 0; j < kNS; ++j)
        s[j] = fmaf(fabsf(base[(j % 4) / 2] - float((j / 4) * 8 + (j % 2))), alibi_raw, s[j]);
    }
    // The mask only on key blocks it cuts (keys past the sequence included): one branch per
    // block, not one per element, against the tile's common key range (Mask::tile_unmasked's
    // test by range with the bounds kept in two registers; through tile_unmasked each step
    // loaded a parameter and compared in 64 bits: +1-3% at head_dim 64 without, even at 128,
    // session 26); there each of this thread's two rows keeps its visible keys (key_range of
    // one row) as a bit per column (config.h fwd90_visible_bits), one bit test an element (two
    // compares an element before: +3.6% at head_dim 64 causal 512, session 32).
    if (n0 < all_lo || n0 + kBlockN > all_hi) {
      using Bits = decltype(fwd90_visible_bits<kNS / 2>(0, 0));
      Bits visible[2];
      int lo[2], hi[2];
      if constexpr (kTileRanges) {
        lo[0] = vis_lo[0], lo[1] = vis_lo[1], hi[0] = vis_hi[0], hi[1] = vis_hi[1];
      } else {
        row_ranges(lo, hi);
      }
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) visible[hf] = fwd90_visible_bits<kNS / 2>(lo[hf] - n0, hi[hf] - n0);
#pragma unroll
      for (int j = 0; j < kNS; ++j)
        if (!((visible[(j % 4) / 2] >> (2 * (j / 4) + j % 2)) & 1u)) s[j] = -INFINITY;
    }
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      float mx = -INFINITY;
#pragma unroll
      for (int t = 0; t < kBlockN / 8; ++t) mx = fmaxf(mx, fmaxf(s[4 * t + 2 * hf], s[4 * t + 2 * hf + 1]));
      mx = prim::quad_max(mx);
      if constexpr (!kExtras) mx *= exp_scale;  // (-inf stays -inf)
      const float m_new = fmaxf(row_max[hf], mx);
      const float m_use = semantics::safe_max(m_new);
      alpha[hf] = prim::exp2_approx(row_max[hf] - m_use);
      row_max[hf] = m_new;
      float sum = 0.0f;
#pragma unroll
      for (int t = 0; t < kBlockN / 8; ++t)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const float x = s[4 * t + 2 * hf + e];
          const float pr = prim::exp2_approx(kExtras ? x - m_use : fmaf(x, exp_scale, -m_use));
          s[4 * t + 2 * hf + e] = pr;
          sum += pr;
        }
      row_sum[hf] = row_sum[hf] * alpha[hf] + sum;
      // Dropout after the row sum: the normalizer counts every weight, kept or not (the bits
      // drawn by draw_keep while S_i ran), applied unrolled: indexing s with a run-time index
      // would move it to local memory.
      if (kDropout && p.dropout.enabled()) {
#pragma unroll
        for (int t = 0; t < kPairs; ++t)
#pragma unroll
          for (int e = 0; e < 2; ++e)
            if (!((keep[hf][t / 16] >> (2 * (t % 16) + e)) & 1u)) s[4 * t + 2 * hf + e] = 0.0f;
      }
    }
  };
  auto rescale_o = [&](const float (&alpha)[2]) {
#pragma unroll
    for (int t = 0; t < kDv / 8; ++t)
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        acc_o[4 * t + 2 * hf] *= alpha[hf];
        acc_o[4 * t + 2 * hf + 1] *= alpha[hf];
      }
  };
  // P as wgmma A fragments: two n8 column tiles of S form one 16-column A block.
  auto pack_p = [&](const float (&s)[kNS]) {
#pragma unroll
    for (int kk = 0; kk < kBlockN / 16; ++kk) {
      pa[kk][0] = prim::pack2(s[8 * kk + 0], s[8 * kk + 1], T());
      pa[kk][1] = prim::pack2(s[8 * kk + 2], s[8 * kk + 3], T());
      pa[kk][2] = prim::pack2(s[8 * kk + 4], s[8 * kk + 5], T());
      pa[kk][3] = prim::pack2(s[8 * kk + 6], s[8 * kk + 7], T());
    }
  };

  float acc_s[kNS];
  float alpha[2];
  // Intra-warpgroup overlap: S_i runs on the tensor cores while P_{i-1} V_{i-1} does, and the
  // softmax of S_i while P_{i-1} V_{i-1} finishes: O is rescaled by alpha_i only once that
  // product has landed.
  // Ping-pong: the consumer warpgroups take turns issuing their GEMMs (n_count + 1 issues a
  // tile each), in the order 0, 1, (2,) 0, ...: warpgroup cw waits on named barrier 1 + cw (256
  // threads: its own sync and its predecessor's arrival) and hands over to its successor. The
  // last warpgroup arrives once up front so that warpgroup 0 goes first; after the last tile
  // warpgroup 0 takes the turn handed to it last, so no barrier phase stays open. A tile's turns
  // go round its live warpgroups only (live_consumers: the idle ones take none), the last live one
  // handing over to warpgroup 0, so every tile still ends with warpgroup 0's turn pending; with one
  // live warpgroup there are no turns (tools/pingpong_model.py checks the rule: no deadlock, never
  // two arrivals pending at a barrier).
  const bool pingpong = FA_SWITCH(pingpong) != 0;
  bool turns = pingpong;
  // P.early_s0: the trailing key-block uses (ending at it0 - 1) whose K and V this warpgroup
  // waited on itself (skipped or idle uses end the run), and whether this tile's S_0 goes early.
  int run = 0;
  bool early = false;
  int next_cw = 0;  // the warpgroup this one hands over to in the current tile
  auto my_turn = [&] {
    if (turns) FA_WAIT(0, named_bar_sync(1 + cw, 256));
  };
  auto hand_over = [&] {
    if (turns) named_bar_arrive(1 + next_cw, 256);
  };
  if (pingpong && cw == C::kConsumers - 1) named_bar_arrive(1, 256);

  // The finished tile's epilogue: normalize, write LSE (natural log) and O (rows of its sequence
  // only): straight from registers, or into this warpgroup's 64 rows of the O tile and out with
  // TMA stores (which leave rows and columns past the tensor's extent alone). finish() takes the
  // tile's coordinates, LSE and normalized O (packed, o_out: registers no wgmma writes) when its
  // last P V has landed; write_out() writes them: at once, or at head_dim 256 without dropout or
  // extras (kDeferOut) while the next tile's S_0 runs (after its issue), where the epilogue's
  // stores then hide behind the tensor cores. Measured (session 18, two rounds beside cuDNN):
  // head_dim 256 +5% at 512 causal, +4% at 1k causal; head_dim 128 -1 to -3%, head_dim 64 +-1%
  // (session 17 likewise).
  struct Finished {
    int b, h, m0, rows, q_row, qb;
    int64_t row_begin_q;
    float lse[2];
  } fin;
  uint32_t o_out[kDv / 8][2];  // column pair 8 ct + 2 tq of row hf, packed
  auto finish = [&] {
    const float keep_scale = kDropout && p.dropout.enabled() ? p.dropout.keep_scale : 1.0f;
    const TileInfo90& r = infos[info_slot];
    fin.b = r.b, fin.h = r.h, fin.m0 = m0, fin.rows = r.rows, fin.q_row = r.q_row, fin.qb = r.qb;
    fin.row_begin_q = r.row_begin_q;
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const float total = prim::quad_sum(row_sum[hf]);
      float inv;
      if (FA_SWITCH(fast_finish)) {
        // (a row that sees a key has total >= 1 and a finite maximum; else O = 0, LSE = -inf)
        const bool any = total > 0.0f;
        inv = any ? prim::rcp_approx(total) : 0.0f;
        fin.lse[hf] = any ? (row_max[hf] + prim::log2_approx(total)) * kLn2 : -INFINITY;
      } else {
        semantics::softmax_finalize(row_max[hf] * kLn2, total, &inv, &fin.lse[hf]);
      }
      const float f = inv * keep_scale;
#pragma unroll
      for (int ct = 0; ct < kDv / 8; ++ct)
        o_out[ct][hf] = prim::pack2(acc_o[4 * ct + 2 * hf] * f, acc_o[4 * ct + 2 * hf + 1] * f, T());
    }
  };
  const bool store_o = C::kStoreO && P.store_o != 0 && pack == 1;
  constexpr bool kDeferOut = kD >= 256 && !kDropout;  // (with extras it would spill)
#ifdef FLASHATTN_SM90_TRACE
  int trace_tile = 0;  // the tile write_out writes (its events)
#endif
  auto write_out = [&] {
    const int bar_o = 1 + C::kConsumers + cw;  // this warpgroup's 128 threads
    if (store_o) {
      if (tid == 0) bulk_wait_read();  // the last tile's store has read the O tile
      named_bar_sync(bar_o, 128);
    }
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const int r = row0 + hf * 8, qr = fin.m0 + row_in(hf), hr = fin.h + head_in(hf);
      const bool live = row_in(hf) < fin.rows;  // a query row of the sequence
      if (p.lse != nullptr && tq == 0 && live)
        p.lse[fin.b * p.lse_batch_stride + hr * p.lse_head_stride + fin.row_begin_q + qr] = fin.lse[hf];
      if (store_o) {
        if (FA_SWITCH(out_stsm)) {
          // stmatrix .x4 (both rows of this thread at once, so only in the pass hf = 0): blocks i
          // = (row half i % 2, column tile 2 j + i / 2); lane l gives row l % 8 of block l / 8, 16
          // contiguous bytes in the swizzled panel. A warp's block lands on eight distinct
          // 16-byte chunks of the 128-byte rows (the swizzle): no bank conflict.
          if (hf == 0) {
            const int bi = lane / 8, rr = cw * 64 + warp * 16 + (bi % 2) * 8 + lane % 8;
#pragma unroll
            for (int j = 0; j < kDv / 16; ++j) {
              const uint32_t regs[4] = {o_out[2 * j][0], o_out[2 * j][1], o_out[2 * j + 1][0], o_out[2 * j + 1][1]};
              prim::stmatrix_x4(smem_addr(smem + C::kOffO) + swizzled_offset(rr, (2 * j + bi / 2) * 8, C::kPanelQ), regs);
            }
          }
          continue;
        }
#pragma unroll
        for (int ct = 0; ct < kDv / 8; ++ct)
          *reinterpret_cast<uint32_t*>(smem + C::kOffO + swizzled_offset(r, ct * 8 + 2 * tq, C::kPanelQ)) = o_out[ct][hf];
        continue;
      }
      T* dst = static_cast<T*>(p.out.data) + fin.b * p.out.batch_stride + (fin.row_begin_q + qr) * p.out.row_stride +
               hr * p.out.head_stride;
      if (FA_SWITCH(out_vec16)) {
        // 16-byte stores (prim::store_quad_tiles; session 21, head_dim 256, whose O does not fit
        // beside the ring for TMA stores: the next tile's S_0 phase, where the deferred stores
        // run, 8855 -> 3230 cycles; +22% at 512, +14% at 1k, +7% at 2k). head_dim_v is a multiple
        // of 8 on this path.
#pragma unroll
        for (int j = 0; j < kDv / 32; ++j) {
          uint32_t w[4] = {o_out[4 * j][hf], o_out[4 * j + 1][hf], o_out[4 * j + 2][hf], o_out[4 * j + 3][hf]};
          prim::store_quad_tiles(dst, 32 * j, w, tq, live, p.head_dim_v);
        }
        continue;
      }
      if (!live) continue;
#pragma unroll
      for (int ct = 0; ct < kDv / 8; ++ct) {
        const int c = ct * 8 + 2 * tq;
        if (c + 1 < p.head_dim_v) {
          *reinterpret_cast<uint32_t*>(dst + c) = o_out[ct][hf];
        } else if (c < p.head_dim_v) {
          *reinterpret_cast<uint16_t*>(dst + c) = uint16_t(o_out[ct][hf]);  // the pair's first (low half)
        }
      }
    }
    if (store_o) {
      fence_proxy_async_shared();  // the st.shared above, then the TMA (async proxy) reads
      named_bar_sync(bar_o, 128);
      if (tid == 0) FA_TRACE(1 + cw, trace_tile, 7);
      if (tid == 0) {
#pragma unroll
        for (int pn = 0; pn < C::kPanelsV; ++pn)
          tma_store_4d(&P.tma_o, smem + C::kOffO + pn * C::kPanelQ + cw * 64 * 128, pn * 64, fin.q_row + cw * 64,
                       fin.h, fin.qb);
        bulk_commit();
      }
    }
  };
  auto zero_o = [&] {
#pragma unroll
    for (int i = 0; i < kNO; ++i) acc_o[i] = 0.0f;
  };

  // The stream-K tail's pieces (config.h StreamK): this warpgroup's part of slot `slot`: float4
  // i of thread tid at i * 128 + tid (O's kNO / 4, then the row maxima and sums), and its flag.
  constexpr int kPartF4 = kNO / 4 + 1;
  auto part_of = [&](int slot) { return P.sk.part + (int64_t(slot) * C::kConsumers + cw) * kPartF4 * 128 + tid; };
  auto flag_of = [&](int slot) { return P.sk.flag + int64_t(slot) * C::kConsumers + cw; };
  // kPartial: O unnormalized, the row maxima (log2 units) and this thread's row sums out to slot
  // blockIdx.x, then the flag (every thread's stores fenced before the barrier, the flag after).
  auto save_partial = [&] {
    float4* dst = part_of(blockIdx.x);
#pragma unroll
    for (int i = 0; i < kNO / 4; ++i)
      __stcg(dst + i * 128, make_float4(acc_o[4 * i], acc_o[4 * i + 1], acc_o[4 * i + 2], acc_o[4 * i + 3]));
    __stcg(dst + (kPartF4 - 1) * 128, make_float4(row_max[0], row_max[1], row_sum[0], row_sum[1]));
    __threadfence();
    named_bar_sync(1 + C::kConsumers + cw, 128);
    if (tid == 0) st_release_gpu(flag_of(blockIdx.x), P.sk.epoch);
  };
  // kMerge: the rest of the tile's keys from slot blockIdx.x + 1 (CTA blockIdx.x + 1's kPartial
  // piece; kCluster: blockIdx.x + 2, the same rank of the next cluster, whose pair's piece it
  // was) merged into this thread's O, row maxima and sums, as the online softmax merges a block.
  constexpr int kNextUnit = kCluster ? 2 : 1;
  auto merge_partial = [&] {
    if (tid == 0) {
      // Bounded: a flag that never comes (a bug) traps instead of hanging.
      const long long t0 = clock64();
      while (ld_acquire_gpu(flag_of(blockIdx.x + kNextUnit)) != P.sk.epoch) {
        if (clock64() - t0 > (1ll << 36)) __trap();
        __nanosleep(64);
      }
    }
    named_bar_sync(1 + C::kConsumers + cw, 128);
    const float4* src = part_of(blockIdx.x + kNextUnit);
    const float4 st = __ldcg(src + (kPartF4 - 1) * 128);
    const float m_other[2] = {st.x, st.y}, l_other[2] = {st.z, st.w};
    float a_mine[2], a_other[2];
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const float m_new = fmaxf(row_max[hf], m_other[hf]);
      const float m_use = semantics::safe_max(m_new);
      a_mine[hf] = prim::exp2_approx(row_max[hf] - m_use);
      a_other[hf] = prim::exp2_approx(m_other[hf] - m_use);
      row_max[hf] = m_new;
      row_sum[hf] = row_sum[hf] * a_mine[hf] + l_other[hf] * a_other[hf];
    }
    // Eight float4 loads in flight at a time (the compiler barrier keeps it from hoisting all of
    // them: at head_dim 256 their 128 registers beside O's would spill).
#pragma unroll
    for (int i = 0; i < kNO / 4; ++i) {
      if (i % 8 == 0) asm volatile("" ::: "memory");
      const float4 o = __ldcg(src + i * 128);
      acc_o[4 * i] = acc_o[4 * i] * a_mine[0] + o.x * a_other[0];
      acc_o[4 * i + 1] = acc_o[4 * i + 1] * a_mine[0] + o.y * a_other[0];
      acc_o[4 * i + 2] = acc_o[4 * i + 2] * a_mine[1] + o.z * a_other[1];
      acc_o[4 * i + 3] = acc_o[4 * i + 3] * a_mine[1] + o.w * a_other[1];
    }
  };

  int tiles = 0;
  bool pending = false;  // kDeferOut: the last tile's write_out still to do
  for (;; ++tiles) {
    // The item's record, once its Q has landed (or the end of the walk).
    q_slot = q_bufs == 2 ? tiles & 1 : 0;
    sQ = sQ0 + uint32_t(q_slot * C::kBytesQ);
    mbar_wait(q_full + q_slot, uint32_t(q_bufs == 2 ? tiles >> 1 : tiles) & 1u);
    info_slot = tiles % C::kTileInfos;
    const TileInfo90& r = infos[info_slot];
    n_count = r.n_count;
    if (n_count < 0) break;
    n_hi = r.n_hi;
    m0 = r.m0;
    role = r.role;
    all_lo = r.all_lo;
    all_hi = r.all_hi;
    mask = semantics::make_mask(r.seqlen_q, r.seqlen_k, p.window_left, p.window_right, p.causal);
    // An idle warpgroup (no query row in the tile) takes none of its key blocks: the producer
    // arrived on their stages for it (kCluster: it passes over each, outside the turns, which go
    // round the live warpgroups only; rank 1's last tile of a head with 64 rows or fewer); it
    // releases Q and writes nothing.
    const int live = live_consumers(r.rows);
    const bool idle = cw >= live;
    turns = pingpong && live > 1;
    next_cw = cw + 1 < live ? cw + 1 : 0;
    if (idle) {
      if constexpr (kCluster)
        for (int j = 0; j < n_count; ++j) pass_block(j);
      it0 += n_count;
      if (n_count > 0) run = 0;
      n_count = 0;
    }
    // Key blocks this warpgroup's rows do not see at the walk's start (0 without turns or for idle
    // warpgroups: the producer's rule; never the walk's last, so skip < n_count): an empty turn
    // each, so the turns keep their order, then the rest of the walk; the producer arrives on
    // their stages for it (kCluster: it passes over them, pass_block; rank 0's warpgroups all do
    // at the walk's start under a causal mask: the pair's extra blocks). Its later parity waits on
    // such a stage come in its own turns after the last live warpgroup's turns that waited on the
    // skipped phases (tools/pingpong_model.py checks it with K and V and loads landing in any
    // order).
    const int skip = fwd90_skip_of(r.skip, cw);
    // kCluster: the key blocks at the walk's end that none of this tile's rows see (rank 1's
    // below its window; load_tile): passed over after the walk, outside the turns, as an idle
    // warpgroup passes over its (every warpgroup of the tile the same count, so the turns stay
    // even; tools/pingpong_model.py --cluster models it).
    const int trail = kCluster && !idle ? fwd90_trail_of(r.skip) : 0;
    n_count -= trail;
    if (skip > 0) {
      for (int j = 0; j < skip; ++j) {
        my_turn();
        hand_over();
        if constexpr (kCluster) pass_block(j);
      }
      it0 += skip;
      n_hi -= skip;
      n_count -= skip;
      run = 0;
    }
    if constexpr (kQRegs) {
      if (n_count > 0) {
        load_q();
        mbar_arrive(q_empty + q_slot);  // every thread: Q is in registers (release_k leaves it)
      }
    }
    early = FA_SWITCH(early_s0) != 0 && turns && skip == 0 && run >= min(kStages, it0);
    if constexpr (kTileRanges) {
      if ((n_hi - n_count) * kBlockN < all_lo || n_hi * kBlockN > all_hi) row_ranges(vis_lo, vis_hi);
    }
    if constexpr (kExtras || kAlibi) {
      mod.alibi_slope = p.alibi != nullptr ? p.alibi[r.b * p.alibi_batch_stride + r.h] : 0.0f;
      mod.diag_offset = int64_t(r.seqlen_k) - r.seqlen_q;
      if constexpr (kAlibi) alibi_raw = mod.alibi_per_dot();
    }
    bh_dropout = uint64_t(r.b) * p.num_heads + r.h;  // (dropout: pack is 1)
    if (!kDeferOut) zero_o();
    row_max[0] = row_max[1] = -INFINITY;
    row_sum[0] = row_sum[1] = 0.0f;
    [[maybe_unused]] const int tile_no = tiles;  // (the trace's index)
    if (tid == 0) FA_TRACE(1 + cw, tile_no, 0);
    if (tid == 0) FA_TRACE(1 + cw, tile_no, 5, uint32_t(n_count));
    if (tid == 0) FA_TRACE(1 + cw, tile_no, 1);

    if (n_count > 0) {
      if (!early) my_turn();
      issue_s(0, acc_s);
      if (!early) hand_over();
      draw_keep(0);
      if (kDeferOut && pending) write_out();  // the last tile's, while S_0 runs
      pending = false;
      FA_WAIT(2, wgmma_wait<0>());
      reg_fence(acc_s);
      if (kDeferOut) zero_o();
      if (tid == 0) FA_TRACE(1 + cw, tile_no, 2);
      release_k(0);
      softmax(0, acc_s, alpha);  // O is still zero: no rescale needed
      pack_p(acc_s);
      if (early) {  // the S_0 turn, empty
        my_turn();
        hand_over();
      }
    } else if (kDeferOut) {
      if (pending) write_out();
      pending = false;
      zero_o();
    }
    for (int i = 1; i < n_count; ++i) {
      my_turn();
      issue_s(i, acc_s);
      issue_pv(i - 1);
      hand_over();
      draw_keep(i);
      FA_WAIT(2, wgmma_wait<1>());  // S_i complete (P_{i-1} V_{i-1} may still run)
      reg_fence(acc_s);
      release_k(i);
      softmax(i, acc_s, alpha);
      FA_WAIT(2, wgmma_wait<0>());
      reg_fence(acc_o);
      release_v(i - 1);
      if (!FA_SWITCH(skip_rescale) || !__all_sync(0xffffffffu, alpha[0] == 1.0f && alpha[1] == 1.0f)) rescale_o(alpha);
      pack_p(acc_s);
    }
    if (n_count > 0) {
      my_turn();
      issue_pv(n_count - 1);
      hand_over();
      FA_WAIT(2, wgmma_wait<0>());
      reg_fence(acc_o);
      if (tid == 0) FA_TRACE(1 + cw, tile_no, 3);
      release_v(n_count - 1);
    }
    if (n_count == 0) mbar_arrive(q_empty + q_slot);  // every thread (else release_k or kQRegs's load did)
    if constexpr (kCluster) {
      for (int j = n_count; j < n_count + trail; ++j) pass_block(j);
    }
    it0 += n_count + trail;
    run = trail > 0 ? 0 : min(run + n_count, kStages);
    // No O here: an idle warpgroup's rows are none, a partial piece's rest is another CTA's.
    if (idle || role == StreamKPiece::kPartial) {
      if (!idle) save_partial();
      if constexpr (kDeferOut) {
        // Nothing pending (write_out ran at S_0), but the compiler cannot know: without these
        // definitions the last tile's o_out and fin stay live through the main loop (spills).
        fin = Finished{};
#pragma unroll
        for (int ct = 0; ct < kDv / 8; ++ct) o_out[ct][0] = o_out[ct][1] = 0u;
      }
      continue;
    }
    if (role == StreamKPiece::kMerge) merge_partial();
    finish();
    if (tid == 0) FA_TRACE(1 + cw, tile_no, 6);
#ifdef FLASHATTN_SM90_TRACE
    trace_tile = tile_no;
#endif
    if (kDeferOut) pending = true;
    else write_out();
    if (tid == 0) FA_TRACE(1 + cw, tile_no, 4);
#ifdef FLASHATTN_SM90_TRACE
    for (int k = 0; k < 3; ++k) {
      if (tid == 0) FA_TRACE(1 + cw, tile_no, 8 + k, uint32_t(trace_wait[k]));
      trace_wait[k] = 0;
    }
#endif
  }
  if (kDeferOut && pending) write_out();
  if (store_o && tid == 0) bulk_wait();  // before the CTA's shared memory goes
  if (tid == 0) FA_TRACE_SPAN(2 + cw, trace_ns());
  if (tid == 0 && cw == 0) FA_TRACE_SPAN(5, uint32_t(tiles));
  if (pingpong && cw == 0) named_bar_sync(1, 256);
  // kCluster: neither CTA exits while the peer may still arrive on its barriers (the producers
  // have exited: exited threads count as arrived).
  if constexpr (kCluster) cluster_sync();
}

#undef FA_TRACE
#undef FA_TRACE_SPAN
#undef FA_WAIT
#undef FA_SWITCH

}  // namespace flashattn::cuda::sm90
