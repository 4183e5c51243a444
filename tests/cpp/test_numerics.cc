// Special rows and numerics of the CPU backend: rows that see no key (out 0, lse -inf, zero
// gradients, never NaN), keys no row sees, large logits, and differential checks: GQA vs repeated
// K/V heads, varlen vs per-sequence padded calls, strided vs dense views, determinism.
#include <cstring>
#include <functional>
#include <tuple>
#include <vector>

#include "harness.h"

namespace flashattn::test {
namespace {

const DType kDTypes[] = {DType::Float32, DType::Float16, DType::BFloat16};

// Runs forward and backward, compares with the reference, and checks that every row `empty`
// names has out = 0, lse = -inf and dq = 0 exactly, and that nothing anywhere is NaN.
void check_empty_rows(const Spec& spec, const std::function<bool(int b, int i)>& empty) {
  Case c(spec);
  c.run_forward();
  c.run_backward();
  check_forward_results(c);
  check_backward_results(c);
  for (const HostTensor* t : {&c.out, &c.lse, &c.dq, &c.dk, &c.dv})
    EXPECT_EQ(t->nan_count(), 0) << spec.str();
  const int H = spec.heads, d = spec.head_dim, dv = spec.dv();
  int64_t empty_rows = 0;
  for (int b = 0; b < spec.batch; ++b)
    for (int i = 0; i < c.seq_q(b); ++i) {
      if (!empty(b, i)) continue;
      for (int h = 0; h < H; ++h) {
        ++empty_rows;
        const float lse = c.lse.get(c.lse_index(b, h, i));
        ASSERT_TRUE(std::isinf(lse) && lse < 0) << "lse=" << lse << " b=" << b << " h=" << h << " i=" << i;
        for (int col = 0; col < dv; ++col)
          ASSERT_EQ(c.out.get(Case::at(c.token_q(b, i), h, H, col, dv)), 0.0f) << "b=" << b << " h=" << h << " i=" << i;
        for (int col = 0; col < d; ++col)
          ASSERT_EQ(c.dq.get(Case::at(c.token_q(b, i), h, H, col, d)), 0.0f) << "b=" << b << " h=" << h << " i=" << i;
      }
    }
  EXPECT_GT(empty_rows, 0) << "the configuration was meant to have rows that see no key";
}

// Checks dk = dv = 0 exactly for the keys `unseen` names.
void check_unseen_keys(const Case& c, const std::function<bool(int b, int j)>& unseen) {
  const int Hk = c.spec.heads_kv, d = c.spec.head_dim, dv = c.spec.dv();
  int64_t count = 0;
  for (int b = 0; b < c.spec.batch; ++b)
    for (int j = 0; j < c.seq_k(b); ++j) {
      if (!unseen(b, j)) continue;
      ++count;
      for (int hk = 0; hk < Hk; ++hk) {
        for (int col = 0; col < d; ++col)
          ASSERT_EQ(c.dk.get(Case::at(c.token_k(b, j), hk, Hk, col, d)), 0.0f) << "b=" << b << " j=" << j;
        for (int col = 0; col < dv; ++col)
          ASSERT_EQ(c.dv.get(Case::at(c.token_k(b, j), hk, Hk, col, dv)), 0.0f) << "b=" << b << " j=" << j;
      }
    }
  EXPECT_GT(count, 0) << "the configuration was meant to have keys that no row sees";
}

TEST(EmptyRows, CausalWithMoreQueriesThanKeys) {
  for (DType t : kDTypes)
    for (bool extras : {false, true}) {
      Spec s;
      s.dtype = t;
      s.batch = 2;
      s.seqlen_q = 150;
      s.seqlen_k = 40;
      s.causal = true;
      if (extras) s.alibi = 2, s.softcap = 4.0f, s.dropout = 0.2f;
      check_empty_rows(s, [](int, int i) { return i < 150 - 40; });
    }
}

TEST(EmptyRows, WindowThatExcludesEveryKey) {
  for (DType t : kDTypes) {
    Spec s;
    s.dtype = t;
    s.seqlen_q = 100;
    s.seqlen_k = 30;
    s.window_left = 5;
    s.window_right = 10;  // row i sees keys [i - 75, i - 60]: nothing for i < 60
    s.softcap = 6.0f;
    s.dropout = 0.1f;
    check_empty_rows(s, [](int, int i) { return i < 60; });
  }
}

TEST(EmptyRows, VarlenSequencesWithoutKeys) {
  for (DType t : kDTypes) {
    Spec s;
    s.dtype = t;
    s.batch = 4;
    s.heads = 4;
    s.heads_kv = 2;
    s.lens_q = {10, 25, 70, 7};
    s.lens_k = {0, 30, 0, 64};
    s.alibi = 2;
    s.dropout = 0.3f;
    check_empty_rows(s, [](int b, int) { return b == 0 || b == 2; });
  }
}

TEST(UnseenKeys, WindowLeavesEarlyKeysUnseen) {
  for (DType t : kDTypes) {
    Spec s;
    s.dtype = t;
    s.seqlen_q = 20;
    s.seqlen_k = 200;
    s.window_left = 10;
    s.causal = true;  // row i sees keys [i + 170, i + 180]
    Case c(s);
    c.run_forward();
    c.run_backward();
    check_backward_results(c);
    check_unseen_keys(c, [](int, int j) { return j < 170; });
  }
}

TEST(UnseenKeys, VarlenSequencesWithoutQueries) {
  for (DType t : kDTypes) {
    Spec s;
    s.dtype = t;
    s.batch = 3;
    s.lens_q = {0, 20, 0};
    s.lens_k = {33, 40, 129};
    Case c(s);
    c.run_forward();
    c.run_backward();
    check_forward_results(c);
    check_backward_results(c);
    check_unseen_keys(c, [](int b, int) { return b != 1; });
  }
}

// q and k scaled by 100: logits in the thousands. The online softmax must not overflow.
TEST(LargeLogits, ForwardStaysFiniteAndAccurate) {
  for (DType t : kDTypes)
    for (bool causal : {false, true}) {
      Spec s;
      s.dtype = t;
      s.qk_std = 100.0f;
      s.seqlen_q = 130;
      s.seqlen_k = 257;
      s.head_dim = 16;  // keeps the naive fp16 yardstick's dot products below 65504
      s.causal = causal;
      Case c(s);
      c.run_forward();
      EXPECT_EQ(c.out.nan_count(), 0);
      for (int64_t e = 0; e < c.lse.numel(); ++e) ASSERT_TRUE(std::isfinite(c.lse.get(e))) << e;
      check_forward_results(c);
    }
}

TEST(LargeLogits, BackwardStaysFinite) {
  for (DType t : kDTypes) {
    Spec s;
    s.dtype = t;
    s.qk_std = 100.0f;
    s.seqlen_q = 130;
    s.seqlen_k = 257;
    s.head_dim = 16;
    s.softcap = 0.0f;
    Case c(s);
    c.run_forward();
    c.run_backward();
    for (const HostTensor* g : {&c.dq, &c.dk, &c.dv})
      for (int64_t e = 0; e < g->numel(); ++e) ASSERT_TRUE(std::isfinite(g->get(e))) << e << " " << s.str();
    // dv = P^T dO does not cancel: the tolerance rule applies to it as usual.
    const auto exact = reference::backward(c.backward_args(), reference::Rounding::Exact);
    reference::BackwardResult lowp;
    if (t != DType::Float32) lowp = reference::backward(c.backward_args(), reference::Rounding::LowPrecision);
    expect_close(s, "dv", c.dv, exact.dv, lowp.dv);
  }
}

// Softcap bounds the logits whatever q and k are: the full rule applies, backward included.
TEST(LargeLogits, WithSoftcap) {
  for (DType t : kDTypes) {
    Spec s;
    s.dtype = t;
    s.qk_std = 100.0f;
    s.seqlen_q = 77;
    s.seqlen_k = 140;
    s.head_dim = 16;
    s.softcap = 20.0f;
    check_forward(s);
    check_backward(s);
  }
}

// --- Differential checks ---

// GQA (heads_kv = 2) against MHA with each K/V head repeated heads / heads_kv times.
TEST(Differential, GqaEqualsRepeatedKvHeads) {
  for (DType t : {DType::Float32, DType::BFloat16})
    for (int extras = 0; extras < 2; ++extras) {
      Spec s;
      s.dtype = t;
      s.batch = 2;
      s.heads = 8;
      s.heads_kv = 2;
      s.seqlen_q = 97;
      s.seqlen_k = 150;
      s.head_dim = 40;
      s.num_threads = 2;
      if (extras) s.causal = true, s.alibi = 2, s.softcap = 5.0f, s.dropout = 0.25f;
      Case g(s);
      Spec rs = s;
      rs.heads_kv = s.heads;
      Case r(rs);
      const int group = s.heads / s.heads_kv, d = s.head_dim, dv = s.dv();
      for (int64_t tok = 0; tok < int64_t(s.batch) * s.seqlen_k; ++tok)
        for (int h = 0; h < s.heads; ++h) {
          for (int col = 0; col < d; ++col)
            r.k.set(Case::at(tok, h, s.heads, col, d), g.k.get(Case::at(tok, h / group, s.heads_kv, col, d)));
          for (int col = 0; col < dv; ++col)
            r.v.set(Case::at(tok, h, s.heads, col, dv), g.v.get(Case::at(tok, h / group, s.heads_kv, col, dv)));
        }
      r.q = g.q;
      r.dout = g.dout;
      if (s.alibi) r.alibi = g.alibi;
      g.run_forward();
      r.run_forward();
      EXPECT_TRUE(g.out.same_bits(r.out)) << s.str();
      EXPECT_TRUE(g.lse.same_bits(r.lse)) << s.str();
      g.run_backward();
      r.run_backward();
      EXPECT_TRUE(g.dq.same_bits(r.dq)) << s.str();
      // dk, dv of a kv head = the sum over its group's heads.
      const double eps = t == DType::Float32 ? 1e-5 : (group + 1) * std::ldexp(1.0, -8);
      for (auto [gt, rt, dim] : {std::tuple{&g.dk, &r.dk, d}, std::tuple{&g.dv, &r.dv, dv}}) {
        double max_err = 0, max_ref = 0;
        for (int64_t tok = 0; tok < int64_t(s.batch) * s.seqlen_k; ++tok)
          for (int hk = 0; hk < s.heads_kv; ++hk)
            for (int col = 0; col < dim; ++col) {
              double sum = 0;
              for (int gi = 0; gi < group; ++gi) sum += rt->get(Case::at(tok, hk * group + gi, s.heads, col, dim));
              const double ours = gt->get(Case::at(tok, hk, s.heads_kv, col, dim));
              ASSERT_FALSE(std::isnan(ours));
              max_err = std::max(max_err, std::fabs(ours - sum));
              max_ref = std::max(max_ref, std::fabs(sum));
            }
        EXPECT_LE(max_err, eps * std::max(1.0, max_ref)) << (dim == d ? "dk" : "dv") << " " << s.str();
      }
    }
}

// A varlen batch equals one padded call per sequence. The padded call of sequence b uses the
// Philox offset offset + b * heads (the stream of (b, h) is offset + b * heads + h), and the ALiBi
// slopes row b. One thread, so that both calls split the work the same way: bitwise equality.
TEST(Differential, VarlenEqualsPerSequencePadded) {
  for (DType t : kDTypes) {
    Spec s;
    s.dtype = t;
    s.batch = 4;
    s.heads = 4;
    s.heads_kv = 2;
    s.lens_q = {37, 64, 1, 130};
    s.lens_k = {50, 3, 70, 129};
    s.causal = true;
    s.window_left = 60;
    s.alibi = 2;
    s.softcap = 7.0f;
    s.dropout = 0.2f;
    s.num_threads = 1;
    Case v(s);
    v.run_forward();
    v.run_backward();
    const int H = s.heads, Hk = s.heads_kv, d = s.head_dim, dv = s.dv();
    for (int b = 0; b < s.batch; ++b) {
      Spec ps = s;
      ps.batch = 1;
      ps.lens_q.clear();
      ps.lens_k.clear();
      ps.seqlen_q = s.lens_q[b];
      ps.seqlen_k = s.lens_k[b];
      ps.alibi = 1;
      Case p(ps);
      for (int i = 0; i < ps.seqlen_q; ++i)
        for (int h = 0; h < H; ++h) {
          for (int col = 0; col < d; ++col) p.q.set(Case::at(i, h, H, col, d), v.q.get(Case::at(v.token_q(b, i), h, H, col, d)));
          for (int col = 0; col < dv; ++col)
            p.dout.set(Case::at(i, h, H, col, dv), v.dout.get(Case::at(v.token_q(b, i), h, H, col, dv)));
        }
      for (int j = 0; j < ps.seqlen_k; ++j)
        for (int h = 0; h < Hk; ++h) {
          for (int col = 0; col < d; ++col) p.k.set(Case::at(j, h, Hk, col, d), v.k.get(Case::at(v.token_k(b, j), h, Hk, col, d)));
          for (int col = 0; col < dv; ++col) p.v.set(Case::at(j, h, Hk, col, dv), v.v.get(Case::at(v.token_k(b, j), h, Hk, col, dv)));
        }
      for (int h = 0; h < H; ++h) p.alibi.set(h, v.alibi.get(int64_t(b) * H + h));
      ForwardArgs fa = p.forward_args();
      fa.options.seed = v.options().seed;
      fa.options.offset = v.options().offset + uint64_t(b) * H;
      p.out.poison();
      p.lse.poison();
      flashattn::forward(fa, p.context());
      BackwardArgs ba = p.backward_args();
      ba.options = fa.options;
      p.dq.poison();
      p.dk.poison();
      p.dv.poison();
      flashattn::backward(ba, p.context());

      auto same_rows = [&](const HostTensor& vt, const HostTensor& pt, bool query, int heads, int dim, const char* what) {
        const int n = query ? ps.seqlen_q : ps.seqlen_k;
        for (int i = 0; i < n; ++i)
          for (int h = 0; h < heads; ++h)
            for (int col = 0; col < dim; ++col) {
              const int64_t tok = query ? v.token_q(b, i) : v.token_k(b, i);
              const float a = vt.get(Case::at(tok, h, heads, col, dim)), e = pt.get(Case::at(i, h, heads, col, dim));
              ASSERT_TRUE(std::memcmp(&a, &e, sizeof a) == 0 || a == e)
                  << what << " b=" << b << " row=" << i << " h=" << h << " col=" << col << ": varlen " << a
                  << " padded " << e << "; " << s.str();
            }
      };
      same_rows(v.out, p.out, true, H, dv, "out");
      same_rows(v.dq, p.dq, true, H, d, "dq");
      same_rows(v.dk, p.dk, false, Hk, d, "dk");
      same_rows(v.dv, p.dv, false, Hk, dv, "dv");
      for (int h = 0; h < H; ++h)
        for (int i = 0; i < ps.seqlen_q; ++i) {
          const float a = v.lse.get(v.lse_index(b, h, i)), e = p.lse.get(p.lse_index(0, h, i));
          ASSERT_TRUE(a == e || (std::isinf(a) && std::isinf(e))) << "lse b=" << b << " h=" << h << " i=" << i;
        }
    }
  }
}

// Strided views (q, k, v slices of one packed qkv buffer; out inside a wider buffer; lse with a
// padded row pitch) give the same bits as dense tensors.
TEST(Differential, StridedViewsEqualDense) {
  for (DType t : {DType::Float32, DType::BFloat16}) {
    Spec s;
    s.dtype = t;
    s.batch = 2;
    s.seqlen_q = s.seqlen_k = 70;
    s.heads = s.heads_kv = 3;
    s.head_dim = 24;
    s.causal = true;
    s.dropout = 0.1f;
    s.num_threads = 1;
    Case c(s);
    c.run_forward();
    c.run_backward();
    const int B = s.batch, S = s.seqlen_q, H = s.heads, D = s.head_dim;
    // qkv: (B, S, 3, H, D) packed; out/dq/dk/dv: (B, S, H, D + 5) with padding columns.
    HostTensor qkv(t, {B, S, 3, H, D}), dout(t, {B, S, H, D});
    const int Dp = D + 5;
    HostTensor out(t, {B, S, H, Dp}), dq(t, {B, S, H, Dp}), dk(t, {B, S, H, Dp}), dv(t, {B, S, H, Dp});
    HostTensor lse(DType::Float32, {B, H, S + 3});
    for (int b = 0; b < B; ++b)
      for (int i = 0; i < S; ++i)
        for (int h = 0; h < H; ++h)
          for (int col = 0; col < D; ++col) {
            const int64_t src = ((int64_t(b) * S + i) * H + h) * D + col;
            const int64_t dst = (((int64_t(b) * S + i) * 3) * H + h) * D + col;
            qkv.set(dst, c.q.get(src));
            qkv.set(dst + H * D, c.k.get(src));
            qkv.set(dst + 2 * H * D, c.v.get(src));
            dout.set(src, c.dout.get(src));
          }
    const int es = int(dtype_size(t));
    auto slice = [&](int which) {
      return TensorView::strided(static_cast<uint8_t*>(qkv.view.data) + int64_t(which) * H * D * es, t, {B, S, H, D},
                                 {int64_t(S) * 3 * H * D, 3 * H * D, D, 1});
    };
    auto padded = [&](HostTensor& x) {
      return TensorView::strided(x.view.data, t, {B, S, H, D}, {int64_t(S) * H * Dp, int64_t(H) * Dp, Dp, 1});
    };
    ForwardArgs fa;
    fa.q = slice(0);
    fa.k = slice(1);
    fa.v = slice(2);
    fa.out = padded(out);
    fa.softmax_lse = TensorView::strided(lse.view.data, DType::Float32, {B, H, S}, {int64_t(H) * (S + 3), S + 3, 1});
    fa.options = c.options();
    flashattn::forward(fa, c.context());
    BackwardArgs ba;
    ba.q = fa.q;
    ba.k = fa.k;
    ba.v = fa.v;
    ba.out = fa.out;
    ba.softmax_lse = fa.softmax_lse;
    ba.dout = dout.view;
    ba.dq = padded(dq);
    ba.dk = padded(dk);
    ba.dv = padded(dv);
    ba.options = fa.options;
    flashattn::backward(ba, c.context());
    for (int b = 0; b < B; ++b)
      for (int i = 0; i < S; ++i)
        for (int h = 0; h < H; ++h) {
          const int64_t dense = ((int64_t(b) * S + i) * H + h) * D, pad = ((int64_t(b) * S + i) * H + h) * Dp;
          for (int col = 0; col < D; ++col) {
            ASSERT_EQ(out.get(pad + col), c.out.get(dense + col)) << "out " << b << " " << i << " " << h << " " << col;
            ASSERT_EQ(dq.get(pad + col), c.dq.get(dense + col)) << "dq";
            ASSERT_EQ(dk.get(pad + col), c.dk.get(dense + col)) << "dk";
            ASSERT_EQ(dv.get(pad + col), c.dv.get(dense + col)) << "dv";
          }
          // The padding columns are not part of the views: still poison.
          for (int col = D; col < Dp; ++col)
            for (const HostTensor* x : {&out, &dq, &dk, &dv}) ASSERT_TRUE(std::isnan(x->get(pad + col))) << "wrote padding";
          const float a = lse.get((int64_t(b) * H + h) * (S + 3) + i), e = c.lse.get(c.lse_index(b, h, i));
          ASSERT_EQ(a, e) << "lse";
        }
    for (int b = 0; b < B; ++b)
      for (int h = 0; h < H; ++h)
        for (int i = S; i < S + 3; ++i) ASSERT_TRUE(std::isnan(lse.get((int64_t(b) * H + h) * (S + 3) + i))) << "wrote lse padding";
  }
}

// Varlen with strided views: q, k, v slices of a packed (tokens, 3, heads, dim) buffer, lse with
// a padded head pitch (heads, total_q + 5), (batch, heads) ALiBi slopes with a padded row pitch.
TEST(Differential, StridedVarlenAndAlibiEqualDense) {
  Spec s;
  s.dtype = DType::Float16;
  s.batch = 3;
  s.heads = s.heads_kv = 2;
  s.head_dim = 40;
  s.lens_q = {33, 12, 70};  // q, k, v share one packed buffer: equal token counts
  s.lens_k = {33, 12, 70};
  s.causal = true;
  s.alibi = 2;
  s.softcap = 9.0f;
  s.num_threads = 1;
  Case c(s);
  c.run_forward();
  c.run_backward();
  const int64_t T = c.total_q;
  const int H = s.heads, D = s.head_dim, es = int(dtype_size(s.dtype));
  HostTensor qkv(s.dtype, {T, 3, H, D});
  for (int64_t t = 0; t < T; ++t)
    for (int e = 0; e < H * D; ++e) {
      qkv.set((t * 3 + 0) * H * D + e, c.q.get(t * H * D + e));
      qkv.set((t * 3 + 1) * H * D + e, c.k.get(t * H * D + e));
      qkv.set((t * 3 + 2) * H * D + e, c.v.get(t * H * D + e));
    }
  auto slice = [&](int which) {
    return TensorView::strided(static_cast<uint8_t*>(qkv.view.data) + int64_t(which) * H * D * es, s.dtype, {T, H, D},
                               {3 * int64_t(H) * D, D, 1});
  };
  HostTensor lse(DType::Float32, {H, T + 5}), slopes(DType::Float32, {s.batch, H + 3}), out(s.dtype, {T, H, D});
  for (int b = 0; b < s.batch; ++b)
    for (int h = 0; h < H; ++h) slopes.set(int64_t(b) * (H + 3) + h, c.alibi.get(int64_t(b) * H + h));
  ForwardArgs fa = c.forward_args();
  fa.q = slice(0);
  fa.k = slice(1);
  fa.v = slice(2);
  fa.out = out.view;
  fa.softmax_lse = TensorView::strided(lse.view.data, DType::Float32, {H, T}, {T + 5, 1});
  fa.options.alibi_slopes = TensorView::strided(slopes.view.data, DType::Float32, {s.batch, H}, {H + 3, 1});
  flashattn::forward(fa, c.context());
  EXPECT_TRUE(out.same_bits(c.out));
  for (int h = 0; h < H; ++h)
    for (int64_t t = 0; t < T; ++t) {
      const float a = lse.get(int64_t(h) * (T + 5) + t), e = c.lse.get(int64_t(h) * T + t);
      ASSERT_TRUE(a == e || (std::isinf(a) && std::isinf(e))) << "lse h=" << h << " t=" << t;
    }
  for (int h = 0; h < H; ++h)
    for (int64_t t = T; t < T + 5; ++t) ASSERT_TRUE(std::isnan(lse.get(int64_t(h) * (T + 5) + t))) << "wrote lse padding";
  HostTensor dq(s.dtype, {T, H, D}), dk(s.dtype, {T, H, D}), dv(s.dtype, {T, H, D});
  BackwardArgs ba = c.backward_args();
  ba.q = fa.q;
  ba.k = fa.k;
  ba.v = fa.v;
  ba.out = fa.out;
  ba.softmax_lse = fa.softmax_lse;
  ba.options = fa.options;
  ba.dq = dq.view;
  ba.dk = dk.view;
  ba.dv = dv.view;
  flashattn::backward(ba, c.context());
  EXPECT_TRUE(dq.same_bits(c.dq));
  EXPECT_TRUE(dk.same_bits(c.dk));
  EXPECT_TRUE(dv.same_bits(c.dv));
}

// --- Determinism ---

struct Outputs {
  HostTensor out, lse, dq, dk, dv;
};
Outputs run_all(const Spec& s) {
  Case c(s);
  c.run_forward();
  c.run_backward();
  return {c.out, c.lse, c.dq, c.dk, c.dv};
}

std::vector<Spec> determinism_specs() {
  std::vector<Spec> v;
  Spec s;
  s.dtype = DType::BFloat16;
  s.batch = 2;
  s.heads = 4;
  s.heads_kv = 2;
  s.seqlen_q = 200;
  s.seqlen_k = 333;
  s.causal = true;
  s.dropout = 0.2f;
  s.deterministic = true;
  v.push_back(s);
  Spec one = s;  // a single (batch, kv head) pair: the backward splits the key blocks over threads
  one.batch = 1;
  one.heads = 2;
  one.heads_kv = 1;
  one.seqlen_q = 300;
  one.seqlen_k = 517;
  one.dtype = DType::Float32;
  one.alibi = 1;
  one.causal = false;
  v.push_back(one);
  Spec vl = s;
  vl.batch = 3;
  vl.lens_q = {100, 0, 257};
  vl.lens_k = {140, 33, 200};
  vl.dtype = DType::Float16;
  v.push_back(vl);
  return v;
}

TEST(Determinism, TwoRunsAreBitwiseEqual) {
  for (Spec s : determinism_specs())
    for (int threads : {0, 2}) {
      s.num_threads = threads;
      const Outputs a = run_all(s), b = run_all(s);
      EXPECT_TRUE(a.out.same_bits(b.out)) << s.str();
      EXPECT_TRUE(a.lse.same_bits(b.lse)) << s.str();
      EXPECT_TRUE(a.dq.same_bits(b.dq)) << s.str();
      EXPECT_TRUE(a.dk.same_bits(b.dk)) << s.str();
      EXPECT_TRUE(a.dv.same_bits(b.dv)) << s.str();
    }
}

// One thread and two threads: the forward and dk, dv bitwise equal (each key block is owned by one
// thread in a fixed order); dq too when there are at least as many (batch, kv head) pairs as
// threads, and within the tolerance rule otherwise (the key blocks' dq partials are then summed
// in a thread-count dependent grouping).
TEST(Determinism, OneThreadVsTwo) {
  for (Spec s : determinism_specs()) {
    s.num_threads = 1;
    const Outputs a = run_all(s);
    s.num_threads = 2;
    const Outputs b = run_all(s);
    EXPECT_TRUE(a.out.same_bits(b.out)) << s.str();
    EXPECT_TRUE(a.lse.same_bits(b.lse)) << s.str();
    EXPECT_TRUE(a.dk.same_bits(b.dk)) << s.str();
    EXPECT_TRUE(a.dv.same_bits(b.dv)) << s.str();
    if (s.batch * s.heads_kv >= 2) {
      EXPECT_TRUE(a.dq.same_bits(b.dq)) << s.str();
    } else {
      const Comparison c = compare(DType::Float32, b.dq.to_double(), a.dq.to_double(), {});
      EXPECT_TRUE(c.ok) << c.describe("dq 2 threads vs 1") << "; " << s.str();
    }
  }
}

}  // namespace
}  // namespace flashattn::test
