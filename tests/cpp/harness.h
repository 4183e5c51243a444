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
  ForwardArgs forward_args() const {
    ForwardArgs a;
    a.q = q.view;
    a.k = k.view;
    a.v = v.view;
    a.out = out.view;
    a.softmax_lse = lse.view;
    a.varlen = varlen();
    a.options = options();
    return a;
  }
  BackwardArgs backward_args() const {
    BackwardArgs a;
    a.q = q.view;
    a.k = k.view;
    a.v = v.view;
    a.out = out.view;
    a.dout = dout.view;
    a.softmax_lse = lse.view;
    a.dq = dq.view;
    a.dk = dk.view;
    a.dv = dv.view;
    a.varlen = varlen();
    a.options = options();
    return a;
  }
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
inline void expect_close(const Spec& spec, const char* what, const HostTensor& ours,
                         const std::vector<double>& exact, const std::vector<double>& lowp) {
  ASSERT_EQ(size_t(ours.numel()), exact.size()) << what;
  EXPECT_TRUE(ours.guards_intact()) << what << " wrote outside its bounds; " << spec.str();
  const Comparison c = compare(spec.dtype, ours.to_double(), exact, lowp);
  EXPECT_TRUE(c.ok) << c.describe(what) << "; " << spec.str();
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

// Compares out and lse of a Case that has run forward against the references.
inline void check_forward_results(const Case& c) {
  const Spec& spec = c.spec;
  const auto exact = reference::forward(c.forward_args(), reference::Rounding::Exact);
  std::vector<double> lowp_out;
  if (spec.dtype != DType::Float32)
    lowp_out = reference::forward(c.forward_args(), reference::Rounding::LowPrecision).out;
  expect_close(spec, "out", c.out, exact.out, lowp_out);
  // LSE is fp32 in every dtype and computed from the same (already rounded) inputs: the fp32 rule.
  const auto lse = lse_in_token_order(c);
  EXPECT_TRUE(c.lse.guards_intact()) << "lse wrote outside its bounds; " << spec.str();
  const Comparison cl = compare(DType::Float32, lse, exact.lse, {});
  EXPECT_TRUE(cl.nan_count == 0 && cl.max_err <= 1e-5 * std::max(1.0, cl.ref_max))
      << cl.describe("lse") << "; " << spec.str();
}

inline void check_forward(const Spec& spec) {
  Case c(spec);
  c.run_forward();
  check_forward_results(c);
}

// Compares dq, dk, dv of a Case that has run forward and backward against the references.
inline void check_backward_results(const Case& c) {
  const Spec& spec = c.spec;
  const auto exact = reference::backward(c.backward_args(), reference::Rounding::Exact);
  reference::BackwardResult lowp;
  if (spec.dtype != DType::Float32) lowp = reference::backward(c.backward_args(), reference::Rounding::LowPrecision);
  expect_close(spec, "dq", c.dq, exact.dq, lowp.dq);
  expect_close(spec, "dk", c.dk, exact.dk, lowp.dk);
  expect_close(spec, "dv", c.dv, exact.dv, lowp.dv);
}

inline void check_backward(const Spec& spec) {
  Case c(spec);
  c.run_forward();
  c.run_backward();
  check_backward_results(c);
}

}  // namespace flashattn::test
