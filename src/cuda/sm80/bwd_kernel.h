// Backward kernels of the sm80 path. bwd_kernel: one CTA of eight warps per (key block, batch,
// kv head) keeps dK and dV of its keys in registers while it walks every query head of its group
// and every query block the mask lets its keys reach. Per step (one query block of one head):
//   S = Q K^T and dP = dO V^T          warps tile (queries x keys)
//   P, dS = P * (dP - D) -> shared     (the semantics' mask, modifiers and dropout; the plain
//                                       kernel leaves softmax's scale out of dS and applies it
//                                       to dK here and to dQ in its conversion, as FA2 does;
//                                       at head_dim 128-256 it computes P between dP's k-steps)
//   dQ += dS K  (fp32 red.add into a workspace, or in key-block order when deterministic)
//   dV += P^T dO, dK += dS^T Q         warps tile (keys x head_dim)
// Each GEMM has its own warp grid, chosen so that every warp owns a 32 x 32 (or larger) block
// where the register file allows: on the H200 the mma.sync path is bound by shared-memory reads
// (ldmatrix), and a 32 x 32 warp block reads half the operand bytes per mma of a 16 x 32 one.
// Q, dO, LSE and D are double-buffered: step s + 1's loads overlap all of step s's GEMMs.
// bwd_dsum_kernel (D = rowsum(dO * O)) runs before it, bwd_convert_dq_kernel after (launch.cu).
#pragma once

#include <cmath>
#include <type_traits>

#include "cuda/prim/math.h"
#include "cuda/sm80/params.h"
#include "cuda/sm80/tile.h"

#ifndef FLASHATTN_SM80_BWD_SPLIT_P
#define FLASHATTN_SM80_BWD_SPLIT_P 1
#endif
#ifndef FLASHATTN_SM80_BWD_STMATRIX
#define FLASHATTN_SM80_BWD_STMATRIX 1
#endif

namespace flashattn::cuda::sm80 {

// A warp grid for a GEMM output of kRows x kCols (and, sharing its rows, kRows x kCols2) over
// eight warps: kWarpsR x kWarpsC warps, each owning (kRows / kWarpsR) rows and kCols / kWarpsC
// columns. Prefers 32-row warp blocks; 16 rows where 32 would leave a warp a column count that
// is not whole n-tile pairs (head_dim 96, 160, 224).
template <int kRows, int kCols, int kCols2 = kCols>
struct WarpGrid {
  static constexpr bool ok(int warps_r) {
    return warps_r >= 1 && warps_r <= 8 && kRows % (16 * warps_r) == 0 && kCols % ((8 / warps_r) * 16) == 0 &&
           kCols2 % ((8 / warps_r) * 16) == 0;
  }
  static constexpr int kWarpsR = ok(kRows / 32) ? kRows / 32 : ok(kRows / 16) ? kRows / 16 : 8;
  static constexpr int kWarpsC = 8 / kWarpsR;
  static constexpr int kMT = kRows / kWarpsR / 16;  // m-tiles per warp
  static constexpr int kCols1 = kCols / kWarpsC;    // columns per warp
  static constexpr int kNT = kCols1 / 8;            // n-tiles per warp
  static_assert(ok(kWarpsR), "no 8-warp grid with whole m-tiles and n-tile pairs");
};

// Tile shape of one backward instantiation; the overrides are for bench/gpu/tune_sm80.cu.
template <int kD_, int kDv_, int kBlockNOverride = 0, int kStagesOverride = 0, int kBlockMOverride = 0,
          int kSwizzle_ = -1, int kStmatrix_ = -1, int kSplitP_ = -1>
struct BwdConfig {
  static constexpr int kD = kD_, kDv = kDv_;
  static constexpr int kMaxD = kD > kDv ? kD : kDv;
  static constexpr int kNWarps = 8;
  static constexpr int kThreads = kNWarps * 32;
  static constexpr int kBlockM = kBlockMOverride ? kBlockMOverride : 64;  // queries per step
  // Keys per CTA: 128 up to head_dim 128 (dK + dV = 128 x 256 floats: 128 registers a thread);
  // 64 above, where the same register budget holds 64 x 512.
  static constexpr int kBlockN = kBlockNOverride ? kBlockNOverride : kMaxD <= 128 ? 128 : 64;
  // S/dP: kBlockN >= 128 puts four warps along the keys (32 x 32 each at kBlockM 64).
  static constexpr int kWarpsNS = kBlockN >= 128 ? 4 : 2;
  static constexpr int kWarpsMS = kNWarps / kWarpsNS;
  static constexpr int kMTS = kBlockM / kWarpsMS / 16, kColsS = kBlockN / kWarpsNS;
  using GridKV = WarpGrid<kBlockN, kD, kDv>;
  using GridQ = WarpGrid<kBlockM, kD>;
  // dK and dV share the key rows of a warp; their column counts follow each one's head_dim.
  static constexpr int kMTKV = GridKV::kMT, kColsK = kD / GridKV::kWarpsC, kColsV = kDv / GridKV::kWarpsC;
  static constexpr int kNTK = kColsK / 8, kNTV = kColsV / 8;
  // dQ runs in column chunks of kNTQC n-tiles, so that its accumulator beside dK and dV stays
  // within 160 registers (at head_dim 256 one 64-column block spilled 204 bytes).
  static constexpr int kNTQC = [] {
    int best = 2;
    for (int d = 2; d <= GridQ::kNT; d += 2)
      if (GridQ::kNT % d == 0 && 4 * (kMTKV * (kNTK + kNTV) + GridQ::kMT * d) <= 160) best = d;
    return best;
  }();
  // Every tile swizzled instead of padded (swizzle.h) where the warp blocks start on power-of-two
  // chunk pairs (tile.h: lane_base): head_dim 64, 128 and 256. Measured on the H200 at seqlen
  // 8192 (session 13 run 1, TFLOP/s padded -> swizzled, non-causal / causal): d64 242 -> 252 /
  // 229 -> 239, d128 274 -> 287 / 252 -> 260, d256 230 -> 247 / 219 -> 240 (the padded tiles'
  // cp.async stores cost 2.6x their ideal shared wavefronts, session 12 run 4); d128 on 64 keys
  // (99 KB GPUs) 192 -> 210. With dropout 0.1 / softcap 30 (run 2): -1% to +4%.
  static constexpr bool kSwizzleFits = kD % 64 == 0 && kDv % 64 == 0 && kBlockN % 64 == 0 &&
                                       swz_pow2(kColsS / 8) && swz_pow2(kNTQC / 2) &&
                                       (GridQ::kCols1 / 16) % (kNTQC / 2) == 0 && swz_pow2(kMTKV) &&
                                       swz_pow2(kColsK / 16) && swz_pow2(kColsV / 16);
  static constexpr bool kSwizzle = kSwizzle_ >= 0 ? kSwizzle_ == 1 : kSwizzleFits;
  // P and dS to shared memory by stmatrix (sm_90 builds, the plain kernel; four 8 x 8 blocks an
  // instruction: 16 stores a thread a step at head_dim 64 instead of 64 STS.32) instead of one
  // 32-bit store a pair, at tiers 32, 64 and 256. Measured on the H200 (session 24, tune at seqlen
  // 8192, two rounds, TFLOP/s stmatrix / 32-bit stores, non-causal, causal): d32 177 / 170, 168 /
  // 162; d64 261 / 248, 247 / 235 (the d64 kernel's MIO-throttle stalls, 0.90 an instruction
  // against FA2's 0.30); d256 (with the split) 256 / 243, 251 / 241. With the split at d128 284 /
  // 298 (4 bytes of spill), d192 220 / 223, causal 213 / 221; d160 even. The extras kernels keep
  // the 32-bit stores. FLASHATTN_SM80_BWD_STMATRIX=0 builds them everywhere.
  static constexpr bool kStmatrix =
      kStmatrix_ >= 0 ? kStmatrix_ == 1
                      : kD == kDv && (kD == 32 || kD == 64 || kD == 256) && FLASHATTN_SM80_BWD_STMATRIX;
  // The plain kernel's step in FA2's order (bwd_kernel: split_step): P before the dP GEMM, its
  // exponentials and stores between dP's k-steps, at tiers 128, 160, 192 and 256. Measured on the
  // H200 at seqlen 8192 (sm80 kernels forced, TFLOP/s split / before): session 23, d128 301 /
  // 287, causal 283 / 270, 2k 285 / 271; session 24 (tune), d160 176 / 170, causal 174 / 167;
  // d192 223 / 221, causal 221 / 214; d256 with stmatrix 256 / 246, causal 251 / 243 (without it
  // 243 / 246). Not at 32 (168 / 169) or 64 (stmatrix alone 261, with the split 262, causal 247 /
  // 245: even, and the split spills 8 bytes there). FLASHATTN_SM80_BWD_SPLIT_P=0 builds the old
  // order everywhere.
  static constexpr bool kSplitP =
      kSplitP_ >= 0 ? kSplitP_ == 1
                    : kD == kDv && (kD == 128 || kD == 160 || kD == 192 || kD == 256) && FLASHATTN_SM80_BWD_SPLIT_P;
  // The per-step mask test's codegen form (semantics::Mask::tile_unmasked): by range at head_dim
  // 64 (+1.2% on the H200, session 26), early exits elsewhere (+4-5% at 128 and 256).
  static constexpr bool kMaskByRange = kD == 64 && kDv == 64;
  static_assert(!kSwizzle || kSwizzleFits,
                "swizzled tiles: 128-byte segments, warp blocks on power-of-two chunk pairs");
  static constexpr int kPitchQ = kSwizzle ? kD : Pitch<kD>::value;
  static constexpr int kPitchV = kSwizzle ? kDv : Pitch<kDv>::value;
  static constexpr int kPitchS = kSwizzle ? kBlockN : Pitch<kBlockN>::value;
  static constexpr int kSmemK = kBlockN * kPitchQ;
  static constexpr int kSmemV = kBlockN * kPitchV;
  static constexpr int kSmemQ = kBlockM * kPitchQ;
  static constexpr int kSmemdO = kBlockM * kPitchV;
  static constexpr int kSmemS = kBlockM * kPitchS;
  static constexpr int bytes(int stages) {
    return (kSmemK + kSmemV + stages * (kSmemQ + kSmemdO) + 2 * kSmemS) * 2 + stages * 2 * kBlockM * 4;
  }
  // Q, dO, LSE and D double-buffered where the device's shared memory allows (every tier on an
  // H100/H200, the smaller ones on an A100), else one buffer: the launch decides at run time
  // (BwdParams::stages), so one instantiation serves both. kSmemBytes is the minimum (selector).
  static constexpr int kStagesForced = kStagesOverride;
  static constexpr int kSmemBytes = bytes(kStagesOverride ? kStagesOverride : 1);
  static_assert(kStagesOverride >= 0 && kStagesOverride <= 2, "one or two Q/dO buffers");
  static_assert(kBlockM % (16 * kWarpsMS) == 0 && kColsS % 16 == 0, "S/dP warp blocks: whole tiles");
  static_assert(2 * (kColsS / 8) <= 32, "one 32-bit dropout keep mask per row and warp");
};

// kExtras: dropout or a score modifier may be on (as in fwd_kernel).
template <typename T, typename C, bool kExtras>
__global__ void __launch_bounds__(C::kThreads, 1) bwd_kernel(const __grid_constant__ BwdParams bp) {
  constexpr int kD = C::kD, kDv = C::kDv;
  constexpr int kBlockM = C::kBlockM, kBlockN = C::kBlockN;
  constexpr int kMTS = C::kMTS, kNTS = C::kColsS / 8;
  using GKV = typename C::GridKV;
  using GQ = typename C::GridQ;
  constexpr int kMTKV = C::kMTKV, kColsK = C::kColsK, kColsV = C::kColsV;
  constexpr int kNTK = C::kNTK, kNTV = C::kNTV;
  static_assert(kColsK % 16 == 0 && kColsV % 16 == 0, "dK/dV warp columns: whole n-tile pairs");
  constexpr int kMTQ = GQ::kMT, kNTQ = GQ::kNT;
  constexpr int kNTQC = C::kNTQC;
  const FwdParams& p = bp.fwd;
  // (128-byte aligned: the swizzled tiles XOR address bits 4-6, swizzle.h)
  extern __shared__ __align__(128) unsigned char smem[];
  T* sK = reinterpret_cast<T*>(smem);
  T* sV = sK + C::kSmemK;
  T* sP = sV + C::kSmemV;
  T* sdS = sP + C::kSmemS;
  const int stages = bp.stages;  // stage st: sQ0 + st * kSmemQ, likewise sdO0, sLse0, sDsum0
  T* sQ0 = sdS + C::kSmemS;
  T* sdO0 = sQ0 + stages * C::kSmemQ;
  float* sLse0 = reinterpret_cast<float*>(sdO0 + stages * C::kSmemdO);  // natural-log LSE, as the forward wrote it
  float* sDsum0 = sLse0 + stages * kBlockM;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int gr = lane / 4, tq = lane % 4;
  // This warp's blocks: S/dP rows srow0.., keys scol0..; dK/dV keys kv_row0.., columns kv_col
  // (in units of warp columns); dQ rows q_row0.., columns q_col0...
  const int srow0 = (warp / C::kWarpsNS) * kMTS * 16, scol0 = (warp % C::kWarpsNS) * C::kColsS;
  const int kv_row0 = (warp / GKV::kWarpsC) * kMTKV * 16, kv_wc = warp % GKV::kWarpsC;
  const int q_row0 = (warp / GQ::kWarpsC) * kMTQ * 16, q_col0 = (warp % GQ::kWarpsC) * GQ::kCols1;

  // Key blocks of one (batch, kv head) are adjacent and in increasing order: the deterministic
  // dQ order below relies on block n - 1 starting no later than block n.
  // Past bp.tail.tile0 (BwdParams::tail; the plain kernel only: in the one with extras, whose
  // registers are full, a tile no longer read off blockIdx spilled 4x more in its main loop at
  // head_dim 128): piece j of tile tile0 + r, steps [i_lo, i_hi) of its walk.
  constexpr bool kTail = !kExtras;
  int64_t bid = blockIdx.x;
  int i_lo = 0, i_hi = 0;  // i_hi 0: the whole walk
  if (kTail && bp.tail.pieces > 0 && bid >= bp.tail.tile0) {
    const int r = int(bid - bp.tail.tile0), q = bp.tail.pieces, nk = bp.tail.steps;
    const int j = r % q;
    bid = bp.tail.tile0 + r / q;
    i_lo = j * nk / q;
    i_hi = (j + 1) * nk / q;
  }
  const int n_block = int(bid % bp.num_n_blocks);
  const int64_t bhk = bid / bp.num_n_blocks;
  const int b = int(bhk / p.num_heads_kv), hk = int(bhk % p.num_heads_kv);
  const SeqInfo seq(p, b);
  const int n0 = n_block * kBlockN;
  if (n0 >= seq.seqlen_k) return;
  const int cols = min(kBlockN, seq.seqlen_k - n0);

  const semantics::Mask mask =
      semantics::make_mask(seq.seqlen_q, seq.seqlen_k, p.window_left, p.window_right, p.causal);
  const QueryWalk walk(mask, n0, cols, kBlockM, p.group, bp.rotate_walk, n_block, bp.num_n_blocks);
  const int steps = i_hi > 0 ? i_hi - i_lo : walk.steps;  // (a tail only where every walk has tail.steps)

  const int64_t k_off = b * p.k.batch_stride + (seq.row_begin_k + n0) * p.k.row_stride + hk * p.k.head_stride;
  const int64_t v_off = b * p.v.batch_stride + (seq.row_begin_k + n0) * p.v.row_stride + hk * p.v.head_stride;
  constexpr bool kSwz = C::kSwizzle;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr bool kStsm = C::kStmatrix && !kExtras;  // (stmatrix: sm_90+, the plain kernel)
#else
  constexpr bool kStsm = false;
#endif
  load_tile<kBlockN, kD, C::kThreads, kSwz>(sK, static_cast<const T*>(p.k.data) + k_off, p.k.row_stride, cols,
                                      p.head_dim, p.aligned);
  load_tile<kBlockN, kDv, C::kThreads, kSwz>(sV, static_cast<const T*>(p.v.data) + v_off, p.v.row_stride, cols,
                                       p.head_dim_v, p.aligned);

  using Step = QueryWalk::Step;
  auto next = [&](Step t) { return walk.next(t); };
  // Every copy is asynchronous (rows past the sequence read as zeros), so a step's loads cost
  // the issuing warps nothing until the wait at the top of the step that uses them.
  auto load_step = [&](Step t, int st) {
    const int m0 = t.m_block * kBlockM;
    const int rows = min(kBlockM, seq.seqlen_q - m0);
    const T* gQ = static_cast<const T*>(p.q.data) + b * p.q.batch_stride +
                  (seq.row_begin_q + m0) * p.q.row_stride + t.h * p.q.head_stride;
    const T* gdO = static_cast<const T*>(bp.dout.data) + b * bp.dout.batch_stride +
                   (seq.row_begin_q + m0) * bp.dout.row_stride + t.h * bp.dout.head_stride;
    load_tile<kBlockM, kD, C::kThreads, kSwz>(sQ0 + st * C::kSmemQ, gQ, p.q.row_stride, rows, p.head_dim, p.aligned);
    load_tile<kBlockM, kDv, C::kThreads, kSwz>(sdO0 + st * C::kSmemdO, gdO, bp.dout.row_stride, rows, p.head_dim_v,
                                         p.aligned);
    if (tid < 2 * kBlockM) {
      const int r = tid % kBlockM;
      const bool valid = r < rows;
      const float* src =
          tid < kBlockM
              ? p.lse + b * p.lse_batch_stride + t.h * p.lse_head_stride + seq.row_begin_q + m0 + (valid ? r : 0)
              : bp.dsum + t.h * bp.dsum_head_stride + seq.row_global_q + m0 + (valid ? r : 0);
      float* dst = (tid < kBlockM ? sLse0 : sDsum0) + st * kBlockM + r;
      prim::cp_async_4(prim::cvta_shared(dst), src, valid ? 4 : 0);
    }
    prim::cp_async_commit();
  };
  Step cur = i_lo > 0 ? walk.at(hk * p.group, i_lo) : walk.first(hk * p.group);
  if (steps > 0) load_step(cur, 0);
  else prim::cp_async_commit();

  float acc_dk[kMTKV][kNTK][4], acc_dv[kMTKV][kNTV][4];
  zero(acc_dk);
  zero(acc_dv);

  for (int s = 0; s < steps; ++s, cur = next(cur)) {
    const int h = cur.h, m_block = cur.m_block;
    const int m0 = m_block * kBlockM;
    const int rows = min(kBlockM, seq.seqlen_q - m0);
    const int st = stages == 2 ? (s & 1) : 0;
    const T* sQ = sQ0 + st * C::kSmemQ;
    const T* sdO = sdO0 + st * C::kSmemdO;
    const float* sLse = sLse0 + st * kBlockM;
    const float* sDsum = sDsum0 + st * kBlockM;
    prim::cp_async_wait<0>();
    // This step's Q, dO, LSE, D landed; every warp is done with step s - 1: its P and dS, and
    // (two stages) the other stage's buffers, which the next loads overwrite.
    __syncthreads();
    if (stages == 2 && s + 1 < steps) load_step(next(cur), st ^ 1);

    float acc_s[kMTS][kNTS][4], acc_dp[kMTS][kNTS][4];
    zero(acc_s);
    zero(acc_dp);
    warp_gemm_ss<kMTS, kNTS, kD, Operand::kARowMajor, Operand::kBNMajor, C::kPitchQ, C::kPitchQ, kSwz>(
        acc_s, sQ + srow0 * C::kPitchQ, sK + scol0 * C::kPitchQ, lane);
    constexpr bool kSplit = C::kSplitP && !kExtras;
    // Row r's LSE in log2 units (a row that saw no key: +inf, so P = 0), and the offset of the
    // column pair 2 tq of n-tile nt of this warp's S block in row r of P and dS (swizzled: the
    // row's first pair with the n-tile's chunk XORed in, scol0 / 8 a multiple of kNTS, a power of
    // two: swz_store_offset).
    auto row_lse = [&](int r) {
      const float lse_raw = sLse[r];
      return lse_raw == -INFINITY ? INFINITY : lse_raw * kLog2e;
    };
    auto s_at = [&](int r, int nt) {
      return kSwz ? swz_store_offset(r, scol0 + 2 * tq, nt, C::kPitchS) : r * C::kPitchS + scol0 + nt * 8 + 2 * tq;
    };
    if constexpr (!kSplit)
      warp_gemm_ss<kMTS, kNTS, kDv, Operand::kARowMajor, Operand::kBNMajor, C::kPitchV, C::kPitchV, kSwz>(
          acc_dp, sdO + srow0 * C::kPitchV, sV + scol0 * C::kPitchV, lane);
    // kStsm: this lane's stmatrix row address in P (block (0, 0) of the warp's S block; dS at
    // the same offset in its tile), ldmatrix's A-operand order (tile.h: lane_base).
    [[maybe_unused]] const uint32_t sts_base =
        kStsm ? lane_base<Operand::kARowMajor, C::kPitchS, kSwz>(sP + srow0 * C::kPitchS, lane, scol0) : 0u;
    // kStsm: m-tile mt's packed pairs of both row halves (pk[hf][nt]) to P (tile 0) or dS (tile
    // 1), n-tiles 2 np, 2 np + 1 at a time: matrices (rows 0-7 | 8-15) x (columns 0-7 | 8-15) of
    // the 16 x 16 block at (mt, np), as ldmatrix_x4 reads them back.
    [[maybe_unused]] auto stsm_rows = [&](int tile, int mt, const uint32_t(&pk)[2][kNTS]) {
#pragma unroll
      for (int np = 0; np < kNTS / 2; ++np) {
        const uint32_t at = block_addr<C::kPitchS, kSwz>(sts_base, mt * 16, np) + uint32_t(tile * C::kSmemS) * 2u;
        prim::stmatrix_x4(at, {pk[0][2 * np], pk[1][2 * np], pk[0][2 * np + 1], pk[1][2 * np + 1]});
      }
    };

    // The plain kernel (kSplitP): P = exp2(S scale_log2 - LSE) in place of S and to shared memory
    // first, then the dP GEMM, then dS = P (dP - D), all in one basic block per mask case, so that
    // the compiler can interleave P's exponentials and stores with dP's ldmatrix and mma (as FA2
    // orders its step); with the GEMMs first, the branch between them and the softmax left the
    // tensor pipe idle through the whole elementwise phase. kMasked as below.
    auto split_step = [&](auto masked_tag) {
      constexpr bool kMasked = decltype(masked_tag)::value;
      // P of row group g = (mt, hf): after k-step kk of the dP GEMM, groups [kk G / K16, (kk + 1) G / K16).
      constexpr int kGroups = 2 * kMTS, kK16 = kDv / 16;
      [[maybe_unused]] uint32_t pk_p[kMTS][2][kNTS];  // kStsm: P's pairs until both halves of an m-tile are in
      auto p_rows = [&](int kk) {
#pragma unroll
        for (int g = 0; g < kGroups; ++g) {
          if (g < kk * kGroups / kK16 || g >= (kk + 1) * kGroups / kK16) continue;
          const int mt = g / 2, hf = g % 2;
          const int r = srow0 + mt * 16 + gr + hf * 8;
          const int i = m0 + r;
          const float lse = row_lse(r);
          int lo = 0, hi = 0;
          if (kMasked && r < rows) mask.key_range(i, i + 1, &lo, &hi);
#pragma unroll
          for (int nt = 0; nt < kNTS; ++nt) {
            float pv[2];
#pragma unroll
            for (int e = 0; e < 2; ++e) {
              const int j = n0 + scol0 + nt * 8 + 2 * tq + e;
              float pr = prim::exp2_approx(acc_s[mt][nt][2 * hf + e] * p.scale_log2 - lse);
              if (kMasked && !(j >= lo && j < hi)) pr = 0.0f;
              acc_s[mt][nt][2 * hf + e] = pr;
              pv[e] = pr;
            }
            if constexpr (kStsm) pk_p[mt][hf][nt] = prim::pack2(pv[0], pv[1], T());
            else *reinterpret_cast<uint32_t*>(sP + s_at(r, nt)) = prim::pack2(pv[0], pv[1], T());
          }
          if constexpr (kStsm)
            if (hf == 1) stsm_rows(0, mt, pk_p[mt]);
        }
      };
      warp_gemm_ss<kMTS, kNTS, kDv, Operand::kARowMajor, Operand::kBNMajor, C::kPitchV, C::kPitchV, kSwz>(
          acc_dp, sdO + srow0 * C::kPitchV, sV + scol0 * C::kPitchV, lane, 0, 0, p_rows);
#pragma unroll
      for (int mt = 0; mt < kMTS; ++mt) {
        [[maybe_unused]] uint32_t pk_ds[2][kNTS];
#pragma unroll
        for (int hf = 0; hf < 2; ++hf) {
          const int r = srow0 + mt * 16 + gr + hf * 8;
          const float dsum = sDsum[r];
#pragma unroll
          for (int nt = 0; nt < kNTS; ++nt) {
            const float ds0 = acc_s[mt][nt][2 * hf] * (acc_dp[mt][nt][2 * hf] - dsum);
            const float ds1 = acc_s[mt][nt][2 * hf + 1] * (acc_dp[mt][nt][2 * hf + 1] - dsum);
            if constexpr (kStsm) pk_ds[hf][nt] = prim::pack2(ds0, ds1, T());
            else *reinterpret_cast<uint32_t*>(sdS + s_at(r, nt)) = prim::pack2(ds0, ds1, T());
          }
        }
        if constexpr (kStsm) stsm_rows(1, mt, pk_ds);
      }
    };

    // P (with dropout, as it multiplied V) and dS = P * (dP * keep - D) * d(score)/d(dot), to
    // shared memory. kMasked: elements outside the sequences (a partial block) or the mask get
    // P = 0, hence dS = 0; tiles inside everything take the branch-free instantiation.
    // kHoistMod (head_dim tiers <= 64): the score-modifier branch taken once per tile (mod_tag),
    // not per element; that variant cut the d64 extras kernel's spills from 236 to 48 bytes but
    // raised d128's (168 -> 496) and d256's (8 -> 148), so the larger tiers keep the branch per
    // element (mod_tag unused there).
    constexpr bool kHoistMod = C::kD <= 64;
    auto softmax_grad = [&](auto masked_tag, auto mod_tag) {
      constexpr bool kMasked = decltype(masked_tag)::value;
      constexpr bool kModTag = decltype(mod_tag)::value;
      semantics::ScoreMod<float> mod;
      if constexpr (kExtras) {
        mod.scale = p.scale;
        mod.softcap = p.softcap;
        mod.alibi_slope = p.alibi != nullptr ? p.alibi[b * p.alibi_batch_stride + h] : 0.0f;
        mod.diag_offset = int64_t(seq.seqlen_k) - seq.seqlen_q;
      }
      const uint64_t bh_dropout = uint64_t(b) * p.num_heads + h;
#pragma unroll
      for (int mt = 0; mt < kMTS; ++mt) {
        [[maybe_unused]] uint32_t pk_p[2][kNTS], pk_ds[2][kNTS];  // kStsm: the packed pairs of both row halves
#pragma unroll
        for (int hf = 0; hf < 2; ++hf) {
          const int r = srow0 + mt * 16 + gr + hf * 8;
          const int i = m0 + r;
          const float lse = row_lse(r);
          const float dsum = sDsum[r];
          // Masked tiles of the plain kernel: the row's visible keys [lo, hi) (key_range of one
          // row; none for rows past the sequence), two 32-bit compares an element instead of
          // Mask::visible (the extras kernel keeps Mask::visible: two more live registers there
          // cost it spills).
          int lo = 0, hi = 0;
          if (kMasked && !kExtras && r < rows) mask.key_range(i, i + 1, &lo, &hi);
          // Kept bits of this row's columns: Philox in a rolled loop (as in fwd_kernel).
          uint32_t keep_mask = 0xffffffffu;
          if (kExtras && p.dropout.enabled())
            keep_mask = p.dropout.keep_mask_pairs(bh_dropout, i, n0 + scol0 + 2 * tq, kNTS);
          // ALiBi's distance: this base minus a constant column offset (ScoreMod::alibi_bias).
          const float dist0 = float(i + int(mod.diag_offset) - n0 - scol0 - 2 * tq);
#pragma unroll
          for (int nt = 0; nt < kNTS; ++nt) {
            const int c = scol0 + nt * 8 + 2 * tq;
            float pv[2], dsv[2];
#pragma unroll
            for (int e = 0; e < 2; ++e) {
              const int j = n0 + c + e;
              const float dot = acc_s[mt][nt][2 * hf + e];
              float pr, grad;
              if (kExtras && (kHoistMod ? kModTag : p.has_score_mod)) {
                pr = prim::exp2_approx(mod.apply_dist_grad(dot, dist0 - float(nt * 8 + e), &grad) * kLog2e - lse);
              } else {
                pr = prim::exp2_approx(dot * p.scale_log2 - lse);
                grad = kExtras ? p.scale : 1.0f;  // plain: the scale goes to dK and dQ once (below)
              }
              if (kMasked && !(kExtras ? r < rows && c + e < cols && mask.visible(i, j) : j >= lo && j < hi)) pr = 0.0f;
              float dp = acc_dp[mt][nt][2 * hf + e];
              float pd = pr;
              if (kExtras && p.dropout.enabled()) {
                const bool kept = (keep_mask >> (2 * nt + e)) & 1u;
                pd = kept ? pr * p.dropout.keep_scale : 0.0f;
                dp = kept ? dp * p.dropout.keep_scale : 0.0f;
              }
              pv[e] = pd;
              dsv[e] = kExtras ? pr * (dp - dsum) * grad : pr * (dp - dsum);
            }
            if constexpr (kStsm) {
              pk_p[hf][nt] = prim::pack2(pv[0], pv[1], T());
              pk_ds[hf][nt] = prim::pack2(dsv[0], dsv[1], T());
            } else {
              const int at = s_at(r, nt);
              *reinterpret_cast<uint32_t*>(sP + at) = prim::pack2(pv[0], pv[1], T());
              *reinterpret_cast<uint32_t*>(sdS + at) = prim::pack2(dsv[0], dsv[1], T());
            }
          }
        }
        if constexpr (kStsm) {
          stsm_rows(0, mt, pk_p);
          stsm_rows(1, mt, pk_ds);
        }
      }
    };
    const bool full = rows == kBlockM && cols == kBlockN &&
                      mask.template tile_unmasked<C::kMaskByRange>(m0, m0 + kBlockM, n0, n0 + kBlockN);
    bool hoisted_mod = false;
    if constexpr (kExtras && kHoistMod) hoisted_mod = p.has_score_mod;
    if constexpr (kSplit) {
      if (full) split_step(std::false_type());
      else split_step(std::true_type());
    } else if (hoisted_mod) {
      if (full) softmax_grad(std::false_type(), std::true_type());
      else softmax_grad(std::true_type(), std::true_type());
    } else {
      if (full) softmax_grad(std::false_type(), std::false_type());
      else softmax_grad(std::true_type(), std::false_type());
    }
    __syncthreads();  // P and dS complete

    // dQ first: its reductions drain while the dV and dK GEMMs run. (Issued two by two between
    // the dV GEMM's k-steps instead, FA2's order, they cost 2.6% at head_dim 64: session 26.)
    if (bp.deterministic) {
      // Key blocks add into a query block in increasing order: block n waits until the blocks
      // before it (from the first one that reaches this query block) have added theirs.
      int k_lo, k_hi;
      mask.key_range(m0, m0 + rows, &k_lo, &k_hi);
      const int expected = n_block - k_lo / kBlockN;
      int32_t* sem = bp.semaphore + (int64_t(b) * p.num_heads + h) * bp.num_m_blocks + m_block;
      if (tid == 0)
        while (*reinterpret_cast<volatile int32_t*>(sem) != expected) {
        }
      __syncthreads();
      __threadfence();
    }
    const int64_t dq_row_stride = int64_t(p.num_heads) * bp.dq_accum_dim;
    float* gdq_tile = bp.dq_accum + ((seq.row_global_q + m0) * p.num_heads + h) * int64_t(bp.dq_accum_dim);
    float* gdq = gdq_tile + (q_row0 + gr) * dq_row_stride + q_col0 + 2 * tq;
    // Blocked layout (BwdParams::dq_blocked; tiers whose head_dim is a multiple of 64): this
    // warp's 8 x 8 block of n-tile k, rows q_row0 + 16 mt + 8 hf.., is the 64-float run at row
    // q_row0 + 16 mt + 8 hf + (q_col0 / 8 + k) / kBPS, column ((q_col0 / 8 + k) % kBPS) * 64; lane l
    // adds floats 2l, 2l + 1 of it. kBPS: 8 x 8 blocks per dq_accum row. Both layouts address
    // n-tile k as base + (k / kBPS) * k_row + (k % kBPS) * k_col (natural: k_row = 8 kBPS, k_col = 8).
    constexpr bool kBlockedTier = kD % 64 == 0;
    constexpr int kBPS = kD / 64 > 0 ? kD / 64 : 1;
    static_assert(!kBlockedTier || (GQ::kCols1 / 8) % kBPS == 0, "a warp's dQ columns start on a dq_accum row");
    const bool dq_blk = kBlockedTier && bp.dq_blocked;
    float* gdq_blk = gdq_tile + (q_row0 + q_col0 / 8 / kBPS) * dq_row_stride + 2 * lane;
    const bool dq_full = rows == kBlockM && p.head_dim == kD;
    // dQ's reduction (mt, hf, nt) of column chunk qc: the column pair (tq, tq + 1) of the n-tile,
    // one red.global.add.v2.f32 on sm_90 (8-byte aligned: dq_accum_dim is even). guarded (a
    // partial query block or a padded head_dim): a group of 8 existing rows under dq_blocked is
    // blocked (head_dim == kD there, no column guard); else natural, each lane's row and columns
    // guarded. For an odd head_dim a pair's second column is padding, where K is zero-filled, so
    // it adds 0 inside the row. (Four columns per reduction by swapping halves between lane pairs
    // measured slower: bench/NOTES.md.)
    auto red_dq = [&](const float(&acc_dq)[kMTQ][kNTQC][4], int qc, int mt, int hf, int nt, bool guarded) {
      const bool blk = dq_blk && (!guarded || q_row0 + mt * 16 + hf * 8 + 8 <= rows);
      if (guarded && !blk && q_row0 + mt * 16 + gr + hf * 8 >= rows) return;
      float* base = (blk ? gdq_blk : gdq) + (mt * 16 + hf * 8) * dq_row_stride;
      const int64_t k_row = blk ? dq_row_stride : 8 * kBPS;
      const int k_col = blk ? 64 : 8;
      const int k = qc * kNTQC + nt;  // (compile-time: k / kBPS, k % kBPS)
      if (!guarded || blk || q_col0 + k * 8 + 2 * tq < p.head_dim)
        prim::red_add2(base + (k / kBPS) * k_row + (k % kBPS) * k_col, acc_dq[mt][nt][2 * hf],
                       acc_dq[mt][nt][2 * hf + 1]);
    };
    auto gemm_dq = [&](float(&acc_dq)[kMTQ][kNTQC][4], int qc) {
      zero(acc_dq);
      if constexpr (kSwz)  // K's columns from q_col0 + qc kNTQC 8: a multiple of 16 kNTQC / 2 pairs
        warp_gemm_ss<kMTQ, kNTQC, kBlockN, Operand::kARowMajor, Operand::kBKMajor, C::kPitchS, C::kPitchQ, true>(
            acc_dq, sdS + q_row0 * C::kPitchS, sK, lane, 0, q_col0 + qc * kNTQC * 8);
      else
        warp_gemm_ss<kMTQ, kNTQC, kBlockN, Operand::kARowMajor, Operand::kBKMajor, C::kPitchS, C::kPitchQ>(
            acc_dq, sdS + q_row0 * C::kPitchS, sK + q_col0 + qc * kNTQC * 8, lane);
    };
#pragma unroll
    for (int qc = 0; qc < kNTQ / kNTQC; ++qc) {
      float acc_dq[kMTQ][kNTQC][4];
      gemm_dq(acc_dq, qc);
      auto add_dq = [&](auto guarded_tag) {
#pragma unroll
        for (int mt = 0; mt < kMTQ; ++mt)
#pragma unroll
          for (int hf = 0; hf < 2; ++hf)
#pragma unroll
            for (int nt = 0; nt < kNTQC; ++nt) red_dq(acc_dq, qc, mt, hf, nt, decltype(guarded_tag)::value);
      };
      if (dq_full) add_dq(std::false_type());
      else add_dq(std::true_type());
    }
    if (bp.deterministic) {
      __threadfence();
      __syncthreads();
      if (tid == 0) atomicAdd(bp.semaphore + (int64_t(b) * p.num_heads + h) * bp.num_m_blocks + m_block, 1);
    }

    if constexpr (kSwz) {  // P^T's columns from kv_row0 (kMTKV pairs a warp), dO's / Q's from kv_wc kCols
      warp_gemm_ss<kMTKV, kNTV, kBlockM, Operand::kATransposed, Operand::kBKMajor, C::kPitchS, C::kPitchV, true>(
          acc_dv, sP, sdO, lane, kv_row0, kv_wc * kColsV);
      warp_gemm_ss<kMTKV, kNTK, kBlockM, Operand::kATransposed, Operand::kBKMajor, C::kPitchS, C::kPitchQ, true>(
          acc_dk, sdS, sQ, lane, kv_row0, kv_wc * kColsK);
    } else {
      warp_gemm_ss<kMTKV, kNTV, kBlockM, Operand::kATransposed, Operand::kBKMajor, C::kPitchS, C::kPitchV>(
          acc_dv, sP + kv_row0, sdO + kv_wc * kColsV, lane);
      warp_gemm_ss<kMTKV, kNTK, kBlockM, Operand::kATransposed, Operand::kBKMajor, C::kPitchS, C::kPitchQ>(
          acc_dk, sdS + kv_row0, sQ + kv_wc * kColsK, lane);
    }
    if (stages == 1 && s + 1 < steps) {
      __syncthreads();  // the one stage's Q, dO, LSE, D are free
      load_step(next(cur), 0);
    }
  }
  prim::cp_async_wait<0>();

  // Softmax's scale, left out of the plain kernel's dS (dQ takes it in launch.cu's conversion).
  if constexpr (!kExtras) scale(acc_dk, p.scale);
  T* gdK = static_cast<T*>(bp.dk.data) + b * bp.dk.batch_stride + (seq.row_begin_k + n0) * bp.dk.row_stride +
           hk * bp.dk.head_stride;
  T* gdV = static_cast<T*>(bp.dv.data) + b * bp.dv.batch_stride + (seq.row_begin_k + n0) * bp.dv.row_stride +
           hk * bp.dv.head_stride;
  if (kTail && bp.tail.pieces > 0 && int64_t(blockIdx.x) >= bp.tail.tile0) {
    // A piece of a tail tile (BwdParams::tail): add dK, dV into the tile's slot; the last of its
    // pieces to count itself reads the sums back (through L2: ld.global.cg) and writes them.
    constexpr int kF4 = kMTKV * (kNTK + kNTV);  // float4s a thread
    static_assert(kF4 * 4 * C::kThreads == kBlockN * (kD + kDv), "the slot's size (launch.h)");
    const int k = int(blockIdx.x - bp.tail.tile0) / bp.tail.pieces;
    float* part = bp.tail.part + (int64_t(k) * kF4 * C::kThreads + tid) * 4;
#pragma unroll
    for (int mt = 0; mt < kMTKV; ++mt) {
#pragma unroll
      for (int nt = 0; nt < kNTK; ++nt) prim::red_add4(part + (mt * kNTK + nt) * C::kThreads * 4, acc_dk[mt][nt]);
#pragma unroll
      for (int nt = 0; nt < kNTV; ++nt)
        prim::red_add4(part + (kMTKV * kNTK + mt * kNTV + nt) * C::kThreads * 4, acc_dv[mt][nt]);
    }
    __threadfence();
    __syncthreads();
    int last = 0;
    if (tid == 0) last = atomicAdd(bp.tail.count + k, 1) == bp.tail.pieces - 1;
    if (!__syncthreads_or(last)) return;
    __threadfence();
#pragma unroll
    for (int mt = 0; mt < kMTKV; ++mt) {
#pragma unroll
      for (int nt = 0; nt < kNTK; ++nt) {
        const float4 x = __ldcg(reinterpret_cast<const float4*>(part + (mt * kNTK + nt) * C::kThreads * 4));
        acc_dk[mt][nt][0] = x.x, acc_dk[mt][nt][1] = x.y, acc_dk[mt][nt][2] = x.z, acc_dk[mt][nt][3] = x.w;
      }
#pragma unroll
      for (int nt = 0; nt < kNTV; ++nt) {
        const float4 x =
            __ldcg(reinterpret_cast<const float4*>(part + (kMTKV * kNTK + mt * kNTV + nt) * C::kThreads * 4));
        acc_dv[mt][nt][0] = x.x, acc_dv[mt][nt][1] = x.y, acc_dv[mt][nt][2] = x.z, acc_dv[mt][nt][3] = x.w;
      }
    }
  }
  store_acc(acc_dk, gdK, bp.dk.row_stride, kv_row0, kv_wc * kColsK, cols, p.head_dim, p.aligned, lane);
  store_acc(acc_dv, gdV, bp.dv.row_stride, kv_row0, kv_wc * kColsV, cols, p.head_dim_v, p.aligned, lane);
}

}  // namespace flashattn::cuda::sm80
