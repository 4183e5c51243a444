// Forward kernel of the sm80 path (mma.sync m16n8k16, ldmatrix, cp.async): one CTA per
// (query block, batch, head); each warp owns 16 * kMT query rows and runs the online softmax over
// the key blocks the mask lets the block see. K and V have one shared-memory buffer each, and
// their loads overlap the GEMM on the other (load V_n during S = Q K_n^T, K_{n+1} during P V_n).
// Masking, score modifiers and dropout come from src/semantics; nothing here redefines them.
#pragma once

#include <cmath>

#include "cuda/prim/math.h"
#include "cuda/sm80/params.h"
#include "cuda/sm80/tile.h"
#include "semantics/softmax.h"

namespace flashattn::cuda::sm80 {

// Tile shape of one forward instantiation. The tier defaults come first; the overrides exist
// for bench/gpu/tune_sm80.cu, which times alternatives side by side (sizes: 0 = the tier
// default; the two switches: -1 = the tier default, 0 off, 1 on).
template <int kD_, int kDv_, int kNWarpsOverride = 0, int kBlockNOverride = 0, int kFusedScale_ = -1,
          int kBlockMOverride = 0, int kSkipRescale_ = -1, int kSwizzle_ = -1>
struct FwdConfig {
  static constexpr int kD = kD_, kDv = kDv_;
  static constexpr int kMaxD = kD > kDv ? kD : kDv;
  // Measured on the H200 at seqlen 8192 (bench/NOTES.md, session 12 runs 1-2; TFLOP/s,
  // non-causal / causal), four warps everywhere:
  //   head_dim <= 64:  128 queries x 128 keys, 32 rows a warp (316 / 295; 64 keys 281 / 263);
  //   <= 128:          128 x 64 with the skipped rescale below (d128 329 / 292, was 128 x 32,
  //                    313 / 275; d96 296 / 272, was 246 / 232; 128 x 64 without the skip
  //                    spills 136-144 bytes);
  //   above:           64 x 64, 16 rows a warp, two CTAs an SM, FlashAttention-2's H100 shape at
  //                    head_dim 256 (325 / 292, was 128 x 64 on eight warps, 287 / 256; d160 279
  //                    was 254, d192 296 was 269, d224 287 was 266).
  static constexpr int kNWarps = kNWarpsOverride ? kNWarpsOverride : 4;
  static constexpr int kThreads = kNWarps * 32;
  static constexpr int kBlockM = kBlockMOverride ? kBlockMOverride : kMaxD <= 128 ? 128 : 64;
  static constexpr int kBlockN = kBlockNOverride ? kBlockNOverride : kMaxD <= 64 ? 128 : 64;
  // O's rescale (2 * kDv / 8 FMUL a thread a row pair) after the exp pass, skipped when no row of
  // the warp raised its maximum in this key block (every alpha is 1: bit-identical). Costs 6-9%
  // at head_dim 64 and 256 (the rescale no longer interleaves with the exp pass); at 128 it is
  // what lets 64-key blocks fit the register file.
  static constexpr bool kSkipRescale = kSkipRescale_ >= 0 ? kSkipRescale_ == 1 : kMaxD > 64 && kMaxD <= 128;
  // The per-tile mask test's codegen form (semantics::Mask::tile_unmasked): by range at head_dim
  // 128 (+1.3% on the H200, session 26), early exits elsewhere (+6% at 64).
  static constexpr bool kMaskByRange = kD == 128 && kDv == 128;
  // Plain kernel only: the row maximum over raw dot products and the scale folded into the
  // exponent (exp2(dot * scale_log2 - max), one FFMA), as FlashAttention-2 does; saves one FMUL
  // per score (session 12 run 2, seqlen 8192: head_dim 64 316 -> 331 TFLOP/s, 256 325 -> 330).
  static constexpr bool kFusedScale = kFusedScale_ >= 0 ? kFusedScale_ == 1 : true;
  // Q, K and V tiles swizzled instead of padded (swizzle.h) at head_dim 64, 128 and 256 (the
  // padded tiles' cp.async stores cost 2.6x their ideal shared wavefronts, session 12 run 4).
  // Measured on the H200 at seqlen 8192 (session 13 runs 1-2, TFLOP/s padded -> swizzled,
  // non-causal / causal): d64 331 -> 339 / 308 -> 316, d128 329 -> 340 / 293 -> 299, d256 329 ->
  // 346 / 296 -> 317 (the eight-warp 128 x 64 tile of A100s: 287 -> 309); d192 299 -> 297 /
  // 277 -> 275, so it stays padded. The extras kernel (same config) moved -4% to +4%: dropout
  // 0.1 d64 -1.5%, d128 +1.5%, d256 +1.7%; softcap d128 -3%, d256 -4%.
  static constexpr bool kSwizzle = kSwizzle_ >= 0 ? kSwizzle_ == 1 : kD % 64 == 0 && kDv % 64 == 0 &&
                                                                         swz_pow2(kD / 64) && swz_pow2(kDv / 64);
  static constexpr int kMT = kBlockM / (16 * kNWarps);
  static constexpr int kNT = kBlockN / 8;  // n-tiles of S per warp
  static constexpr int kPitchQ = kSwizzle ? kD : Pitch<kD>::value;
  static constexpr int kPitchV = kSwizzle ? kDv : Pitch<kDv>::value;
  static constexpr int kSmemQ = kBlockM * kPitchQ;
  static constexpr int kSmemK = kBlockN * kPitchQ;
  static constexpr int kSmemV = kBlockN * kPitchV;
  static constexpr int kSmemBytes = (kSmemQ + kSmemK + kSmemV) * 2;
  static_assert(kMT >= 1 && kMT * 16 * kNWarps == kBlockM, "warps must tile the query block");
  static_assert(kBlockN % 16 == 0 && kDv % 16 == 0, "P V runs in whole k-steps and n-tile pairs");
  static_assert(kBlockN % 4 == 0, "dropout draws 4 columns per Philox call");
};

// kExtras: dropout or a score modifier (softcap, ALiBi) may be on. The plain instantiation
// (false) compiles that code out: it kept 255 registers live and spilled 424 bytes at hdim 128
// (measured run 1: 112 TFLOP/s against FA2's 346).
template <typename T, typename C, bool kExtras>
__global__ void __launch_bounds__(C::kThreads) fwd_kernel(const __grid_constant__ FwdParams p) {
  constexpr int kD = C::kD, kDv = C::kDv;
  constexpr int kMT = C::kMT, kNT = C::kNT, kBlockM = C::kBlockM, kBlockN = C::kBlockN;
  constexpr int kNTO = kDv / 8;
  // (128-byte aligned: the swizzled tiles XOR address bits 4-6, swizzle.h)
  extern __shared__ __align__(128) unsigned char smem[];
  T* sQ = reinterpret_cast<T*>(smem);
  T* sK = sQ + C::kSmemQ;
  T* sV = sK + C::kSmemK;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int gr = lane / 4, tq = lane % 4;

  // Tile scheduling: query blocks of one (batch, head) are adjacent (K/V stay in L2), the last
  // block first: under a causal mask it sees the most keys, so long CTAs start early.
  const int64_t bid = blockIdx.x;
  const int m_block = p.num_m_blocks - 1 - int(bid % p.num_m_blocks);
  const int64_t bh = bid / p.num_m_blocks;
  const int b = int(bh / p.num_heads), h = int(bh % p.num_heads);
  const SeqInfo seq(p, b);
  const int m0 = m_block * kBlockM;
  if (m0 >= seq.seqlen_q) return;
  const int rows = min(kBlockM, seq.seqlen_q - m0);
  const int hk = h / p.group;

  const semantics::Mask mask =
      semantics::make_mask(seq.seqlen_q, seq.seqlen_k, p.window_left, p.window_right, p.causal);
  semantics::ScoreMod<float> mod;
  mod.scale = p.scale;
  mod.softcap = p.softcap;
  mod.alibi_slope = p.alibi != nullptr ? p.alibi[b * p.alibi_batch_stride + h] : 0.0f;
  mod.diag_offset = int64_t(seq.seqlen_k) - seq.seqlen_q;

  const T* gQ = static_cast<const T*>(p.q.data) + b * p.q.batch_stride +
                (seq.row_begin_q + m0) * p.q.row_stride + h * p.q.head_stride;
  const T* gK = static_cast<const T*>(p.k.data) + b * p.k.batch_stride + seq.row_begin_k * p.k.row_stride +
                hk * p.k.head_stride;
  const T* gV = static_cast<const T*>(p.v.data) + b * p.v.batch_stride + seq.row_begin_k * p.v.row_stride +
                hk * p.v.head_stride;
  T* gO = static_cast<T*>(p.out.data) + b * p.out.batch_stride + (seq.row_begin_q + m0) * p.out.row_stride +
          h * p.out.head_stride;

  int key_lo, key_hi;
  mask.key_range(m0, m0 + rows, &key_lo, &key_hi);
  const int n_lo = key_lo / kBlockN;
  const int n_hi = key_hi > key_lo ? (key_hi + kBlockN - 1) / kBlockN : n_lo;

  float acc_o[kMT][kNTO][4];
  zero(acc_o);
  float row_max[kMT][2], row_sum[kMT][2];  // row_max in log2 units
#pragma unroll
  for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      row_max[mt][hf] = -INFINITY;
      row_sum[mt][hf] = 0.0f;
    }

  constexpr bool kSwz = C::kSwizzle;
  load_tile<kBlockM, kD, C::kThreads, kSwz>(sQ, gQ, p.q.row_stride, rows, p.head_dim, p.aligned);
  if (n_lo < n_hi)
    load_tile<kBlockN, kD, C::kThreads, kSwz>(sK, gK + int64_t(n_lo) * kBlockN * p.k.row_stride, p.k.row_stride,
                                        seq.seqlen_k - n_lo * kBlockN, p.head_dim, p.aligned);
  prim::cp_async_commit();

  const int warp_row0 = warp * kMT * 16;
  const uint64_t bh_dropout = uint64_t(b) * p.num_heads + h;
  for (int n = n_lo; n < n_hi; ++n) {
    const int n0 = n * kBlockN;
    prim::cp_async_wait<0>();
    __syncthreads();  // K_n landed; every warp is done with V_{n-1}
    load_tile<kBlockN, kDv, C::kThreads, kSwz>(sV, gV + int64_t(n0) * p.v.row_stride, p.v.row_stride,
                                         seq.seqlen_k - n0, p.head_dim_v, p.aligned);
    prim::cp_async_commit();

    float acc_s[kMT][kNT][4];
    zero(acc_s);
    warp_gemm_ss<kMT, kNT, kD, Operand::kARowMajor, Operand::kBNMajor, C::kPitchQ, C::kPitchQ, kSwz>(
        acc_s, sQ + warp_row0 * C::kPitchQ, sK, lane);

    prim::cp_async_wait<0>();
    __syncthreads();  // V_n landed; every warp is done with K_n
    if (n + 1 < n_hi) {
      load_tile<kBlockN, kD, C::kThreads, kSwz>(sK, gK + int64_t(n0 + kBlockN) * p.k.row_stride, p.k.row_stride,
                                          seq.seqlen_k - n0 - kBlockN, p.head_dim, p.aligned);
      prim::cp_async_commit();
    }

    // Scores in log2 units: modifiers, then the mask (only on tiles the mask cuts: one branch
    // per tile, not one per element).
    const bool unmasked = mask.template tile_unmasked<C::kMaskByRange>(m0, m0 + rows, n0, n0 + kBlockN);
    if (kExtras && p.has_score_mod) {  // (one branch outside the element loops)
      // ALiBi's distance: a row base (one conversion a row) minus a constant column offset,
      // exact (ScoreMod::alibi_bias).
      const float base0 = float(m0 + warp_row0 + gr + int(mod.diag_offset) - n0 - 2 * tq);
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const float dist = base0 + float(mt * 16 + (e / 2) * 8 - nt * 8 - (e % 2));
            acc_s[mt][nt][e] = mod.apply_dist(acc_s[mt][nt][e], dist) * kLog2e;
          }
    } else if (kExtras || !C::kFusedScale) {  // fused: a raw dot (scale_log2 > 0 keeps the max)
      scale(acc_s, p.scale_log2);
    }
    if (!unmasked) {
      // Each row keeps its visible keys (key_range of one row): two 32-bit compares an element.
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
        for (int hf = 0; hf < 2; ++hf) {
          const int i = m0 + warp_row0 + mt * 16 + gr + hf * 8;
          int lo, hi;
          mask.key_range(i, i + 1, &lo, &hi);
#pragma unroll
          for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
              const int j = n0 + nt * 8 + 2 * tq + e;
              if (j < lo || j >= hi) acc_s[mt][nt][2 * hf + e] = -INFINITY;
            }
        }
    }
    float alphas[kMT][2];
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        const int i = m0 + warp_row0 + mt * 16 + gr + hf * 8;
        float mx = -INFINITY;
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) mx = fmaxf(mx, fmaxf(acc_s[mt][nt][2 * hf], acc_s[mt][nt][2 * hf + 1]));
        mx = prim::quad_max(mx);
        if (!kExtras && C::kFusedScale) mx *= p.scale_log2;  // (-inf stays -inf)
        const float m_new = fmaxf(row_max[mt][hf], mx);
        const float m_use = semantics::safe_max(m_new);
        const float alpha = prim::exp2_approx(row_max[mt][hf] - m_use);
        row_max[mt][hf] = m_new;
        float sum = 0.0f;
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const float x = acc_s[mt][nt][2 * hf + e];
            const float pr = prim::exp2_approx(!kExtras && C::kFusedScale ? fmaf(x, p.scale_log2, -m_use) : x - m_use);
            acc_s[mt][nt][2 * hf + e] = pr;
            sum += pr;
          }
        row_sum[mt][hf] = row_sum[mt][hf] * alpha + sum;
        alphas[mt][hf] = alpha;
        if constexpr (!C::kSkipRescale) {  // here, interleaved with the exp pass
#pragma unroll
          for (int nt = 0; nt < kNTO; ++nt) {
            acc_o[mt][nt][2 * hf] *= alpha;
            acc_o[mt][nt][2 * hf + 1] *= alpha;
          }
        }
        // Dropout after the row sum: the normalizer counts every weight, kept or not.
        if (kExtras && p.dropout.enabled()) {
          // The Philox draws in a rolled loop (one copy of the Philox rounds instead of kNT): the
          // kept bits go into a register mask, applied in the unrolled loop below. This keeps
          // the with-extras kernels small enough to compile in reasonable time.
          static_assert(2 * kNT <= 32, "one 32-bit keep mask per row");
          const uint32_t keep_mask = p.dropout.keep_mask_pairs(bh_dropout, i, n0 + 2 * tq, kNT);
#pragma unroll
          for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
            for (int e = 0; e < 2; ++e)
              if (!((keep_mask >> (2 * nt + e)) & 1u)) acc_s[mt][nt][2 * hf + e] = 0.0f;
        }
      }

    if constexpr (C::kSkipRescale) {
      bool one = true;
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt) one = one && alphas[mt][0] == 1.0f && alphas[mt][1] == 1.0f;
      if (!__all_sync(0xffffffffu, one)) {
#pragma unroll
        for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
          for (int nt = 0; nt < kNTO; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc_o[mt][nt][e] *= alphas[mt][e / 2];
      }
    }

    // P as A fragments (the S accumulator layout of two n-tiles is one A block), then O += P V.
    uint32_t a[kMT][kBlockN / 16][4];
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
      for (int kk = 0; kk < kBlockN / 16; ++kk) {
        a[mt][kk][0] = prim::pack2(acc_s[mt][2 * kk][0], acc_s[mt][2 * kk][1], T());
        a[mt][kk][1] = prim::pack2(acc_s[mt][2 * kk][2], acc_s[mt][2 * kk][3], T());
        a[mt][kk][2] = prim::pack2(acc_s[mt][2 * kk + 1][0], acc_s[mt][2 * kk + 1][1], T());
        a[mt][kk][3] = prim::pack2(acc_s[mt][2 * kk + 1][2], acc_s[mt][2 * kk + 1][3], T());
      }
    warp_gemm_rs<kMT, kNTO, kBlockN, Operand::kBKMajor, C::kPitchV, kSwz>(acc_o, a, sV, lane);
  }
  prim::cp_async_wait<0>();

  // Epilogue: normalize, write LSE (natural log) and O.
  const float keep_scale = kExtras && p.dropout.enabled() ? p.dropout.keep_scale : 1.0f;
#pragma unroll
  for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const float total = prim::quad_sum(row_sum[mt][hf]);
      float inv, lse;
      semantics::softmax_finalize(row_max[mt][hf] * kLn2, total, &inv, &lse);
      const float f = inv * keep_scale;
#pragma unroll
      for (int nt = 0; nt < kNTO; ++nt) {
        acc_o[mt][nt][2 * hf] *= f;
        acc_o[mt][nt][2 * hf + 1] *= f;
      }
      const int r = warp_row0 + mt * 16 + gr + hf * 8;
      if (p.lse != nullptr && tq == 0 && r < rows)
        p.lse[b * p.lse_batch_stride + h * p.lse_head_stride + seq.row_begin_q + m0 + r] = lse;
    }
  store_acc(acc_o, gO, p.out.row_stride, warp_row0, 0, rows, p.head_dim_v, p.aligned, lane);
}

}  // namespace flashattn::cuda::sm80
