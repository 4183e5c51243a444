// Naive attention in double precision (or emulating the problem's dtype), one query row at a
// time: scores of the row -> modifiers -> mask -> softmax -> dropout -> weighted sum of values.
// The keys and values of a (batch entry, kv head) are read into double rows once (KvRows) rather
// than element by element for every query row: the same products summed in the same order
// (bit-identical results), 3-4x faster (the GPU tests spend most of their time here).
#include "reference/reference.h"

#include <cmath>
#include <limits>

#include "common/dtype.h"
#include "semantics/softmax.h"

namespace flashattn::reference {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Rounds to the problem dtype in LowPrecision mode; the identity in Exact mode.
struct Rounder {
  bool low = false;
  DType dtype = DType::Float32;
  double operator()(double x) const { return low ? double(round_to(dtype, float(x))) : x; }
};

double load(const Operand& o, int64_t row_begin, int b, int64_t r, int h, int c) {
  return double(load_float(o.data, o.dtype, o.index(row_begin, b, r, h) + c));
}

// K and V of one (batch entry, kv head) as the sums use them (load_kv; low + dropout: v *
// keep_scale, rounded, as a naive implementation pre-scales v). Read again only when (b, hk)
// changes.
struct KvRows {
  int b = -1, hk = -1;
  std::vector<double> k, v;
  void load_for(const Problem& p, const Rounder& rd, int b_, int hk_) {
    if (b_ != b || hk_ != hk) reload(p, rd, b_, hk_);
  }
  void reload(const Problem& p, const Rounder& rd, int b_, int hk_) {
    b = b_, hk = hk_;
    load_kv(p, b, hk, &k, &v);
    if (rd.low && p.dropout.enabled())
      for (double& x : v) x = rd(x * double(p.dropout.keep_scale));
  }
};

// Everything about one query row that forward and backward need.
struct Row {
  std::vector<double> qs;    // the query as used in the dot products (scaled first when low)
  std::vector<double> dot;   // raw dot products (low: of the scaled query)
  std::vector<double> p;     // softmax probabilities (0 for masked keys)
  std::vector<double> keep;  // dropout factor: 0, or 1 (low: v is pre-scaled instead), per key
  double lse = kNegInf;
};

void compute_row(const Problem& p, const Rounder& rd, const KvRows& kv, int b, int h, int i, Row* row) {
  const int sk = p.seqlen_k(b), d = p.head_dim;
  const semantics::Mask mask = p.mask(b);
  semantics::ScoreMod<double> mod = p.score_mod<double>(b, h);
  row->qs.assign(d, 0.0);
  for (int c = 0; c < d; ++c) {
    const double qv = load(p.q, p.row_begin_q(b), b, i, h, c);
    // A low-precision naive implementation scales q first (q * scale, rounded).
    row->qs[c] = rd.low ? rd(qv * p.softmax_scale) : qv;
  }
  row->dot.assign(sk, 0.0);
  dots(row->qs.data(), kv.k.data(), sk, d, row->dot.data());
  std::vector<double> s(sk, kNegInf);
  double mx = kNegInf;
  for (int j = 0; j < sk; ++j) {
    row->dot[j] = rd(row->dot[j]);
    if (!mask.visible(i, j)) continue;
    double v;
    if (rd.low) {
      v = row->dot[j];
      if (p.softcap > 0) v = rd(p.softcap * rd(std::tanh(rd(v / p.softcap))));
      if (p.alibi) v = rd(v + mod.alibi_bias(i, j));
    } else {
      v = mod.apply(row->dot[j], i, j);
    }
    s[j] = v;
    mx = std::max(mx, v);
  }
  double sum = 0.0;
  for (int j = 0; j < sk; ++j) sum += s[j] == kNegInf ? 0.0 : std::exp(s[j] - mx);
  double inv = 0.0;
  semantics::softmax_finalize(mx, sum, &inv, &row->lse);
  row->p.assign(sk, 0.0);
  row->keep.assign(sk, 1.0);
  const uint64_t bh = uint64_t(b) * p.num_heads + h;
  for (int j = 0; j < sk; ++j) {
    const double prob = s[j] == kNegInf ? 0.0 : std::exp(s[j] - mx) * inv;
    // Softmax runs in fp32 and its result is stored in the dtype.
    row->p[j] = rd.low ? double(round_to(p.dtype, float(prob))) : prob;
    if (p.dropout.enabled() && !p.dropout.keep(bh, i, j)) row->keep[j] = 0.0;
    else if (p.dropout.enabled() && !rd.low) row->keep[j] = double(p.dropout.keep_scale);
  }
}

// The weighted sum of one row's values: acc[c] = sum over j of p_j keep_j v_j[c] (in increasing j).
void weighted_sum(const Row& row, const KvRows& kv, int sk, int dv, double* acc) {
  for (int c = 0; c < dv; ++c) acc[c] = 0.0;
  for (int j = 0; j < sk; ++j) {
    const double w = row.p[j] * row.keep[j];
    if (w == 0.0) continue;
    const double* v = kv.v.data() + size_t(j) * dv;
    for (int c = 0; c < dv; ++c) acc[c] += w * v[c];
  }
}

void forward_impl(const Problem& p, const Rounder& rd, ForwardResult* res) {
  const int H = p.num_heads, dv = p.head_dim_v;
  res->out.assign(size_t(p.total_q) * H * dv, 0.0);
  res->lse.assign(size_t(p.total_q) * H, kNegInf);
  Row row;
  KvRows kv;
  std::vector<double> acc(dv);
  for (int b = 0; b < p.batch; ++b)
    for (int h = 0; h < H; ++h) {
      kv.load_for(p, rd, b, p.kv_head(h));
      for (int i = 0; i < p.seqlen_q(b); ++i) {
        compute_row(p, rd, kv, b, h, i, &row);
        weighted_sum(row, kv, p.seqlen_k(b), dv, acc.data());
        const int64_t token = p.cu_q[b] + i;
        for (int c = 0; c < dv; ++c) res->out[(token * H + h) * dv + c] = rd(acc[c]);
        res->lse[token * H + h] = row.lse;
      }
    }
}

}  // namespace

void load_kv(const Problem& p, int b, int hk, std::vector<double>* k, std::vector<double>* v) {
  const int sk = p.seqlen_k(b);
  auto rows = [&](const Operand& o, int n, std::vector<double>* dst) {
    dst->resize(size_t(sk) * n);
    const int64_t rb = p.row_begin_k(b);
    double* out = dst->data();
    auto convert = [&](auto element) {  // one loop per dtype: no dtype switch per element
      for (int j = 0; j < sk; ++j) {
        const int64_t base = o.index(rb, b, j, hk);
        for (int c = 0; c < n; ++c) out[size_t(j) * n + c] = double(element(base + c));
      }
    };
    const auto* h16 = static_cast<const uint16_t*>(o.data);
    const auto* f32 = static_cast<const float*>(o.data);
    switch (o.dtype) {
      case DType::Float16: convert([h16](int64_t e) { return half_to_float(h16[e]); }); break;
      case DType::BFloat16: convert([h16](int64_t e) { return bf16_to_float(h16[e]); }); break;
      default: convert([f32](int64_t e) { return f32[e]; }); break;
    }
  };
  rows(p.k, p.head_dim, k);
  rows(p.v, p.head_dim_v, v);
}

// Four rows at a time: their sums are independent, so their additions overlap; each still adds
// its products in increasing c, as a naive loop does.
void dots(const double* a, const double* rows, int count, int n, double* out) {
  int j = 0;
  for (; j + 4 <= count; j += 4) {
    const double *r0 = rows + size_t(j) * n, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (int c = 0; c < n; ++c) {
      s0 += a[c] * r0[c];
      s1 += a[c] * r1[c];
      s2 += a[c] * r2[c];
      s3 += a[c] * r3[c];
    }
    out[j] = s0, out[j + 1] = s1, out[j + 2] = s2, out[j + 3] = s3;
  }
  for (; j < count; ++j) {
    const double* r = rows + size_t(j) * n;
    double s = 0.0;
    for (int c = 0; c < n; ++c) s += a[c] * r[c];
    out[j] = s;
  }
}

ForwardResult forward(const ForwardArgs& args, Rounding rounding) {
  const Problem p = make_problem(args, Backend::Cpu);
  ForwardResult res;
  forward_impl(p, Rounder{rounding == Rounding::LowPrecision, p.dtype}, &res);
  return res;
}

void forward_row(const Problem& p, int b, int h, int i, double* out_row, double* lse) {
  Row row;
  const Rounder rd;
  // Read again at every call (the inputs may have changed), into buffers kept across calls: a
  // sampled check calls this for rows of long sequences, and fresh buffers of their K and V
  // (64 MB at 32768 x 128) cost more in page faults than the reads.
  thread_local KvRows kv;
  kv.reload(p, rd, b, p.kv_head(h));
  compute_row(p, rd, kv, b, h, i, &row);
  weighted_sum(row, kv, p.seqlen_k(b), p.head_dim_v, out_row);
  *lse = row.lse;
}

BackwardResult backward(const BackwardArgs& args, Rounding rounding) {
  const Problem p = make_problem(args, Backend::Cpu);
  const Rounder rd{rounding == Rounding::LowPrecision, p.dtype};
  const int H = p.num_heads, Hk = p.num_heads_kv, d = p.head_dim, dv = p.head_dim_v;
  BackwardResult res;
  res.dq.assign(size_t(p.total_q) * H * d, 0.0);
  res.dk.assign(size_t(p.total_k) * Hk * d, 0.0);
  res.dv.assign(size_t(p.total_k) * Hk * dv, 0.0);
  const double keep_scale = p.dropout.enabled() ? double(p.dropout.keep_scale) : 1.0;

  Row row;
  KvRows kv;
  std::vector<double> dout(dv), dz, ds, dq(d);
  for (int b = 0; b < p.batch; ++b) {
    const int sk = p.seqlen_k(b);
    dz.resize(sk);
    ds.resize(sk);
    for (int h = 0; h < H; ++h) {
      const int hk = p.kv_head(h);
      const semantics::ScoreMod<double> mod = p.score_mod<double>(b, h);
      kv.load_for(p, rd, b, hk);
      for (int i = 0; i < p.seqlen_q(b); ++i) {
        compute_row(p, rd, kv, b, h, i, &row);
        for (int c = 0; c < dv; ++c) dout[c] = load(p.dout, p.row_begin_q(b), b, i, h, c);
        // dZ = dO . V^T, dP = dZ * keep; D = sum_j P_j dP_j (= rowsum(dO * O)).
        dots(dout.data(), kv.v.data(), sk, dv, dz.data());
        double D = 0.0;
        for (int j = 0; j < sk; ++j) {
          dz[j] = rd(dz[j]);
          const double dp = dz[j] * row.keep[j];
          D += row.p[j] * dp;
        }
        for (int j = 0; j < sk; ++j) {
          const double dp = dz[j] * row.keep[j];
          double g = rd(row.p[j] * (dp - D));
          if (g != 0.0) {
            if (rd.low) {
              if (p.softcap > 0) {
                const double t = rd(std::tanh(rd(row.dot[j] / p.softcap)));
                g = rd(g * (1.0 - t * t));
              }
            } else {
              g *= mod.grad(row.dot[j]);
            }
          }
          ds[j] = g;
        }
        // dq_i = sum_j dS_j k_j (low: then times scale); dk_j += dS_j q_i; dv_j += Z_j dO_i.
        std::fill(dq.begin(), dq.end(), 0.0);
        for (int j = 0; j < sk; ++j) {
          const int64_t kt = p.cu_k[b] + j;
          if (ds[j] != 0.0) {
            const double* k = kv.k.data() + size_t(j) * d;
            double* dk = res.dk.data() + (kt * Hk + hk) * d;
            for (int c = 0; c < d; ++c) {
              dq[c] += ds[j] * k[c];
              dk[c] += ds[j] * row.qs[c];
            }
          }
          const double z = row.p[j] * row.keep[j];
          if (z != 0.0) {
            double* dvr = res.dv.data() + (kt * Hk + hk) * dv;
            for (int c = 0; c < dv; ++c) dvr[c] += z * dout[c];
          }
        }
        const int64_t qt = p.cu_q[b] + i;
        for (int c = 0; c < d; ++c)
          res.dq[(qt * H + h) * d + c] = rd.low ? rd(rd(dq[c]) * p.softmax_scale) : dq[c];
      }
    }
  }
  if (rd.low) {
    for (double& x : res.dk) x = rd(x);
    for (double& x : res.dv) x = rd(rd(x) * keep_scale);
  }
  return res;
}

}  // namespace flashattn::reference
