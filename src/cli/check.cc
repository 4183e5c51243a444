// Sampled and dense comparisons against the double reference. The sampled dq check evaluates
// dq_i = sum_j dS_ij * dmod(q_i . k_j) * k_j, dS_ij = P_ij (F_ij dO_i . v_j - dO_i . out_i)
// (F: the dropout factor), with P from the reference's lse: one row costs O(seqlen_k * head_dim).
#include "cli/check.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>

#include "common/dtype.h"
#include "reference/reference.h"

namespace flashattn::cli {
namespace {

double load(const Operand& o, int64_t row_begin, int b, int64_t r, int h, int c) {
  return double(load_float(o.data, o.dtype, o.index(row_begin, b, r, h) + c));
}

}  // namespace

double tolerance(DType dtype) {
  switch (dtype) {
    case DType::BFloat16: return 2e-2;
    case DType::Float16: return 5e-3;
    default: return 1e-4;
  }
}

void Comparison::add(double ours, double ref) {
  ++count;
  if (std::isnan(ours) || std::isnan(ref)) {
    ++mismatched;
    return;
  }
  if (std::isinf(ours) || std::isinf(ref)) {
    if (ours != ref) ++mismatched;
    return;
  }
  const double err = std::fabs(ours - ref);
  max_abs_err = std::max(max_abs_err, err);
  max_scaled_err = std::max(max_scaled_err, err / std::max(1.0, std::fabs(ref)));
}

Coverage coverage(const std::string& impl, const std::string& what, const HostTensor& t, bool allow_neg_inf) {
  Coverage c;
  c.impl = impl;
  c.what = what;
  c.count = t.numel();
  c.nonfinite = t.count_nonfinite(allow_neg_inf);
  return c;
}

std::vector<RowSample> sample_rows(const Problem& p, int count, uint64_t seed) {
  int64_t total = 0;
  for (int b = 0; b < p.batch; ++b) total += int64_t(p.num_heads) * p.seqlen_q(b);
  std::vector<RowSample> rows;
  if (total <= count) {
    for (int b = 0; b < p.batch; ++b)
      for (int h = 0; h < p.num_heads; ++h)
        for (int i = 0; i < p.seqlen_q(b); ++i) rows.push_back({b, h, i});
    return rows;
  }
  std::set<std::tuple<int, int, int>> seen;
  auto take = [&](int b, int h, int i) {
    if (seen.insert({b, h, i}).second) rows.push_back({b, h, i});
  };
  int first_b = 0, last_b = p.batch - 1;
  while (p.seqlen_q(first_b) == 0) ++first_b;
  while (p.seqlen_q(last_b) == 0) --last_b;
  take(first_b, 0, 0);
  take(last_b, p.num_heads - 1, p.seqlen_q(last_b) - 1);
  std::mt19937_64 rng(seed ^ 0x5DEECE66Dull);
  while (int(rows.size()) < count) {
    const int b = int(rng() % uint64_t(p.batch));
    if (p.seqlen_q(b) == 0) continue;
    take(b, int(rng() % uint64_t(p.num_heads)), int(rng() % uint64_t(p.seqlen_q(b))));
  }
  return rows;
}

void compare_forward_rows(const Problem& p, const std::vector<RowSample>& rows, Comparison* out, Comparison* lse) {
  std::vector<double> ref(p.head_dim_v);
  for (const RowSample& r : rows) {
    double ref_lse = 0.0;
    reference::forward_row(p, r.b, r.h, r.i, ref.data(), &ref_lse);
    for (int c = 0; c < p.head_dim_v; ++c) out->add(load(p.out, p.row_begin_q(r.b), r.b, r.i, r.h, c), ref[c]);
    if (lse != nullptr && p.has_lse) lse->add(load(p.lse, p.row_begin_q(r.b), r.b, r.i, r.h, 0), ref_lse);
  }
}

void compare_dq_rows(const Problem& p, const std::vector<RowSample>& rows, Comparison* dq) {
  const int d = p.head_dim, dv = p.head_dim_v;
  std::vector<double> out(dv), qi(d), doi(dv), grad(d);
  for (const RowSample& r : rows) {
    const int b = r.b, h = r.h, i = r.i, hk = p.kv_head(h);
    const int64_t bq = p.row_begin_q(b), bk = p.row_begin_k(b);
    double lse = 0.0;
    reference::forward_row(p, b, h, i, out.data(), &lse);
    for (int c = 0; c < d; ++c) qi[c] = load(p.q, bq, b, i, h, c);
    double D = 0.0;
    for (int c = 0; c < dv; ++c) {
      doi[c] = load(p.dout, bq, b, i, h, c);
      D += doi[c] * out[c];
    }
    std::fill(grad.begin(), grad.end(), 0.0);
    const semantics::Mask mask = p.mask(b);
    const semantics::ScoreMod<double> mod = p.score_mod<double>(b, h);
    const uint64_t bh = uint64_t(b) * p.num_heads + h;
    for (int j = 0; j < p.seqlen_k(b) && std::isfinite(lse); ++j) {
      if (!mask.visible(i, j)) continue;
      double dot = 0.0, dp = 0.0;
      for (int c = 0; c < d; ++c) dot += qi[c] * load(p.k, bk, b, j, hk, c);
      for (int c = 0; c < dv; ++c) dp += doi[c] * load(p.v, bk, b, j, hk, c);
      double factor = 1.0;
      if (p.dropout.enabled()) factor = p.dropout.keep(bh, i, j) ? double(p.dropout.keep_scale) : 0.0;
      const double prob = std::exp(mod.apply(dot, i, j) - lse);
      const double ds = prob * (factor * dp - D) * mod.grad(dot);
      for (int c = 0; c < d; ++c) grad[c] += ds * load(p.k, bk, b, j, hk, c);
    }
    for (int c = 0; c < d; ++c) dq->add(load(p.dq, bq, b, i, h, c), grad[c]);
  }
}

void compare_dense(const HostTensor& ours, const std::vector<double>& ref, Comparison* c) {
  const int64_t n = std::min<int64_t>(ours.numel(), int64_t(ref.size()));
  for (int64_t e = 0; e < n; ++e) c->add(double(ours.get(e)), ref[size_t(e)]);
  c->mismatched += std::abs(ours.numel() - int64_t(ref.size()));
}

}  // namespace flashattn::cli
