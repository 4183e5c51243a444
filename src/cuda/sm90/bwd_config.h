// Tile geometry of the sm90 backward (no device code: tests/cpp/test_sm90_bwd_layout.cc uses it
// too). Every operand tile lives in 1024-byte aligned panels of 64 16-bit columns, 128-byte
// swizzled as TMA writes them (desc.h), so each GEMM reads it through a plain descriptor.
#pragma once

#include <cstdint>

#include "cuda/sm90/desc.h"
#include "semantics/config.h"

namespace flashattn::cuda::sm90 {

// kDqSmem_: the dQ variant (FLASHATTN_SM90_BWD_DQ_TMA=1): the consumers store their dQ partial
// into a shared fp32 tile and the producer warpgroup's warp 2 adds it to the workspace with bulk
// reductions, instead of each consumer thread's red.global.add. At head_dim 256 (kDqStage) that
// tile is the ring stage the step has just consumed (no room for a buffer of its own).
// kBlockM_: queries per step, 64, or 128 at head_dim 64 (the default there; FLASHATTN_SM90_BWD_BLOCK_M, bwd_launch.cu):
// twice the work per synchronization of the two warpgroups, S^T / dP^T of m64 n128; or 80 at
// head_dim 128 (kDqT below, the default there where bwd90_steps80_ok allows; FLASHATTN_SM90_BWD_BLOCK_M=64 opts out).
// Keys per CTA (the K, V tensor maps' box rows; bwd_launch.cu builds them before it picks a kernel).
// Head_dim tiers 192 and 256 split the work between the consumer warpgroups by roles (kSplitD below).
constexpr bool bwd90_split_d(int head_dim_tier) { return head_dim_tier >= 192; }
constexpr int bwd90_block_n(int head_dim_tier) { return bwd90_split_d(head_dim_tier) ? 64 : 128; }
// Tier 256's dQ variant stages dQ in the ring stage (kDqStage below), which takes a padded batch
// (the reductions' tensor form): varlen there adds dQ by red.global, and deterministic varlen goes
// to the sm80 path (bwd_launch.cu). The one place this rule lives (head_dim 193-256: tier 256).
constexpr bool bwd90_dq_staged(int head_dim_tier) { return head_dim_tier == 256; }
// ... by head_dim (before the selector's tier: 193-256 run tier 256, dispatch/select.cc).
constexpr bool bwd90_dq_staged_head_dim(int head_dim) {
  return bwd90_dq_staged(head_dim > 192 && head_dim <= 256 ? 256 : 0);
}
// Whether a call takes 80-query steps (Bwd90Config<128, true, 80>, kDqT; the default since session
// 40, FLASHATTN_SM90_BWD_BLOCK_M=64 opts out): tier 128, plain scores, no dropout (its keep words are 32-query
// words, and their shared memory would not fit), not deterministic (the writer's semaphores are
// per 64-row query block), and a padded batch with the dQ variant (the writer adds the step's dQ
// as swizzled TMA boxes, the tensor form). Everything else keeps 64-query steps.
constexpr bool bwd90_steps80_ok(int head_dim_tier, bool extras, bool dropout, bool deterministic, bool dq_tensor) {
  return head_dim_tier == 128 && !extras && !dropout && !deterministic && dq_tensor;
}
// Whether the plain kernel with one modifier (bwd_kernel.h kCap: softcap alone, sm80::softcap_alone;
// kAlibi: ALiBi alone, sm80::alibi_alone) is built for a configuration: the plain kernel's
// defaults at tiers 64 (128-query steps, the dQ variant, K's fragments in registers) and 128
// (80-query steps; and 64-query steps with the dQ variant, which varlen and deterministic calls
// take). Elsewhere (the split tiers 192 and 256, the opt-outs of those defaults,
// FLASHATTN_SM90_BWD_CAP=0 / _ALIBI=0) the modifier takes the kernel with extras.
constexpr bool bwd90_has_mod(int head_dim_tier, int block_m, bool dq_smem, bool k_regs) {
  return (head_dim_tier == 64 && block_m == 128 && dq_smem && k_regs) ||
         (head_dim_tier == 128 && (block_m == 80 || (block_m == 64 && dq_smem)));
}

template <int kD_, bool kDqSmem_ = false, int kBlockM_ = 64>
struct Bwd90Config {
  static constexpr int kD = kD_;        // head_dim tier = head_dim_v tier
  static constexpr bool kDqSmem = kDqSmem_;
  // kSplitD (head_dim 192 and 256): dK and dV of 64 keys x 192 or 256 columns would take 192 or
  // 256 registers a thread, so both consumer warpgroups take the same 64 keys and split the work
  // by roles (session 11; before: each computed S^T and dP^T of all of them, 7 units of GEMM work
  // a step instead of 5): warpgroup 0 computes S^T, P^T and dV (all columns), warpgroup 1 dP^T,
  // dS^T and dK; P^T (times d(score)/d(dot), fp32) goes from warpgroup 0 to 1 through shared
  // memory (kOffP), dS from 1 to both for dQ. Otherwise each warpgroup owns 64 of 128 keys and
  // all columns of both dK and dV.
  static constexpr bool kSplitD = bwd90_split_d(kD);
  static constexpr int kBlockN = bwd90_block_n(kD);  // keys per CTA
  static constexpr int kBlockM = kBlockM_;   // queries per step (Q, dO, LSE, D of one ring stage)
  static constexpr int kStages = 2;
  static constexpr int kThreads = 384;  // producer warpgroup + two consumer warpgroups
  static constexpr int kPanels = kD / 64;
  static constexpr int kPanelKV = kBlockN * 128, kPanelQ = kBlockM * 128;  // bytes per panel
  static constexpr int kBytesKV = kPanels * kPanelKV, kBytesQ = kPanels * kPanelQ;
  // dS of the key block, stored [query][key] (K-major A of dQ = dS K): kBlockM queries x kBlockN
  // keys, panels of 64 keys (panel cw: the keys of consumer warpgroup cw; kSplitD: one panel). Two buffers, used by
  // alternate steps: one 256-thread barrier a step then orders both the writes before the dQ
  // GEMMs' reads and (two steps later) those reads before the next writes.
  static constexpr int kPaneldS = kBlockM * 128;
  static constexpr int kBytesdS = (kBlockN / 64) * kPaneldS;
  // kSplitD: one buffer (its barriers order the writes after both dQ GEMMs of the step before).
  static constexpr int kBuffersdS = kSplitD ? 1 : 2;
  // dQ = dS K over all kBlockN keys, so each dQ element gets one reduction per key block. 64-query
  // steps: consumer warpgroup cw computes head_dim columns cw * kDQ .. + kDQ - 1 of the 64 rows;
  // 128-query steps (kDqRows): rows cw * 64 .. + 63, all kDQ = kD columns.
  static constexpr bool kDqRows = kBlockM == 128;
  static constexpr int kDQ = kDqRows ? kD : kD / 2;
  // kDqT: steps of a kBlockM that is no wgmma M (80 queries, FlashAttention-3's d128 step without a
  // mask): each warpgroup computes dQ transposed, dQ^T = K^T dS^T over all kBlockN keys: M = its
  // kDQ = 64 head_dim columns (K's panel cw, read M-major: wgmma's transposed A), N = the kBlockM
  // queries (B = the dS buffer, K-major as stored); kBlockM / 2 accumulators a thread. The dQ
  // buffer then takes kDqStage's layout (kD / 32 TMA boxes of 32 fp32 columns x kBlockM rows,
  // 128-byte swizzle, sdq_stage_offset): a thread's elements (column, query) go out as 32-bit
  // stores, conflict-free there (each lane's 16-byte chunk XOR its query % 8 covers the 32
  // banks, Sm90BwdLayout.DqTransposedStores), and no pad (the padded rows would not fit).
  static constexpr bool kDqT = kBlockM % 64 != 0;
  // ... as pieces: kDQ0 columns from dq_col0(cw), and at tier 192 kDQ1 = 32 more from
  // dq_col1(cw): warpgroup cw takes panel cw and half cw of panel 2 (96 columns each; an
  // MN-major B operand's N runs through whole swizzle atoms, and a piece of 32 may start 64 bytes
  // into a 128-byte row, which the swizzle leaves intact).
  static constexpr int kDQ1 = kD == 192 ? 32 : 0;
  static constexpr int kDQ0 = kDQ - kDQ1;
  // dQ floats a thread: piece 0's (kDqT: the transposed product's), kDQ1 / 2 more for piece 1.
  static constexpr int kDqAcc = kDqT ? kBlockM / 2 : kDQ0 / 2;
  static FA_HD int dq_col0(int cw) { return kDqRows ? 0 : cw * kDQ0; }
  static FA_HD int dq_col1(int cw) { return kDQ1 > 0 ? 128 + cw * 32 : 0; }
  static constexpr int kOffK = 0, kOffV = kOffK + kBytesKV;
  static constexpr int kOffQ = kOffV + kBytesKV;           // kStages x Q
  static constexpr int kOffdO = kOffQ + kStages * kBytesQ;  // kStages x dO
  static constexpr int kOffdS = kOffdO + kStages * kBytesQ;  // kBuffersdS x dS
  // dQ variant: the step's dQ (kBlockM queries x kD fp32 columns, both warpgroups' parts), row q at
  // q * kRowdQ, columns in order, no swizzle: the writer adds it as one TMA box of kD + 8 columns
  // x kBlockM rows (the 8 columns past the workspace tensor's extent kD are the pad, never written)
  // or, for varlen, one flat bulk reduction per row. The 32-byte pad makes the consumers' float2
  // stores conflict-free: a half warp's 4 rows start 8 banks apart. Two buffers where they fit
  // (d64), else one (d128: 160 KB of operands + 2 x 34 KB would pass 227 KB; d192: 160 + 50 KB;
  // d256: none, its 208 KB of operands leave no room).
  static constexpr int kPadColsdQ = 8;
  static constexpr int kRowdQ = (kD + kPadColsdQ) * 4;
  static constexpr int kBytesdQ = kDqT ? kBlockM * kD * 4 : kBlockM * kRowdQ;
  // kSplitD: P^T d(score)/d(dot) of the step, fp32, from warpgroup 0 to 1 in the accumulators'
  // own order (float4 i of thread t at (i * 128 + t) * 16 bytes: conflict-free, sp_offset).
  static constexpr int kBytesP = kSplitD ? 64 * kBlockM * 4 : 0;
  static constexpr int kOffP = kOffdS + kBuffersdS * kBytesdS;
  static constexpr int kOffdQ = kOffP + kBytesP;
  // kDqStage (the dQ variant at head_dim 256, whose 208 KB of operands leave no room for a dQ
  // buffer; padded batch only: the tensor form): the step's dQ goes into the ring stage the step has
  // just consumed (Q and dO are no longer read once dK and dV have completed): warpgroup cw's 128
  // fp32 columns into stage st's Q tile (cw 0) or dO tile (cw 1), 32 KB each, as four TMA boxes of
  // 32 columns x kBlockM rows with the 128-byte swizzle (sdq_stage_offset: conflict-free float2
  // stores). The writer warp adds the eight boxes, waits for their reads and releases the stage to
  // the producer (q_empty) in the consumers' place. Session 10: at tier 192 the dQ buffer's bulk
  // reductions ran 342 TFLOP/s against red.global's 246-257; at 256, red.global kept the L2's input
  // crossbar 76% busy (ncu).
  static constexpr bool kDqStage = kDqSmem && bwd90_dq_staged(kD);
  static constexpr int kDqBoxCols = 32;
  // Dropout's keep bits of a step (bwd_kernel.h): per consumer warpgroup one 32-bit word per (key
  // of its 64, 32 queries of the step), bit q % 32 for query q, word keep_word(key, q / 32) (keys
  // fastest: the reads of a warp's key rows hit distinct banks; its stores, keys 8 (L / 4) + 4 kg +
  // L % 4 of lanes L, meet two to a bank: one store a draw); two buffers, used by alternate steps.
  // Warp w draws keys 8 t + 4 (w % 2) + j (j < 4) of the 32-query words keep_draw_qw(w, i), i <
  // kKeepDraws (each lane one query row of each). A thread's element (g,
  // e) of wgmma's accumulator layout (query 8 g + 2 tq + e % 2): bit keep_shift(g, e, tq) of its
  // word g / 4.
  static constexpr int kKeepWordsWG = kDqT ? 0 : 64 * (kBlockM / 32);  // (kDqT: no dropout)
  static constexpr int kKeepDraws = kBlockM / 64;
  static constexpr int kBytesKeep = 2 * 2 * kKeepWordsWG * 4;
  static FA_HD int keep_word(int key, int qw) { return qw * 64 + key; }
  static FA_HD int keep_draw_qw(int warp, int i) { return warp / 2 + 2 * i; }
  static FA_HD int keep_shift(int g, int e, int tq) { return (g % 4) * 8 + 2 * tq + e % 2; }
  static constexpr int kTail = kBytesKeep + 2 * kStages * kBlockM * 4 + (4 + 2 * kStages + 4) * 8 + 1024;
  static constexpr int kBuffersdQ =
      !kDqSmem || kDqStage ? 0 : kOffdQ + 2 * kBytesdQ + kTail <= 227 * 1024 ? 2 : 1;
  // dQ barriers: full per dQ buffer (kDqStage: per ring stage), empty per dQ buffer (kDqStage: the
  // stage's q_empty); kDqT: per half of its one buffer (consumer warpgroup cw's kD / 64 boxes of
  // 32 columns: its 64 columns), so that the writer adds and releases a warpgroup's half as soon as
  // that warpgroup has stored it, without waiting for the other's.
  static constexpr int kDqHalves = kDqT ? 2 : 1;
  static constexpr int kBarsdQFull = kDqStage ? kStages : kBuffersdQ * kDqHalves;
  static constexpr int kBarsdQEmpty = kBuffersdQ * kDqHalves;
  static constexpr int kOffKeep = kOffdQ + kBuffersdQ * kBytesdQ;
  static constexpr int kOffLse = kOffKeep + kBytesKeep;  // kStages x kBlockM floats (log2 units)
  static constexpr int kOffDsum = kOffLse + kStages * kBlockM * 4;
  static constexpr int kOffBar = kOffDsum + kStages * kBlockM * 4;
  // Barriers: K/V full, K/V empty and V empty, the stream-K merge's; Q/dO full and empty per stage; dQ full
  // and empty (above); +1024: alignment slack.
  // kSplitD: the P^T exchange tile's full and empty barriers, and S^T's completion (serial_sdp).
  static constexpr int kBarsP = kSplitD ? 3 : 0;
  static constexpr int kSmemBytes = kOffBar + (4 + 2 * kStages + kBarsdQFull + kBarsdQEmpty + kBarsP) * 8 + 1024;
  static_assert(kD == 64 || kD == 128 || kD == 192 || kD == 256, "head_dim tiers 64, 128, 192 and 256");
  static_assert(kOffQ % 1024 == 0 && kOffdO % 1024 == 0 && kOffdS % 1024 == 0, "swizzled panels: 1024-byte aligned");
  static_assert((kBlockN == 128 || (kSplitD && kBlockN == 64)) &&
                    (kBlockM == 64 || (kBlockM == 128 && kD == 64) || (kBlockM == 80 && kD == 128 && kDqSmem)),
                "each consumer warpgroup owns 64 keys (kSplitD: both the same 64); S^T is m64 n64, m64 n128 at "
                "head_dim 64 (registers), or m64 n80 at head_dim 128 with the dQ variant (kDqT)");
  static_assert(!kDqT || (kBuffersdQ == 1 && kOffdQ % 1024 == 0 && (kBlockM * 128) % 1024 == 0 && kDQ == 64 &&
                          kDQ1 == 0 && kBlockM % 16 == 0),
                "kDqT: one dQ buffer of 1024-byte aligned swizzled boxes; each warpgroup one 64-column panel of K");
  static_assert(!kDqStage || (kBytesQ == 32 * 1024 && kBlockM * 128 * (kDQ / kDqBoxCols) == kBytesQ && kDQ == 128),
                "kDqStage: a warpgroup's 128 fp32 dQ columns fill one Q (or dO) tile of the stage as four boxes");
  static_assert(kDQ % 32 == 0 && (kDQ <= 64 || kDQ % 64 == 0 || kD == 192),
                "a warpgroup's dQ columns: one wgmma N (32 or 64) inside one 64-column panel of K, whole panels, "
                "or (tier 192) 64 + 32");
  static_assert(kDQ0 % 32 == 0 && (kDQ0 <= 64 || kDQ0 % 64 == 0), "dQ piece 0: inside one panel or whole panels");
  static_assert(kSmemBytes <= 227 * 1024, "Hopper's shared memory per block");
  static_assert(kRowdQ % 16 == 0 && (kD * 4) % 16 == 0 && kOffdQ % 128 == 0 && kBytesdQ % 128 == 0,
                "cp.reduce.async.bulk: 16-byte aligned rows, sizes multiples of 16; the tensor form's box "
                "128-byte aligned");
  static_assert(!kDqSmem || kDqStage || kD + kPadColsdQ <= 256, "TMA box: at most 256 elements per dimension");
  static_assert(kOffLse % 8 == 0 && kOffDsum % 8 == 0 && kBlockM % 2 == 0,
                "LSE and D are read as float2 per query pair");
  static_assert(kRowdQ % 128 == 32, "dQ rows 8 banks apart: conflict-free float2 stores per half warp");
};

// Byte offset of dQ element (query q, head_dim column c) in a dQ buffer of the dQ variant.
template <typename C>
FA_HD uint32_t sdq_offset(int q, int c) {
  return uint32_t(q) * uint32_t(C::kRowdQ) + uint32_t(c) * 4u;
}

// kSplitD: byte offset of float4 i (accumulator elements 4 i .. 4 i + 3) of consumer thread t (of
// its warpgroup's 128) in the P^T exchange tile: a warp's 32 float4 stores or loads are 512
// contiguous bytes.
template <typename C>
FA_HD uint32_t sp_offset(int t, int i) {
  return uint32_t(C::kOffP) + (uint32_t(i) * 128u + uint32_t(t)) * 16u;
}

// kDqStage: byte offset of dQ element (query q, column c < 128 of the warpgroup's half) in its
// tile of the ring stage: box c / 32 of kBlockM 128-byte rows, 128-byte swizzled as TMA reads
// a 32-float box (the 16-bit panel layout of swizzled_offset at twice the column).
template <typename C>
FA_HD uint32_t sdq_stage_offset(int q, int c) {
  return swizzled_offset(q, 2 * c, uint32_t(C::kBlockM) * 128u);
}
// The column tile (8 columns) a consumer thread of row group gr (lane / 4) stores at its store t:
// t, or t ^ 2 for odd gr, so that a half warp's four rows cover all eight 16-byte chunks of a
// 128-byte row (conflict-free float2 stores; the swizzle XORs the chunk with the row alone, which
// maps rows 2 j and 2 j + 1 of one tile onto the same two chunks).
FA_HD constexpr bool dq_stage_swap(int gr) { return (gr & 1) != 0; }
FA_HD constexpr int dq_stage_tile(int t, int gr) { return dq_stage_swap(gr) ? t ^ 2 : t; }

// Byte offset of dS element (query q, key k < 128) in a dS buffer: panel k / 64 of kPaneldS
// bytes, row q of 128 bytes, 128-byte swizzle (the layout TMA would write, so desc_k_major reads
// it as the A operand with panel_bytes = kPaneldS).
template <typename C>
FA_HD uint32_t sds_offset(int q, int k) {
  return swizzled_offset(q, k, uint32_t(C::kPaneldS));
}

// dS^T of a consumer warpgroup's 64 keys into its panel of the dS buffer with stmatrix .x4
// .trans, one instruction per k16 block kk of queries (registers dsa[kk][0..3] = the 8 x 8
// blocks (keys + 8 (i % 2), queries 16 kk + 8 (i / 2)), i = 0..3, in wgmma's accumulator
// layout: thread t holds key t / 4, queries 2 (t % 4) and + 1). Lane l gives the address of row
// l % 8 of block i = l / 8 as stored transposed: query 8 (i / 2) + l % 8 (plus 16 kk, which is
// 2048 bytes: the swizzle reads only the row within its 8-row atom), keys warp * 16 + 8 (i % 2)
// .. + 7 (one 16-byte chunk). The byte offset of that row for k16 block 0:
template <typename C>
FA_HD uint32_t sds_stmatrix_offset(int warp, int lane) {
  const int i = lane / 8;
  return sds_offset<C>(8 * (i / 2) + lane % 8, warp * 16 + 8 * (i % 2));
}

// kKRegs (bwd_kernel.h): byte offset, in the K tile, of the row lane `lane` gives ldmatrix .x4 for
// k16 block kk of the 16 keys from key_row0 (desc.h a_frag_offset).
template <typename C>
FA_HD uint32_t k_frag_offset(int key_row0, int lane, int kk) {
  return a_frag_offset(key_row0, lane, kk, uint32_t(C::kPanelKV));
}

}  // namespace flashattn::cuda::sm90
