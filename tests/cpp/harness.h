// A test case end to end: random inputs for a configuration, our backend's forward/backward,
// the double reference and the low-precision naive reference, and the tolerance rule on
// out, lse, dq, dk, dv. Outputs are poisoned before each run and their guard bands checked.
#pragma once

#include <optional>
#include <sstream>

#include "reference/reference.h"
#include "util.h"

namespace flashattn::test {

struct Spec {
  DType dtype = DType::Float32;
  int batch = 1, seqlen_q = 16, seqlen_k = 16, heads = 2, heads_kv = 2, head_dim = 32, head_dim_v = -1;
  bool causal = false;
  int window_left = -1, window_right = -1;
  float softcap = 0.0f;
  int alibi = 0;  // 0: off, 1: (heads) slopes, 2: (batch, heads) slopes
  float dropout = 0.0f;
  std::vector<int> lens_q, lens_k;  // varlen when non-empty (size = batch)
  uint64_t seed = 1;
  Backend backend = Backend::Cpu;
  int num_threads = 0;
  float qk_std = 1.0f;                 // standard deviation of q and k (large logits: 100)
  std::optional<float> softmax_scale;  // unset: the library's default 1 / sqrt(head_dim)
  bool deterministic = false;

  int dv() const { return head_dim_v < 0 ? head_dim : head_dim_v; }
  bool varlen() const { return !lens_q.empty(); }
  std::string str() const {
    std::ostringstream s;
    s << dtype_name(dtype) << " b=" << batch << " sq=" << seqlen_q << " sk=" << seqlen_k << " h=" << heads
      << "/" << heads_kv << " d=" << head_dim << "/" << dv() << " causal=" << causal << " win=("
      << window_left << "," << window_right << ") softcap=" << softcap << " alibi=" << alibi
      << " dropout=" << dropout << " seed=" << seed << " threads=" << num_threads;
    if (qk_std != 1.0f) s << " qk_std=" << qk_std;
    if (softmax_scale) s << " scale=" << *softmax_scale;
    if (varlen()) {
      s << " varlen q=[";
      for (int l : lens_q) s << l << " ";
      s << "] k=[";
      for (int l : lens_k) s << l << " ";
      s << "]";
    }
    return s.str();
  }
};

// The argument structs from a set of tensors with views (host: Case; device: GpuCase).
template <typename Tensors>
ForwardArgs make_forward_args(const Tensors& t, const Varlen& varlen, const Options& options) {
  ForwardArgs a;
  a.q = t.q.view;
  a.k = t.k.view;
  a.v = t.v.view;
  a.out = t.out.view;
  a.softmax_lse = t.lse.view;
  a.varlen = varlen;
  a.options = options;
  return a;
}
template <typename Tensors>
BackwardArgs make_backward_args(const Tensors& t, const Varlen& varlen, const Options& options) {
  BackwardArgs a;
  a.q = t.q.view;
  a.k = t.k.view;
  a.v = t.v.view;
  a.out = t.out.view;
  a.dout = t.dout.view;
  a.softmax_lse = t.lse.view;
  a.dq = t.dq.view;
  a.dk = t.dk.view;
  a.dv = t.dv.view;
  a.varlen = varlen;
  a.options = options;
  return a;
}

struct Case {
  Spec spec;
  HostTensor q, k, v, out, lse, dout, dq, dk, dv, alibi;
  std::vector<int32_t> cu_q, cu_k;
  int64_t total_q = 0, total_k = 0;

  explicit Case(const Spec& s) : spec(s) {
    std::mt19937_64 rng(s.seed);
    const bool vl = s.varlen();
    if (vl) {
      cu_q.assign(1, 0);
      cu_k.assign(1, 0);
      for (int b = 0; b < s.batch; ++b) {
        cu_q.push_back(cu_q.back() + s.lens_q[b]);
        cu_k.push_back(cu_k.back() + s.lens_k[b]);
      }
      total_q = cu_q.back();
      total_k = cu_k.back();
    }
    auto shape = [&](int64_t seq, int64_t total, int heads, int dim) {
      return vl ? std::vector<int64_t>{total, heads, dim} : std::vector<int64_t>{s.batch, seq, heads, dim};
    };
    q.init(s.dtype, shape(s.seqlen_q, total_q, s.heads, s.head_dim));
    k.init(s.dtype, shape(s.seqlen_k, total_k, s.heads_kv, s.head_dim));
    v.init(s.dtype, shape(s.seqlen_k, total_k, s.heads_kv, s.dv()));
    out.init(s.dtype, shape(s.seqlen_q, total_q, s.heads, s.dv()));
    dout.init(s.dtype, shape(s.seqlen_q, total_q, s.heads, s.dv()));
    dq.init(s.dtype, shape(s.seqlen_q, total_q, s.heads, s.head_dim));
    dk.init(s.dtype, shape(s.seqlen_k, total_k, s.heads_kv, s.head_dim));
    dv.init(s.dtype, shape(s.seqlen_k, total_k, s.heads_kv, s.dv()));
    lse.init(DType::Float32, vl ? std::vector<int64_t>{s.heads, total_q}
                                : std::vector<int64_t>{s.batch, s.heads, s.seqlen_q});
    q.fill_normal(rng, s.qk_std);
    k.fill_normal(rng, s.qk_std);
    v.fill_normal(rng);
    dout.fill_normal(rng);
    if (s.alibi == 1) alibi.init(DType::Float32, {s.heads});
    if (s.alibi == 2) alibi.init(DType::Float32, {s.batch, s.heads});
    if (s.alibi) alibi.fill_uniform(rng, 0.01f, 0.5f);
  }

  // Sequence lengths and flat indices in token order (varlen: cu_seqlens; padded: b * seqlen).
  int seq_q(int b) const { return spec.varlen() ? spec.lens_q[b] : spec.seqlen_q; }
  int seq_k(int b) const { return spec.varlen() ? spec.lens_k[b] : spec.seqlen_k; }
  int64_t token_q(int b, int i) const { return spec.varlen() ? cu_q[b] + i : int64_t(b) * spec.seqlen_q + i; }
  int64_t token_k(int b, int j) const { return spec.varlen() ? cu_k[b] + j : int64_t(b) * spec.seqlen_k + j; }
  // Element index of (token, head, column) in a dense (tokens, heads, dim) layout.
  static int64_t at(int64_t token, int head, int heads, int col, int dim) { return (token * heads + head) * dim + col; }
  // Index of (b, h, i) in softmax_lse: (batch, heads, seqlen_q) or (heads, total_q).
  int64_t lse_index(int b, int h, int i) const {
    return spec.varlen() ? int64_t(h) * total_q + cu_q[b] + i : (int64_t(b) * spec.heads + h) * spec.seqlen_q + i;
  }

  Options options() const {
    Options o;
    o.causal = spec.causal;
    o.window_left = spec.window_left;
    o.window_right = spec.window_right;
    o.softcap = spec.softcap;
    if (spec.alibi) o.alibi_slopes = alibi.view;
    o.dropout_p = spec.dropout;
    o.seed = spec.seed * 7919 + 13;
    o.offset = spec.seed % 5;
    o.softmax_scale = spec.softmax_scale;
    o.deterministic = spec.deterministic;
    return o;
  }
  Varlen varlen() const {
    Varlen v;
    if (!spec.varlen()) return v;
    v.cu_seqlens_q = cu_q.data();
    v.cu_seqlens_k = cu_k.data();
    v.batch = spec.batch;
    for (int l : spec.lens_q) v.max_seqlen_q = std::max(v.max_seqlen_q, l);
    for (int l : spec.lens_k) v.max_seqlen_k = std::max(v.max_seqlen_k, l);
    return v;
  }
  ForwardArgs forward_args() const { return make_forward_args(*this, varlen(), options()); }
  BackwardArgs backward_args() const { return make_backward_args(*this, varlen(), options()); }
  Context context() const {
    Context c;
    c.backend = spec.backend;
    c.num_threads = spec.num_threads;
    return c;
  }

  void run_forward() {
    out.poison();
    lse.poison();
    flashattn::forward(forward_args(), context());
  }
  void run_backward() {
    dq.poison();
    dk.poison();
    dv.poison();
    flashattn::backward(backward_args(), context());
  }
};

// Compares one output against the exact and low-precision references; adds a gtest failure.
// The check_* functions return true iff everything they checked passed.
inline bool expect_close(const Spec& spec, const char* what, const HostTensor& ours,
                         const std::vector<double>& exact, const std::vector<double>& lowp, double extra = 0.0) {
  EXPECT_EQ(size_t(ours.numel()), exact.size()) << what;
  if (size_t(ours.numel()) != exact.size()) return false;
  const bool guards = ours.guards_intact();
  EXPECT_TRUE(guards) << what << " wrote outside its bounds; " << spec.str();
  const Comparison c = compare(spec.dtype, ours.to_double(), exact, lowp, extra);
  EXPECT_TRUE(c.ok) << c.describe(what) << (extra > 0 ? " (allowance " + std::to_string(extra) + ")" : "") << "; "
                    << spec.str();
  return guards && c.ok;
}

// lse: ours is (b, h, s) or (h, total); the reference's is (token, h).
inline std::vector<double> lse_in_token_order(const Case& c) {
  const Spec& s = c.spec;
  std::vector<double> out;
  const int64_t tokens = s.varlen() ? c.total_q : int64_t(s.batch) * s.seqlen_q;
  out.resize(size_t(tokens * s.heads));
  for (int64_t t = 0; t < tokens; ++t)
    for (int h = 0; h < s.heads; ++h) {
      int64_t idx;
      if (s.varlen()) idx = int64_t(h) * c.total_q + t;
      else {
        const int64_t b = t / s.seqlen_q, i = t % s.seqlen_q;
        idx = (b * s.heads + h) * s.seqlen_q + i;
      }
      out[size_t(t * s.heads + h)] = c.lse.get(idx);
    }
  return out;
}

// Compares out and lse of a Case that has run forward against the references. lse_rel: the LSE
// tolerance relative to max(1, |lse|) (1e-5, the fp32 rule; the GPU kernels' base-2 softmax with
// ex2.approx gets 1e-4).
inline bool check_forward_results(const Case& c, double lse_rel = 1e-5) {
  const Spec& spec = c.spec;
  const auto exact = reference::forward(c.forward_args(), reference::Rounding::Exact);
  std::vector<double> lowp_out;
  if (spec.dtype != DType::Float32)
    lowp_out = reference::forward(c.forward_args(), reference::Rounding::LowPrecision).out;
  bool ok = expect_close(spec, "out", c.out, exact.out, lowp_out);
  // LSE is fp32 in every dtype and computed from the same (already rounded) inputs: the fp32 rule.
  const auto lse = lse_in_token_order(c);
  const bool guards = c.lse.guards_intact();
  EXPECT_TRUE(guards) << "lse wrote outside its bounds; " << spec.str();
  const Comparison cl = compare(DType::Float32, lse, exact.lse, {});
  const bool lse_ok = cl.nan_count == 0 && cl.max_err <= lse_rel * std::max(1.0, cl.ref_max);
  EXPECT_TRUE(lse_ok) << cl.describe("lse") << "; " << spec.str();
  return ok && guards && lse_ok;
}

inline bool check_forward(const Spec& spec) {
  Case c(spec);
  c.run_forward();
  return check_forward_results(c);
}

// Two allowances the backward's dq and dk get on top of the rule (both ~0 in ordinary cases; they
// matter where the exact dq, dk cancel to ~0, e.g. rows that see a single key):
//  1. A FlashAttention backward computes D_i = rowsum(dO_i * out_i) from out as stored in the
//     dtype, not sum_j P_ij dP_ij; the naive yardstick has no such term. Its first-order effect,
//     E_i = D_flash_i - D_exact_i propagated through dS_ij = -P_ij g_ij E_i, is computed exactly
//     here and allowed twice.
//  2. fp32 summation noise: dq_i = sum_j dS_ij k_j (dk likewise over i) sums terms of size
//     S_ij = P_ij g_ij (keep_scale |dO_i|.|v_j| + |D_i|); 8 u32 times their root-sum-square.
struct GradAllowance {
  double dq = 0, dk = 0;
};
inline GradAllowance backward_allowance(const Case& c) {
  const Problem p = make_problem(c.backward_args(), Backend::Cpu);
  const int H = p.num_heads, Hk = p.num_heads_kv, d = p.head_dim, dv = p.head_dim_v;
  const double u32 = std::ldexp(1.0, -24);
  auto load = [](const Operand& o, int64_t rb, int b, int64_t r, int h, int col) {
    return double(load_float(o.data, o.dtype, o.index(rb, b, r, h) + col));
  };
  std::vector<double> dk_delta(size_t(p.total_k) * Hk * d, 0.0), dk_rss(dk_delta.size(), 0.0);
  double dq_delta_max = 0, dq_rss_max = 0;
  std::vector<double> qrow(d), dorow(dv), dot, prob, dp, absdp, dq_delta(d), dq_rss(d), krows, vrows;
  const double keep_scale = p.dropout.enabled() ? double(p.dropout.keep_scale) : 1.0;
  for (int b = 0; b < p.batch; ++b) {
    const int sq = p.seqlen_q(b), sk = p.seqlen_k(b);
    const semantics::Mask mask = p.mask(b);
    dot.resize(sk), prob.resize(sk), dp.resize(sk), absdp.resize(sk);
    for (int h = 0; h < H; ++h) {
      const int hk = p.kv_head(h);
      if (h == 0 || hk != p.kv_head(h - 1)) reference::load_kv(p, b, hk, &krows, &vrows);
      const semantics::ScoreMod<double> mod = p.score_mod<double>(b, h);
      const uint64_t bh = uint64_t(b) * H + h;
      for (int i = 0; i < sq; ++i) {
        for (int col = 0; col < d; ++col) qrow[col] = load(p.q, p.row_begin_q(b), b, i, h, col);
        for (int col = 0; col < dv; ++col) dorow[col] = load(p.dout, p.row_begin_q(b), b, i, h, col);
        double mx = -INFINITY;
        reference::dots(qrow.data(), krows.data(), sk, d, dot.data());
        for (int j = 0; j < sk; ++j) {
          prob[j] = mask.visible(i, j) ? mod.apply(dot[j], i, j) : -INFINITY;
          mx = std::max(mx, prob[j]);
        }
        if (mx == -INFINITY) continue;  // the row sees nothing: no gradient at all
        double sum = 0;
        for (int j = 0; j < sk; ++j) sum += prob[j] == -INFINITY ? 0.0 : std::exp(prob[j] - mx);
        double d_exact = 0, d_flash = 0;
        for (int j = 0; j < sk; ++j) {
          prob[j] = prob[j] == -INFINITY ? 0.0 : std::exp(prob[j] - mx) / sum;
          double acc = 0, abs_acc = 0;
          if (prob[j] > 0)
            for (int col = 0; col < dv; ++col) {
              const double x = dorow[col] * vrows[size_t(j) * dv + col];
              acc += x;
              abs_acc += std::fabs(x);
            }
          const double keep = p.dropout.keep(bh, i, j) ? keep_scale : 0.0;
          dp[j] = acc * keep;
          absdp[j] = abs_acc * keep;
          d_exact += prob[j] * dp[j];
        }
        for (int col = 0; col < dv; ++col) d_flash += dorow[col] * load(p.out, p.row_begin_q(b), b, i, h, col);
        const double e = d_flash - d_exact;
        std::fill(dq_delta.begin(), dq_delta.end(), 0.0);
        std::fill(dq_rss.begin(), dq_rss.end(), 0.0);
        for (int j = 0; j < sk; ++j) {
          if (prob[j] == 0) continue;
          const double w = prob[j] * std::fabs(mod.grad(dot[j]));
          const double size = w * (absdp[j] + std::fabs(d_exact));
          const size_t kbase = (size_t(p.cu_k[b] + j) * Hk + hk) * d;
          for (int col = 0; col < d; ++col) {
            const double kv = krows[size_t(j) * d + col];
            dq_delta[col] += w * e * kv;
            dq_rss[col] += (size * kv) * (size * kv);
            dk_delta[kbase + col] += w * e * qrow[col];
            dk_rss[kbase + col] += (size * qrow[col]) * (size * qrow[col]);
          }
        }
        for (int col = 0; col < d; ++col) {
          dq_delta_max = std::max(dq_delta_max, std::fabs(dq_delta[col]));
          dq_rss_max = std::max(dq_rss_max, std::sqrt(dq_rss[col]));
        }
      }
    }
  }
  double dk_delta_max = 0, dk_rss_max = 0;
  for (size_t e = 0; e < dk_delta.size(); ++e) {
    dk_delta_max = std::max(dk_delta_max, std::fabs(dk_delta[e]));
    dk_rss_max = std::max(dk_rss_max, std::sqrt(dk_rss[e]));
  }
  return {2 * dq_delta_max + 8 * u32 * dq_rss_max, 2 * dk_delta_max + 8 * u32 * dk_rss_max};
}

// Compares dq, dk, dv of a Case that has run forward and backward against the references.
inline bool check_backward_results(const Case& c) {
  const Spec& spec = c.spec;
  const auto exact = reference::backward(c.backward_args(), reference::Rounding::Exact);
  reference::BackwardResult lowp;
  if (spec.dtype != DType::Float32) lowp = reference::backward(c.backward_args(), reference::Rounding::LowPrecision);
  const GradAllowance allow = backward_allowance(c);
  const bool dq = expect_close(spec, "dq", c.dq, exact.dq, lowp.dq, allow.dq);
  const bool dk = expect_close(spec, "dk", c.dk, exact.dk, lowp.dk, allow.dk);
  const bool dv = expect_close(spec, "dv", c.dv, exact.dv, lowp.dv);
  return dq && dk && dv;
}

inline bool check_backward(const Spec& spec) {
  Case c(spec);
  c.run_forward();
  c.run_backward();
  return check_backward_results(c);
}

}  // namespace flashattn::test
