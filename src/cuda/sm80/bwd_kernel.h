// Backward kernels of the sm80 path. bwd_kernel: one CTA per (key block, batch, kv head) keeps
// dK and dV of its keys in registers while it walks every query head of its group and every
// query block the mask lets its keys reach: S = Q K^T and dP = dO V^T (warps along the queries),
// P and dS go through shared memory, dV += P^T dO and dK += dS^T Q (warps along the keys), and
// dQ += dS K is added in fp32 to a workspace (red.add, or in key-block order when deterministic).
// bwd_dsum_kernel (D = rowsum(dO * O)) runs before it, bwd_convert_dq_kernel after.
#pragma once

#include <cmath>

#include "cuda/prim/math.h"
#include "cuda/sm80/params.h"
#include "cuda/sm80/tile.h"

namespace flashattn::cuda::sm80 {

// Tile shape of one backward instantiation; the overrides are for bench/gpu/tune_sm80.cu.
template <int kD_, int kDv_, int kWSOverride = 0, int kStagesOverride = 0, int kBlockNOverride = 0>
struct BwdConfig {
  static constexpr int kD = kD_, kDv = kDv_;
  static constexpr int kMaxD = kD > kDv ? kD : kDv;
  // Above head_dim 64 the dK and dV accumulators (64 keys x (kD + kDv) floats) are split over
  // two warp columns, so eight warps hold them without spilling.
  static constexpr int kWS = kWSOverride ? kWSOverride : kMaxD <= 64 ? 1 : 2;
  static constexpr int kNWarps = 4 * kWS;
  static constexpr int kThreads = kNWarps * 32;
  static constexpr int kBlockM = 64;  // queries per step
  static constexpr int kBlockN = kBlockNOverride ? kBlockNOverride : 64;  // keys per CTA
  static constexpr int kMTK = kBlockN / 64;  // m-tiles (of 16 keys) per warp in the dK/dV GEMMs
  static constexpr int kColsS = kBlockN / kWS;  // S/dP columns per warp
  static constexpr int kColsK = kD / kWS;       // dK/dQ columns per warp
  static constexpr int kColsV = kDv / kWS;      // dV columns per warp
  static constexpr int kPitchQ = Pitch<kD>::value;
  static constexpr int kPitchV = Pitch<kDv>::value;
  static constexpr int kPitchS = Pitch<kBlockN>::value;
  static constexpr int kSmemK = kBlockN * kPitchQ;
  static constexpr int kSmemV = kBlockN * kPitchV;
  static constexpr int kSmemQ = kBlockM * kPitchQ;
  static constexpr int kSmemdO = kBlockM * kPitchV;
  static constexpr int kSmemS = kBlockM * kPitchS;
  static constexpr int bytes(int stages) {
    return (kSmemK + kSmemV + stages * (kSmemQ + kSmemdO) + 2 * kSmemS) * 2 + stages * 2 * kBlockM * 4;
  }
  // Q, dO, LSE and D single-buffered: the next step's loads overlap the dQ GEMM only. Double
  // buffering (loads overlapping all five GEMMs) measured slower on the H200 at head_dim 128
  // (107 against 127 TFLOP/s, bench/NOTES.md run 3); kept as an override for tuning.
  static constexpr int kStages = kStagesOverride ? kStagesOverride : 1;
  static constexpr int kSmemBytes = bytes(kStages);
  static_assert(kBlockM == 64 && (kBlockN == 64 || kBlockN == 128),
                "four warp rows of 16 cover the query block, of 16 * kMTK the key block");
  static_assert(kColsS % 16 == 0 && kColsK % 16 == 0 && kColsV % 16 == 0,
                "each warp's GEMM columns must be whole n-tile pairs");
};

// kExtras: dropout or a score modifier may be on (as in fwd_kernel).
template <typename T, typename C, bool kExtras>
__global__ void __launch_bounds__(C::kThreads) bwd_kernel(const __grid_constant__ BwdParams bp) {
  constexpr int kD = C::kD, kDv = C::kDv;
  constexpr int kBlockM = C::kBlockM, kBlockN = C::kBlockN;
  constexpr int kNTS = C::kColsS / 8, kNTK = C::kColsK / 8, kNTV = C::kColsV / 8;
  const FwdParams& p = bp.fwd;
  extern __shared__ __align__(16) unsigned char smem[];
  T* sK = reinterpret_cast<T*>(smem);
  T* sV = sK + C::kSmemK;
  T* sQ0 = sV + C::kSmemV;  // stage st: sQ0 + st * kSmemQ, likewise sdO0, sLse0, sDsum0
  T* sdO0 = sQ0 + C::kStages * C::kSmemQ;
  T* sP = sdO0 + C::kStages * C::kSmemdO;
  T* sdS = sP + C::kSmemS;
  float* sLse0 = reinterpret_cast<float*>(sdS + C::kSmemS);  // log2 units; +inf: the row has P = 0
  float* sDsum0 = sLse0 + C::kStages * kBlockM;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int wm = warp % 4, wn = warp / 4;
  const int gr = lane / 4, tq = lane % 4;

  // Key blocks of one (batch, kv head) are adjacent and in increasing order: the deterministic
  // dQ order below relies on block n - 1 starting no later than block n.
  const int64_t bid = blockIdx.x;
  const int n_block = int(bid % bp.num_n_blocks);
  const int64_t bhk = bid / bp.num_n_blocks;
  const int b = int(bhk / p.num_heads_kv), hk = int(bhk % p.num_heads_kv);
  const SeqInfo seq(p, b);
  const int n0 = n_block * kBlockN;
  if (n0 >= seq.seqlen_k) return;
  const int cols = min(kBlockN, seq.seqlen_k - n0);

  const semantics::Mask mask =
      semantics::make_mask(seq.seqlen_q, seq.seqlen_k, p.window_left, p.window_right, p.causal);
  int q_lo, q_hi;
  mask.query_range(n0, n0 + cols, &q_lo, &q_hi);
  const int m_lo = q_lo / kBlockM;
  const int num_m = q_hi > q_lo ? (q_hi + kBlockM - 1) / kBlockM - m_lo : 0;
  const int steps = num_m * p.group;

  const int64_t k_off = b * p.k.batch_stride + (seq.row_begin_k + n0) * p.k.row_stride + hk * p.k.head_stride;
  const int64_t v_off = b * p.v.batch_stride + (seq.row_begin_k + n0) * p.v.row_stride + hk * p.v.head_stride;
  load_tile<kBlockN, kD, C::kThreads>(sK, static_cast<const T*>(p.k.data) + k_off, p.k.row_stride, cols,
                                      p.head_dim, p.aligned);
  load_tile<kBlockN, kDv, C::kThreads>(sV, static_cast<const T*>(p.v.data) + v_off, p.v.row_stride, cols,
                                       p.head_dim_v, p.aligned);

  // Step s covers query head hk * group + s / num_m and query block m_lo + s % num_m.
  auto load_step = [&](int s) {
    const int st = C::kStages == 2 ? s % 2 : 0;
    T* sQ = sQ0 + st * C::kSmemQ;
    T* sdO = sdO0 + st * C::kSmemdO;
    float* sLse = sLse0 + st * kBlockM;
    float* sDsum = sDsum0 + st * kBlockM;
    const int h = hk * p.group + s / num_m;
    const int m0 = (m_lo + s % num_m) * kBlockM;
    const int rows = min(kBlockM, seq.seqlen_q - m0);
    const T* gQ = static_cast<const T*>(p.q.data) + b * p.q.batch_stride +
                  (seq.row_begin_q + m0) * p.q.row_stride + h * p.q.head_stride;
    const T* gdO = static_cast<const T*>(bp.dout.data) + b * bp.dout.batch_stride +
                   (seq.row_begin_q + m0) * bp.dout.row_stride + h * bp.dout.head_stride;
    load_tile<kBlockM, kD, C::kThreads>(sQ, gQ, p.q.row_stride, rows, p.head_dim, p.aligned);
    load_tile<kBlockM, kDv, C::kThreads>(sdO, gdO, bp.dout.row_stride, rows, p.head_dim_v, p.aligned);
    prim::cp_async_commit();
    for (int r = tid; r < kBlockM; r += C::kThreads) {
      float lse = INFINITY, dsum = 0.0f;
      if (r < rows) {
        const float l = p.lse[b * p.lse_batch_stride + h * p.lse_head_stride + seq.row_begin_q + m0 + r];
        lse = l == -INFINITY ? INFINITY : l * kLog2e;  // a row that saw no key has P = 0
        dsum = bp.dsum[(seq.row_global_q + m0 + r) * p.num_heads + h];
      }
      sLse[r] = lse;
      sDsum[r] = dsum;
    }
  };
  if (steps > 0) load_step(0);
  else prim::cp_async_commit();

  constexpr int kMTK = C::kMTK;
  float acc_dk[kMTK][kNTK][4], acc_dv[kMTK][kNTV][4];
  zero(acc_dk);
  zero(acc_dv);

  for (int s = 0; s < steps; ++s) {
    const int h = hk * p.group + s / num_m;
    const int m_block = m_lo + s % num_m;
    const int m0 = m_block * kBlockM;
    const int rows = min(kBlockM, seq.seqlen_q - m0);
    const int st = C::kStages == 2 ? s % 2 : 0;
    const T* sQ = sQ0 + st * C::kSmemQ;
    const T* sdO = sdO0 + st * C::kSmemdO;
    const float* sLse = sLse0 + st * kBlockM;
    const float* sDsum = sDsum0 + st * kBlockM;
    if (C::kStages == 2 && s + 1 < steps) {
      // The other stage was last read by step s - 1's dV/dK GEMMs, which ended at its barrier.
      load_step(s + 1);
      prim::cp_async_wait<1>();
    } else {
      prim::cp_async_wait<0>();
    }
    __syncthreads();  // Q, dO, LSE, D of this step landed; P and dS of the last step are consumed

    float acc_s[1][kNTS][4], acc_dp[1][kNTS][4];
    zero(acc_s);
    zero(acc_dp);
    warp_gemm_ss<1, kNTS, kD, Operand::kARowMajor, Operand::kBNMajor, C::kPitchQ, C::kPitchQ>(
        acc_s, sQ + wm * 16 * C::kPitchQ, sK + wn * C::kColsS * C::kPitchQ, lane);
    warp_gemm_ss<1, kNTS, kDv, Operand::kARowMajor, Operand::kBNMajor, C::kPitchV, C::kPitchV>(
        acc_dp, sdO + wm * 16 * C::kPitchV, sV + wn * C::kColsS * C::kPitchV, lane);

    semantics::ScoreMod<float> mod;
    mod.scale = p.scale;
    mod.softcap = p.softcap;
    mod.alibi_slope = p.alibi != nullptr ? p.alibi[b * p.alibi_batch_stride + h] : 0.0f;
    mod.diag_offset = int64_t(seq.seqlen_k) - seq.seqlen_q;
    const bool unmasked = mask.tile_unmasked(m0, m0 + rows, n0, n0 + kBlockN);
    const uint64_t bh_dropout = uint64_t(b) * p.num_heads + h;
    // P (with dropout, as it multiplied V) and dS = P * (dP * keep - D) * d(score)/d(dot).
    float grad[kNTS][4];  // d(score)/d(dot) per element; only the kExtras kernels keep it
#pragma unroll
    for (int nt = 0; nt < kNTS; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int r = wm * 16 + gr + (e / 2) * 8;
        const float dot = acc_s[0][nt][e];
        float score;
        if (kExtras && p.has_score_mod) {
          const int i = m0 + r, j = n0 + wn * C::kColsS + nt * 8 + 2 * tq + (e % 2);
          score = mod.apply(dot, i, j);
          grad[nt][e] = mod.grad(dot);
        } else {
          score = dot * p.scale;
          grad[nt][e] = p.scale;
        }
        acc_s[0][nt][e] = prim::exp2_approx(score * kLog2e - sLse[r]);
      }
    if (!unmasked) {  // one branch per tile, not one per element
#pragma unroll
      for (int nt = 0; nt < kNTS; ++nt)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int i = m0 + wm * 16 + gr + (e / 2) * 8, j = n0 + wn * C::kColsS + nt * 8 + 2 * tq + (e % 2);
          if (!mask.visible(i, j)) acc_s[0][nt][e] = 0.0f;
        }
    }
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const int r = wm * 16 + gr + hf * 8;
      const int i = m0 + r;
      const float dsum = sDsum[r];
      // Kept bits of this row's columns: Philox in a rolled loop (as in fwd_kernel).
      static_assert(2 * kNTS <= 32, "one 32-bit keep mask per row");
      uint32_t keep_mask = 0xffffffffu;
      if (kExtras && p.dropout.enabled()) {
        keep_mask = 0;
#pragma unroll 1
        for (int nt = 0; nt < kNTS; ++nt) {
          const int j = n0 + wn * C::kColsS + nt * 8 + 2 * tq;
          keep_mask |= ((p.dropout.keep_bits4(bh_dropout, i, j >> 2) >> (j & 3)) & 3u) << (2 * nt);
        }
      }
#pragma unroll
      for (int nt = 0; nt < kNTS; ++nt) {
        const int c = wn * C::kColsS + nt * 8 + 2 * tq;
        float pv[2], dsv[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const float pr = acc_s[0][nt][2 * hf + e];
          float dp = acc_dp[0][nt][2 * hf + e];
          float pd = pr;
          if (kExtras && p.dropout.enabled()) {
            const bool kept = (keep_mask >> (2 * nt + e)) & 1u;
            pd = kept ? pr * p.dropout.keep_scale : 0.0f;
            dp = kept ? dp * p.dropout.keep_scale : 0.0f;
          }
          pv[e] = pd;
          dsv[e] = pr * (dp - dsum) * grad[nt][2 * hf + e];
        }
        *reinterpret_cast<uint32_t*>(sP + r * C::kPitchS + c) = prim::pack2(pv[0], pv[1], T());
        *reinterpret_cast<uint32_t*>(sdS + r * C::kPitchS + c) = prim::pack2(dsv[0], dsv[1], T());
      }
    }
    __syncthreads();  // P and dS complete

    warp_gemm_ss<kMTK, kNTV, kBlockM, Operand::kATransposed, Operand::kBKMajor, C::kPitchS, C::kPitchV>(
        acc_dv, sP + wm * 16 * kMTK, sdO + wn * C::kColsV, lane);
    warp_gemm_ss<kMTK, kNTK, kBlockM, Operand::kATransposed, Operand::kBKMajor, C::kPitchS, C::kPitchQ>(
        acc_dk, sdS + wm * 16 * kMTK, sQ + wn * C::kColsK, lane);
    __syncthreads();  // this stage's Q, dO, LSE, D are free
    if (C::kStages == 1 && s + 1 < steps) load_step(s + 1);  // overlaps the dQ GEMM only

    float acc_dq[1][kNTK][4];
    zero(acc_dq);
    warp_gemm_ss<1, kNTK, kBlockN, Operand::kARowMajor, Operand::kBKMajor, C::kPitchS, C::kPitchQ>(
        acc_dq, sdS + wm * 16 * C::kPitchS, sK + wn * C::kColsK, lane);

    int32_t* sem = nullptr;
    if (bp.deterministic) {
      // Key blocks add into a query block in increasing order: block n waits until the blocks
      // before it (from the first one that reaches this query block) have added theirs.
      int k_lo, k_hi;
      mask.key_range(m0, m0 + rows, &k_lo, &k_hi);
      const int expected = n_block - k_lo / kBlockN;
      sem = bp.semaphore + (int64_t(b) * p.num_heads + h) * bp.num_m_blocks + m_block;
      if (tid == 0)
        while (*reinterpret_cast<volatile int32_t*>(sem) != expected) {
        }
      __syncthreads();
      __threadfence();
    }
    float* gdq = bp.dq_accum + ((seq.row_global_q + m0) * p.num_heads + h) * int64_t(bp.dq_accum_dim);
    const int64_t dq_row_stride = int64_t(p.num_heads) * bp.dq_accum_dim;
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const int r = wm * 16 + gr + hf * 8;
      if (r >= rows) continue;
#pragma unroll
      for (int nt = 0; nt < kNTK; ++nt)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int c = wn * C::kColsK + nt * 8 + 2 * tq + e;
          if (c < p.head_dim) prim::red_add(gdq + r * dq_row_stride + c, acc_dq[0][nt][2 * hf + e]);
        }
    }
    if (bp.deterministic) {
      __threadfence();
      __syncthreads();
      if (tid == 0) atomicAdd(sem, 1);
    }
  }
  prim::cp_async_wait<0>();

  T* gdK = static_cast<T*>(bp.dk.data) + b * bp.dk.batch_stride + (seq.row_begin_k + n0) * bp.dk.row_stride +
           hk * bp.dk.head_stride;
  T* gdV = static_cast<T*>(bp.dv.data) + b * bp.dv.batch_stride + (seq.row_begin_k + n0) * bp.dv.row_stride +
           hk * bp.dv.head_stride;
  store_acc(acc_dk, gdK, bp.dk.row_stride, wm * 16 * kMTK, wn * C::kColsK, cols, p.head_dim, p.aligned, lane);
  store_acc(acc_dv, gdV, bp.dv.row_stride, wm * 16 * kMTK, wn * C::kColsV, cols, p.head_dim_v, p.aligned, lane);
}

}  // namespace flashattn::cuda::sm80
