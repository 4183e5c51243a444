// Naive attention: blocked fp32 matrix products into full score buffers, then a row softmax.
// Threads take whole (batch, head) pairs in forward and (batch, kv head) pairs in backward (so
// the GQA sums into dk and dv need no locks); each thread owns its buffers, allocated up front.
#include "cli/naive.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

namespace flashattn::cli {
namespace {

#if defined(__AVX512F__)
constexpr int kW = 16;
#else
constexpr int kW = 8;
#endif
// aligned(4): loads and stores through this type may be unaligned.
typedef float vfloat __attribute__((vector_size(kW * 4), aligned(4)));

constexpr int kMR = 6;          // rows of C per micro-kernel: 12 accumulators + 2 B vectors
constexpr int kNR = 2 * kW;     // columns of C per micro-kernel
constexpr int kKC = 256;        // depth per pass: a kMR x kKC slice of A stays in L1
constexpr int kNC = 512;        // columns per pass: a kKC x kNC block of B (512 KiB) stays in L2
constexpr int kRowBlock = 64;   // rows of dP computed at once in backward (a linear buffer)
static_assert(kNC % kNR == 0, "column blocks must hold whole micro-kernel panels");

inline vfloat vload(const float* p) { return *reinterpret_cast<const vfloat*>(p); }
inline void vstore(float* p, vfloat v) { *reinterpret_cast<vfloat*>(p) = v; }

// A matrix whose element (r, c) is data[r * rs + c * cs]: one product kernel reads A or A^T.
struct Strided {
  const float* data;
  int64_t rs, cs;
  const float* at(int64_t r, int64_t c) const { return data + r * rs + c * cs; }
};

// C[MR x kNR] (+)= A[MR x kc] * B[kc x kNR]; B and C row-major.
template <int MR>
void micro_kernel(int kc, Strided a, const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  vfloat acc[MR][2];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < 2; ++v) acc[r][v] = accumulate ? vload(c + r * ldc + v * kW) : vfloat{};
  for (int k = 0; k < kc; ++k) {
    const vfloat b0 = vload(b + k * ldb), b1 = vload(b + k * ldb + kW);
    for (int r = 0; r < MR; ++r) {
      const vfloat x = vfloat{} + *a.at(r, k);
      acc[r][0] += x * b0;
      acc[r][1] += x * b1;
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < 2; ++v) vstore(c + r * ldc + v * kW, acc[r][v]);
}

void micro(int mr, int kc, Strided a, const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  switch (mr) {
    case 6: micro_kernel<6>(kc, a, b, ldb, c, ldc, accumulate); break;
    case 5: micro_kernel<5>(kc, a, b, ldb, c, ldc, accumulate); break;
    case 4: micro_kernel<4>(kc, a, b, ldb, c, ldc, accumulate); break;
    case 3: micro_kernel<3>(kc, a, b, ldb, c, ldc, accumulate); break;
    case 2: micro_kernel<2>(kc, a, b, ldb, c, ldc, accumulate); break;
    default: micro_kernel<1>(kc, a, b, ldb, c, ldc, accumulate); break;
  }
}
static_assert(kMR == 6, "micro() dispatches row counts 1..6");

// C[M x N] (+)= A[M x K] * B[K x N]; B and C row-major with leading dimensions ldb and ldc.
// Columns past the last whole panel go through a zero-padded copy of B, so any N works.
void gemm(int M, int N, int K, Strided a, const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  if (K == 0) {
    if (!accumulate)
      for (int m = 0; m < M; ++m) std::fill(c + m * ldc, c + m * ldc + N, 0.0f);
    return;
  }
  const int n_full = N / kNR * kNR, n_tail = N - n_full;
  std::vector<float> b_tail(n_tail > 0 ? size_t(kKC) * kNR : 0);
  float c_tail[kMR * kNR];
  for (int k0 = 0; k0 < K; k0 += kKC) {
    const int kc = std::min(kKC, K - k0);
    const bool acc = accumulate || k0 > 0;
    const Strided ak{a.at(0, k0), a.rs, a.cs};
    const float* bk = b + int64_t(k0) * ldb;
    for (int k = 0; k < kc && n_tail > 0; ++k)
      for (int t = 0; t < kNR; ++t) b_tail[size_t(k) * kNR + t] = t < n_tail ? bk[k * ldb + n_full + t] : 0.0f;
    for (int n1 = 0; n1 < N; n1 += kNC) {
      const int n2 = std::min(N, n1 + kNC);
      for (int m0 = 0; m0 < M; m0 += kMR) {
        const int mr = std::min(kMR, M - m0);
        const Strided am{ak.at(m0, 0), ak.rs, ak.cs};
        float* cm = c + m0 * ldc;
        for (int n0 = n1; n0 + kNR <= n2; n0 += kNR) micro(mr, kc, am, bk + n0, ldb, cm + n0, ldc, acc);
        if (n2 != N || n_tail == 0) continue;
        for (int r = 0; r < mr; ++r)
          for (int t = 0; t < kNR; ++t) c_tail[r * kNR + t] = acc && t < n_tail ? cm[r * ldc + n_full + t] : 0.0f;
        micro(mr, kc, am, b_tail.data(), kNR, c_tail, kNR, true);
        for (int r = 0; r < mr; ++r)
          for (int t = 0; t < n_tail; ++t) cm[r * ldc + n_full + t] = c_tail[r * kNR + t];
      }
    }
  }
}

// dst (cols x n, row-major) = the transpose of src (n x cols, rows src_rs apart).
void transpose(const float* src, int64_t src_rs, int n, int cols, float* dst) {
  constexpr int kRows = 16;  // rows of src read together, so each row is read once
  for (int j0 = 0; j0 < n; j0 += kRows) {
    const int j1 = std::min(n, j0 + kRows);
    for (int c = 0; c < cols; ++c)
      for (int j = j0; j < j1; ++j) dst[int64_t(c) * n + j] = src[j * src_rs + c];
  }
}

// The keys row i sees: [*lo, *hi), empty when *lo >= *hi.
void visible_keys(const semantics::Mask& mask, int i, int sk, int* lo, int* hi) {
  mask.key_range(i, i + 1, lo, hi);
  *lo = std::min(std::max(*lo, 0), sk);
  *hi = std::min(std::max(*hi, *lo), sk);
}

// Row i of raw dot products becomes softmax probabilities in place, 0 outside [lo, hi); returns
// the row's log-sum-exp (-inf when it sees no key). The visible keys are contiguous, so masked
// entries are never -inf: no arithmetic on infinities, as -ffast-math (this file) requires.
float softmax_row(const Problem& p, const semantics::ScoreMod<float>& mod, int i, int lo, int hi, int sk, float* s) {
  std::fill(s, s + lo, 0.0f);
  std::fill(s + hi, s + sk, 0.0f);
  if (lo >= hi) return -INFINITY;
  if (p.softcap > 0 || p.alibi) {
    for (int j = lo; j < hi; ++j) s[j] = mod.apply(s[j], i, j);
  } else {
    for (int j = lo; j < hi; ++j) s[j] *= mod.scale;
  }
  float mx = s[lo];
  for (int j = lo; j < hi; ++j) mx = std::max(mx, s[j]);
  float sum = 0.0f;
  for (int j = lo; j < hi; ++j) {
    s[j] = std::exp(s[j] - mx);
    sum += s[j];
  }
  const float inv = 1.0f / sum;
  for (int j = lo; j < hi; ++j) s[j] *= inv;
  return mx + std::log(sum);
}

// f[j] = the dropout factor of (i, j): 0 (dropped) or 1 / (1 - p) (kept) inside [lo, hi), 0 outside.
void dropout_factors(const semantics::Dropout& d, uint64_t bh, int i, int lo, int hi, int sk, float* f) {
  std::fill(f, f + sk, 0.0f);
  for (int g = lo / 64; g * 64 < hi; ++g) {
    const uint64_t bits = d.keep_bits64(bh, i, g * 64);
    for (int t = 0; t < 64; ++t) {
      const int j = g * 64 + t;
      if (j >= lo && j < hi) f[j] = (bits >> t) & 1u ? d.keep_scale : 0.0f;
    }
  }
}

float* f32(const Operand& o) {
  if (o.dtype != DType::Float32) throw std::logic_error("naive attention reads float32 operands only");
  return static_cast<float*>(o.data);
}

std::unique_ptr<float[]> floats(std::size_t n) { return std::unique_ptr<float[]>(new float[std::max<std::size_t>(n, 1)]); }

struct ThreadBuffers {
  std::unique_ptr<float[]> s1, s2, kt, vt, dp, factors;
};

}  // namespace

NaivePlan naive_plan(const Problem& p, int threads, bool backward) {
  NaivePlan plan;
  const int64_t units = int64_t(p.batch) * (backward ? p.num_heads_kv : p.num_heads);
  const int want = threads > 0 ? threads : omp_get_num_procs();
  plan.threads = int(std::max<int64_t>(1, std::min<int64_t>(want, units)));
  const std::size_t sq = std::size_t(p.max_seqlen_q), sk = std::size_t(p.max_seqlen_k);
  const std::size_t per_thread_scores = (backward ? 2 : 1) * sq * sk;
  std::size_t per_thread_other = std::size_t(p.head_dim) * sk + sk;
  if (backward) per_thread_other += std::size_t(p.head_dim_v) * sk + std::size_t(kRowBlock) * sk;
  plan.score_bytes = plan.threads * per_thread_scores * sizeof(float);
  plan.other_bytes = plan.threads * per_thread_other * sizeof(float);
  return plan;
}

void naive_forward(const Problem& p, const NaivePlan& plan) {
  const int H = p.num_heads, d = p.head_dim, dv = p.head_dim_v;
  const std::size_t sq = std::size_t(p.max_seqlen_q), sk = std::size_t(p.max_seqlen_k);
  const float *q = f32(p.q), *k = f32(p.k), *v = f32(p.v);
  float* out = f32(p.out);
  float* lse = p.has_lse ? f32(p.lse) : nullptr;
  std::vector<ThreadBuffers> buffers(plan.threads);
  for (ThreadBuffers& tb : buffers) {
    tb.s1 = floats(sq * sk);
    tb.kt = floats(std::size_t(d) * sk);
    tb.factors = floats(sk);
  }
  const int64_t units = int64_t(p.batch) * H;
#pragma omp parallel for num_threads(plan.threads) schedule(dynamic, 1)
  for (int64_t unit = 0; unit < units; ++unit) {
    ThreadBuffers& tb = buffers[omp_get_thread_num()];
    const int b = int(unit / H), h = int(unit % H), hk = p.kv_head(h);
    const int nq = p.seqlen_q(b), nk = p.seqlen_k(b);
    const float* qb = q + p.q.index(p.row_begin_q(b), b, 0, h);
    const float* kb = k + p.k.index(p.row_begin_k(b), b, 0, hk);
    const float* vb = v + p.v.index(p.row_begin_k(b), b, 0, hk);
    float* ob = out + p.out.index(p.row_begin_q(b), b, 0, h);
    float* s = tb.s1.get();
    transpose(kb, p.k.row_stride, nk, d, tb.kt.get());
    gemm(nq, nk, d, Strided{qb, p.q.row_stride, 1}, tb.kt.get(), nk, s, nk, false);
    const semantics::Mask mask = p.mask(b);
    const semantics::ScoreMod<float> mod = p.score_mod<float>(b, h);
    const uint64_t bh = uint64_t(b) * H + h;
    for (int i = 0; i < nq; ++i) {
      float* row = s + int64_t(i) * nk;
      int lo, hi;
      visible_keys(mask, i, nk, &lo, &hi);
      const float row_lse = softmax_row(p, mod, i, lo, hi, nk, row);
      if (lse != nullptr) lse[p.lse.index(p.row_begin_q(b), b, i, h)] = row_lse;
      if (!p.dropout.enabled()) continue;
      dropout_factors(p.dropout, bh, i, lo, hi, nk, tb.factors.get());
      for (int j = lo; j < hi; ++j) row[j] *= tb.factors[j];
    }
    gemm(nq, dv, nk, Strided{s, nk, 1}, vb, p.v.row_stride, ob, p.out.row_stride, false);
  }
}

void naive_backward(const Problem& p, const NaivePlan& plan) {
  const int H = p.num_heads, Hk = p.num_heads_kv, G = p.group(), d = p.head_dim, dv = p.head_dim_v;
  const std::size_t sq = std::size_t(p.max_seqlen_q), sk = std::size_t(p.max_seqlen_k);
  const float *q = f32(p.q), *k = f32(p.k), *v = f32(p.v), *dout = f32(p.dout);
  float *dq = f32(p.dq), *dk = f32(p.dk), *dvg = f32(p.dv);
  std::vector<ThreadBuffers> buffers(plan.threads);
  for (ThreadBuffers& tb : buffers) {
    tb.s1 = floats(sq * sk);
    tb.s2 = floats(sq * sk);
    tb.kt = floats(std::size_t(d) * sk);
    tb.vt = floats(std::size_t(dv) * sk);
    tb.dp = floats(std::size_t(kRowBlock) * sk);
    tb.factors = floats(sk);
  }
  const int64_t units = int64_t(p.batch) * Hk;
#pragma omp parallel for num_threads(plan.threads) schedule(dynamic, 1)
  for (int64_t unit = 0; unit < units; ++unit) {
    ThreadBuffers& tb = buffers[omp_get_thread_num()];
    const int b = int(unit / Hk), hk = int(unit % Hk);
    const int nq = p.seqlen_q(b), nk = p.seqlen_k(b);
    const float* kb = k + p.k.index(p.row_begin_k(b), b, 0, hk);
    const float* vb = v + p.v.index(p.row_begin_k(b), b, 0, hk);
    float* dkb = dk + p.dk.index(p.row_begin_k(b), b, 0, hk);
    float* dvb = dvg + p.dv.index(p.row_begin_k(b), b, 0, hk);
    for (int j = 0; j < nk; ++j) {
      std::fill(dkb + j * p.dk.row_stride, dkb + j * p.dk.row_stride + d, 0.0f);
      std::fill(dvb + j * p.dv.row_stride, dvb + j * p.dv.row_stride + dv, 0.0f);
    }
    transpose(kb, p.k.row_stride, nk, d, tb.kt.get());
    transpose(vb, p.v.row_stride, nk, dv, tb.vt.get());
    const semantics::Mask mask = p.mask(b);
    for (int g = 0; g < G; ++g) {
      const int h = hk * G + g;
      const float* qb = q + p.q.index(p.row_begin_q(b), b, 0, h);
      const float* dob = dout + p.dout.index(p.row_begin_q(b), b, 0, h);
      float* dqb = dq + p.dq.index(p.row_begin_q(b), b, 0, h);
      const semantics::ScoreMod<float> mod = p.score_mod<float>(b, h);
      const uint64_t bh = uint64_t(b) * H + h;
      float *s1 = tb.s1.get(), *s2 = tb.s2.get(), *f = tb.factors.get();
      // s1 = raw dot products, s2 = P (before dropout).
      gemm(nq, nk, d, Strided{qb, p.q.row_stride, 1}, tb.kt.get(), nk, s1, nk, false);
      for (int i = 0; i < nq; ++i) {
        int lo, hi;
        visible_keys(mask, i, nk, &lo, &hi);
        std::copy(s1 + int64_t(i) * nk, s1 + int64_t(i + 1) * nk, s2 + int64_t(i) * nk);
        softmax_row(p, mod, i, lo, hi, nk, s2 + int64_t(i) * nk);
      }
      // Row blocks of dP = dO V^T turn s1 into dS (w.r.t. the raw dot) and s2 into P with dropout.
      for (int r0 = 0; r0 < nq; r0 += kRowBlock) {
        const int nr = std::min(kRowBlock, nq - r0);
        gemm(nr, nk, dv, Strided{dob + r0 * p.dout.row_stride, p.dout.row_stride, 1}, tb.vt.get(), nk,
             tb.dp.get(), nk, false);
        for (int r = 0; r < nr; ++r) {
          const int i = r0 + r;
          float* ds = s1 + int64_t(i) * nk;
          float* pr = s2 + int64_t(i) * nk;
          float* dp = tb.dp.get() + int64_t(r) * nk;
          int lo, hi;
          visible_keys(mask, i, nk, &lo, &hi);
          if (p.dropout.enabled()) {
            dropout_factors(p.dropout, bh, i, lo, hi, nk, f);
            for (int j = lo; j < hi; ++j) dp[j] *= f[j];
          }
          float D = 0.0f;  // rowsum(dO * O) = sum_j P_ij dP_ij (dP with dropout applied)
          for (int j = lo; j < hi; ++j) D += pr[j] * dp[j];
          std::fill(ds, ds + lo, 0.0f);
          std::fill(ds + hi, ds + nk, 0.0f);
          for (int j = lo; j < hi; ++j) ds[j] = pr[j] * (dp[j] - D) * mod.grad(ds[j]);
          if (p.dropout.enabled())
            for (int j = lo; j < hi; ++j) pr[j] *= f[j];
        }
      }
      gemm(nk, dv, nq, Strided{s2, 1, nk}, dob, p.dout.row_stride, dvb, p.dv.row_stride, true);
      gemm(nq, d, nk, Strided{s1, nk, 1}, kb, p.k.row_stride, dqb, p.dq.row_stride, false);
      gemm(nk, d, nq, Strided{s1, 1, nk}, qb, p.q.row_stride, dkb, p.dk.row_stride, true);
    }
  }
}

}  // namespace flashattn::cli
