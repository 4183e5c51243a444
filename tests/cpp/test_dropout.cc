// Dropout exactness: the set of attention weights the CPU backend drops is the set the documented
// Philox4x32-7 rule drops, element for element, in the forward and the backward, for any thread
// count. Observed through the public API: with V[j][c] = (j == c + chunk * head_dim_v), out[i][c]
// is exactly 0 iff key c + chunk * head_dim_v was dropped or masked for query i.
#include <cmath>
#include <cstdlib>
#include <vector>

#include "cpu/dropout_bits.h"
#include "harness.h"
#include "semantics/dropout.h"

namespace flashattn::test {
namespace {

using semantics::Philox4;
using semantics::philox4x32;

// --- Philox4x32 (7 rounds, the rule's; 10, the common default) against the published Random123
// known-answer vectors (kat_vectors). ---

template <int kRounds = 10>
void expect_philox(Philox4 ctr, uint32_t k0, uint32_t k1, Philox4 want) {
  const Philox4 got = philox4x32<kRounds>(ctr, k0, k1);
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(got.x[t], want.x[t]) << "word " << t << std::hex << " ctr " << ctr.x[0] << " " << ctr.x[1] << " "
                                   << ctr.x[2] << " " << ctr.x[3] << " key " << k0 << " " << k1;
}

TEST(Philox, KnownAnswerZero) {
  expect_philox({{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}});
}
TEST(Philox, KnownAnswerAllOnes) {
  expect_philox({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu,
                {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}});
}
TEST(Philox, KnownAnswerPi) {
  expect_philox({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u, 0x299f31d0u,
                {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}});
}
TEST(Philox, KnownAnswersSevenRounds) {
  static_assert(semantics::kDropoutRounds == 7, "the rule's round count (docs/numerics.md)");
  expect_philox<7>({{0, 0, 0, 0}}, 0, 0, {{0x5f6fb709u, 0x0d893f64u, 0x4f121f81u, 0x4f730a48u}});
  expect_philox<7>({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu,
                   {{0x5207ddc2u, 0x45165e59u, 0x4d8ee751u, 0x8c52f662u}});
  expect_philox<7>({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u, 0x299f31d0u,
                   {{0x4dfccabau, 0x190a87f0u, 0xc47362bau, 0xb6b5242au}});
}

// --- The documented rule, written out independently of semantics::Dropout. ---

// dropped iff byte < threshold, threshold = min(255, max(1, round(p * 256))); the counter is
// ((col / 64) * 4 + (col % 8) / 2, row, low32(offset + bh), high32(offset + bh)), the key
// (low32(seed), high32(seed)), 7 rounds; the byte is byte 2 * ((col % 64) / 8) + col % 2 of the
// output (byte k: bits 8k .. 8k + 7, little end first).
int documented_threshold(double p) {
  int t = int(std::lround(p * 256.0));
  return t > 255 ? 255 : t < 1 ? 1 : t;
}
bool documented_keep(double p, uint64_t seed, uint64_t offset, uint64_t bh, int row, int col) {
  if (p <= 0) return true;
  const int threshold = documented_threshold(p);
  const uint64_t sub = offset + bh;
  const uint32_t unit = uint32_t((col / 64) * 4 + (col % 8) / 2);
  const Philox4 w = philox4x32<7>({{unit, uint32_t(row), uint32_t(sub), uint32_t(sub >> 32)}}, uint32_t(seed),
                                  uint32_t(seed >> 32));
  uint8_t bytes[16];
  for (int k = 0; k < 16; ++k) bytes[k] = uint8_t(w.x[k / 4] >> (8 * (k % 4)));
  return bytes[2 * ((col % 64) / 8) + col % 2] >= threshold;
}

// The GPU kernels' accessor (pairs of columns every 8, from any even start) and the CPU one
// (64 columns) agree with keep() column for column.
TEST(DropoutRule, BulkAccessorsMatchKeep) {
  const semantics::Dropout d = semantics::make_dropout(0.3, 1234, 99);
  for (uint64_t bh : {0, 3})
    for (int row : {0, 7, 1000}) {
      for (int j0 = 0; j0 < 200; j0 += 2)
        for (int pairs : {1, 3, 4, 10, 16}) {
          const uint32_t m = d.keep_mask_pairs(bh, row, j0, pairs);
          for (int t = 0; t < pairs; ++t)
            for (int e = 0; e < 2; ++e)
              ASSERT_EQ((m >> (2 * t + e)) & 1u, uint32_t(d.keep(bh, row, j0 + 8 * t + e)))
                  << "j0=" << j0 << " pairs=" << pairs << " t=" << t << " e=" << e;
        }
      for (int c0 : {0, 64, 192}) {
        const uint64_t m = d.keep_bits64(bh, row, c0);
        for (int c = 0; c < 64; ++c) ASSERT_EQ(uint32_t((m >> c) & 1u), uint32_t(d.keep(bh, row, c0 + c))) << c0 + c;
      }
    }
}

// The CPU backend's batched draw (cpu/dropout_bits.h; here its portable form: the tests are built
// without -march=native, the backend with it, and DropoutExact checks that build's form) against
// keep_bits64 (the masked select, vkeep, is the backend's: DropoutExact).
TEST(DropoutRule, CpuPairDrawMatchesKeepBits) {
  for (double p : {0.001, 0.1, 0.5, 0.97})
    for (uint64_t bh : {uint64_t(0), uint64_t(7), (uint64_t(1) << 33) + 5}) {
      const semantics::Dropout d = semantics::make_dropout(p, 0x0123456789abcdefull, 1ull << 35);
      for (int row : {0, 1, 63, 4096})
        for (int col : {0, 64, 128, 8192}) {
          uint64_t two[2];
          cpu::keep_bits64_pair(d, bh, row, col, row + 1, col + 64, two);
          ASSERT_EQ(two[0], d.keep_bits64(bh, row, col)) << p << " " << row << " " << col;
          ASSERT_EQ(two[1], d.keep_bits64(bh, row + 1, col + 64)) << p << " " << row << " " << col;
        }
    }
}

// The byte-level helpers the sm90 backward draws with (byte_kept, column_of) against keep().
TEST(DropoutRule, ByteHelpersMatchKeep) {
  for (int q = 0; q < 4; ++q)
    for (int k = 0; k < 16; ++k) {
      const int c = semantics::Dropout::column_of(q, k);
      ASSERT_TRUE(c >= 0 && c < 64);
      EXPECT_EQ(semantics::Dropout::unit_of(128 + c), 8 + q);
      EXPECT_EQ(semantics::Dropout::byte_of(128 + c), k);
    }
  for (double p : {1e-9, 0.17, 0.5, 0.9999})
    for (uint64_t bh : {0, 9}) {
      const semantics::Dropout d = semantics::make_dropout(p, 0xfeedbeef12345ull, 3);
      for (int row : {0, 5, 4097})
        for (int unit = 0; unit < 12; ++unit) {
          const semantics::Philox4 w = d.words(bh, row, unit);
          for (int k = 0; k < 16; ++k) {
            const int col = (unit / 4) * 64 + semantics::Dropout::column_of(unit % 4, k);
            ASSERT_EQ(semantics::Dropout::byte_kept(w, k, d.threshold_hi()), d.keep(bh, row, col))
                << "p=" << p << " row=" << row << " col=" << col;
            ASSERT_EQ(semantics::Dropout::byte_kept(w, k, d.threshold_hi()),
                      documented_keep(p, 0xfeedbeef12345ull, 3, bh, row, col));
          }
        }
    }
}

TEST(DropoutRule, KeepMatchesDocumentedRule) {
  for (double p : {1e-12, 0.1, 0.5, 0.9, 0.999999})
    for (uint64_t seed : {uint64_t(0), uint64_t(42), uint64_t(0x123456789abcdef0ull)})
      for (uint64_t offset : {uint64_t(0), uint64_t(7), uint64_t(0xfffffffeull), uint64_t(1) << 40}) {
        const semantics::Dropout d = semantics::make_dropout(p, seed, offset);
        ASSERT_TRUE(d.enabled());
        EXPECT_FLOAT_EQ(d.keep_scale, float(1.0 / (1.0 - p)));
        for (uint64_t bh : {0, 1, 5})
          for (int row = 0; row < 9; ++row)
            for (int col = 0; col < 140; ++col)
              ASSERT_EQ(d.keep(bh, row, col), documented_keep(p, seed, offset, bh, row, col))
                  << "p=" << p << " seed=" << seed << " offset=" << offset << " bh=" << bh << " row=" << row
                  << " col=" << col;
      }
  EXPECT_FALSE(semantics::make_dropout(0.0, 1, 2).enabled());
}

// --- Observing the backend's dropped set through the public API. ---

// Visibility straight from the public header's formula (not semantics::Mask).
bool documented_visible(int sq, int sk, int left, int right, bool causal, int i, int j) {
  if (j < 0 || j >= sk) return false;
  if (causal) right = 0;
  const int64_t diag = int64_t(i) + sk - sq;
  if (left >= 0 && j < diag - left) return false;
  if (right >= 0 && j > diag + right) return false;
  return true;
}

struct Observed {
  int batch = 0, heads = 0, max_q = 0, max_k = 0;
  std::vector<int8_t> kept;  // [b][h][i][j]: 1 nonzero weight, 0 zero, -1 outside the sequence
  int8_t& at(int b, int h, int i, int j) { return kept[((size_t(b) * heads + h) * max_q + i) * max_k + j]; }
  int8_t at(int b, int h, int i, int j) const {
    return kept[((size_t(b) * heads + h) * max_q + i) * max_k + j];
  }
};

int seq_q(const Case& c, int b) { return c.seq_q(b); }
int seq_k(const Case& c, int b) { return c.seq_k(b); }
int64_t tok_q(const Case& c, int b, int i) { return c.token_q(b, i); }
int64_t tok_k(const Case& c, int b, int j) { return c.token_k(b, j); }

Observed empty_observed(const Case& c) {
  Observed o;
  o.batch = c.spec.batch;
  o.heads = c.spec.heads;
  for (int b = 0; b < o.batch; ++b) {
    o.max_q = std::max(o.max_q, seq_q(c, b));
    o.max_k = std::max(o.max_k, seq_k(c, b));
  }
  o.kept.assign(size_t(o.batch) * o.heads * o.max_q * o.max_k, -1);
  return o;
}

// Small ALiBi slopes so that no visible weight underflows to an exact 0 in fp32.
void soften_alibi(Case& c) {
  if (!c.spec.alibi) return;
  std::mt19937_64 rng(c.spec.seed + 99);
  c.alibi.fill_uniform(rng, 0.001f, 0.02f);
}

// Forward with identity-like V chunks. `outs` (optional) collects each chunk's out tensor.
Observed observe_forward(Case& c, const Options& opt, int threads, std::vector<HostTensor>* outs = nullptr) {
  const Spec& s = c.spec;
  const int dv = s.dv(), hk_count = s.heads_kv, H = s.heads;
  Observed o = empty_observed(c);
  const int chunks = (o.max_k + dv - 1) / dv;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    for (int b = 0; b < s.batch; ++b)
      for (int j = 0; j < seq_k(c, b); ++j)
        for (int hk = 0; hk < hk_count; ++hk)
          for (int col = 0; col < dv; ++col)
            c.v.set((tok_k(c, b, j) * hk_count + hk) * dv + col, j == col + chunk * dv ? 1.0f : 0.0f);
    ForwardArgs a = c.forward_args();
    a.options = opt;
    Context ctx = c.context();  // the CPU backend (Backend::Auto would pick a GPU where present)
    ctx.num_threads = threads;
    c.out.poison();
    c.lse.poison();
    flashattn::forward(a, ctx);
    for (int b = 0; b < s.batch; ++b)
      for (int h = 0; h < H; ++h)
        for (int i = 0; i < seq_q(c, b); ++i)
          for (int col = 0; col < dv; ++col) {
            const int j = col + chunk * dv;
            if (j >= seq_k(c, b)) break;
            const float x = c.out.get((tok_q(c, b, i) * H + h) * dv + col);
            EXPECT_FALSE(std::isnan(x));
            o.at(b, h, i, j) = x != 0.0f ? 1 : 0;
          }
    if (outs) outs->push_back(c.out);
  }
  return o;
}

// Backward with dout = 1 on a single (row, head) at a time: dv[j] = Z[row][j] of that head, which
// is exactly 0 iff key j was dropped or masked for that row.
Observed observe_backward(Case& c, const Options& opt, int threads) {
  const Spec& s = c.spec;
  const int dv = s.dv(), Hk = s.heads_kv, H = s.heads, group = H / Hk;
  Observed o = empty_observed(c);
  std::mt19937_64 rng(s.seed + 5);
  c.v.fill_normal(rng);
  Context ctx = c.context();
  ctx.num_threads = threads;
  {
    ForwardArgs fa = c.forward_args();
    fa.options = opt;
    c.out.poison();
    c.lse.poison();
    flashattn::forward(fa, ctx);
  }
  for (int h = 0; h < H; ++h)
    for (int r = 0; r < o.max_q; ++r) {
      for (int64_t e = 0; e < c.dout.numel(); ++e) c.dout.set(e, 0.0f);
      for (int b = 0; b < s.batch; ++b)
        if (r < seq_q(c, b))
          for (int col = 0; col < dv; ++col) c.dout.set((tok_q(c, b, r) * H + h) * dv + col, 1.0f);
      BackwardArgs a = c.backward_args();
      a.options = opt;
      c.dq.poison();
      c.dk.poison();
      c.dv.poison();
      flashattn::backward(a, ctx);
      for (int b = 0; b < s.batch; ++b) {
        if (r >= seq_q(c, b)) continue;
        for (int j = 0; j < seq_k(c, b); ++j) {
          const float x = c.dv.get((tok_k(c, b, j) * Hk + h / group) * dv + 0);
          EXPECT_FALSE(std::isnan(x));
          o.at(b, h, r, j) = x != 0.0f ? 1 : 0;
        }
      }
    }
  return o;
}

// Compares an observation with visible(i, j) && documented_keep(...) for every element.
void expect_matches_rule(const Case& c, const Options& opt, const Observed& o, const char* what) {
  int64_t mismatches = 0, checked = 0;
  for (int b = 0; b < o.batch; ++b)
    for (int h = 0; h < o.heads; ++h)
      for (int i = 0; i < seq_q(c, b); ++i)
        for (int j = 0; j < seq_k(c, b); ++j) {
          const bool vis = documented_visible(seq_q(c, b), seq_k(c, b), opt.window_left, opt.window_right,
                                              opt.causal, i, j);
          const bool keep = documented_keep(opt.dropout_p, opt.seed, opt.offset, uint64_t(b) * o.heads + h, i, j);
          const int want = vis && keep ? 1 : 0;
          ++checked;
          if (o.at(b, h, i, j) != want && ++mismatches <= 5)
            ADD_FAILURE() << what << ": (b=" << b << ", h=" << h << ", i=" << i << ", j=" << j << ") observed "
                          << int(o.at(b, h, i, j)) << " want " << want << " (visible=" << vis << ", keep=" << keep
                          << "); " << c.spec.str();
        }
  EXPECT_EQ(mismatches, 0) << what << ": " << mismatches << " of " << checked << " elements differ";
  EXPECT_GT(checked, 0);
}

Options dropout_options(float p, uint64_t seed, uint64_t offset) {
  Options o;
  o.dropout_p = p;
  o.seed = seed;
  o.offset = offset;
  return o;
}

Spec dropout_spec() {
  Spec s;
  s.dtype = DType::Float32;
  s.batch = 2;
  s.heads = 3;
  s.heads_kv = 3;
  s.seqlen_q = 45;
  s.seqlen_k = 150;
  s.head_dim = 32;
  s.head_dim_v = 64;
  s.seed = 11;
  return s;
}

TEST(DropoutExact, ForwardMatchesRule) {
  Case c(dropout_spec());
  const Options opt = dropout_options(0.3f, 0x0123456789abcdefull, 5);
  expect_matches_rule(c, opt, observe_forward(c, opt, 0), "forward");
}

TEST(DropoutExact, ForwardMatchesRuleBf16) {
  Spec s = dropout_spec();
  s.dtype = DType::BFloat16;
  Case c(s);
  const Options opt = dropout_options(0.45f, 77, 1000);
  expect_matches_rule(c, opt, observe_forward(c, opt, 0), "forward bf16");
}

TEST(DropoutExact, ForwardMatchesRuleCausalWindowSoftcapAlibiGqa) {
  Spec s = dropout_spec();
  s.heads = 4;
  s.heads_kv = 2;
  s.seqlen_q = 90;
  s.seqlen_k = 70;
  s.head_dim_v = 7;  // many chunks, odd width
  s.alibi = 2;
  Case c(s);
  soften_alibi(c);
  Options opt = dropout_options(0.2f, 3, 0);
  opt.window_left = 30;
  opt.window_right = 4;
  opt.softcap = 3.0f;
  opt.alibi_slopes = c.alibi.view;
  expect_matches_rule(c, opt, observe_forward(c, opt, 0), "forward window");
  opt.window_right = -1;
  opt.causal = true;
  expect_matches_rule(c, opt, observe_forward(c, opt, 0), "forward causal");
}

TEST(DropoutExact, ForwardMatchesRuleVarlen) {
  Spec s = dropout_spec();
  s.batch = 4;
  s.lens_q = {20, 0, 67, 33};
  s.lens_k = {130, 12, 0, 71};
  Case c(s);
  Options opt = dropout_options(0.35f, 1234567, 3);
  expect_matches_rule(c, opt, observe_forward(c, opt, 0), "forward varlen");
  opt.causal = true;
  expect_matches_rule(c, opt, observe_forward(c, opt, 0), "forward varlen causal");
}

TEST(DropoutExact, IndependentOfThreadCount) {
  Case c(dropout_spec());
  const Options opt = dropout_options(0.3f, 99, 17);
  std::vector<HostTensor> outs1, outs2;
  const Observed o1 = observe_forward(c, opt, 1, &outs1);
  const Observed o2 = observe_forward(c, opt, 2, &outs2);
  EXPECT_EQ(o1.kept, o2.kept);
  ASSERT_EQ(outs1.size(), outs2.size());
  for (size_t t = 0; t < outs1.size(); ++t) EXPECT_TRUE(outs1[t].same_bits(outs2[t])) << "chunk " << t;
  expect_matches_rule(c, opt, o1, "forward, 1 thread");
}

TEST(DropoutExact, BackwardMatchesRuleAndForward) {
  Spec s = dropout_spec();
  s.heads = 2;
  s.heads_kv = 1;  // GQA: the dropped set follows the query head
  s.seqlen_q = 21;
  s.seqlen_k = 133;
  s.head_dim_v = 16;
  Case c(s);
  Options opt = dropout_options(0.4f, 0xfeedfacecafebeefull, 9);
  opt.window_left = 100;
  opt.window_right = 5;
  const Observed fwd = observe_forward(c, opt, 0);
  const Observed bwd1 = observe_backward(c, opt, 1);
  const Observed bwd2 = observe_backward(c, opt, 2);
  expect_matches_rule(c, opt, fwd, "forward");
  expect_matches_rule(c, opt, bwd1, "backward, 1 thread");
  EXPECT_EQ(fwd.kept, bwd1.kept);
  EXPECT_EQ(bwd1.kept, bwd2.kept);
}

TEST(DropoutExact, BackwardMatchesRuleVarlen) {
  Spec s = dropout_spec();
  s.batch = 3;
  s.lens_q = {9, 0, 17};
  s.lens_k = {70, 5, 0};
  s.heads = 2;
  s.heads_kv = 2;
  Case c(s);
  Options opt = dropout_options(0.25f, 5, 2);
  opt.causal = true;
  expect_matches_rule(c, opt, observe_backward(c, opt, 0), "backward varlen");
}

// Backward results with dropout are bitwise equal for 1 and 2 threads (batch * heads_kv >= 2, so
// both thread counts take the same work split).
TEST(DropoutExact, BackwardBitwiseAcrossThreadCounts) {
  Spec s = dropout_spec();
  s.dtype = DType::BFloat16;
  s.dropout = 0.3f;
  s.causal = true;
  s.seqlen_q = 130;
  s.seqlen_k = 140;
  Case c(s);
  c.spec.num_threads = 1;
  c.run_forward();
  c.run_backward();
  const HostTensor out1 = c.out, dq1 = c.dq, dk1 = c.dk, dv1 = c.dv;
  c.spec.num_threads = 2;
  c.run_forward();
  c.run_backward();
  EXPECT_TRUE(c.out.same_bits(out1));
  EXPECT_TRUE(c.dq.same_bits(dq1));
  EXPECT_TRUE(c.dk.same_bits(dk1));
  EXPECT_TRUE(c.dv.same_bits(dv1));
}

// --- Statistics and parameters of the mask. ---

struct Rate {
  int64_t kept = 0, total = 0;
  double value() const { return 1.0 - double(kept) / double(total); }
};
Rate drop_rate(const Observed& o) {
  Rate r;
  for (int8_t k : o.kept)
    if (k >= 0) {
      r.kept += k;
      ++r.total;
    }
  return r;
}

TEST(DropoutStats, DropRateIsCloseToP) {
  Spec s = dropout_spec();
  s.seqlen_q = 100;
  s.seqlen_k = 256;
  Case c(s);
  for (float p : {0.001f, 0.05f, 0.3f, 0.5f, 0.9f, 0.999f}) {
    const Observed o = observe_forward(c, dropout_options(p, 2024, 0), 0);
    const Rate r = drop_rate(o);
    // The rule drops with probability threshold / 256: p rounded to a multiple of 1/256, at least
    // 1/256 and at most 255/256 (the two ends of the list).
    const double pe = documented_threshold(p) / 256.0;
    if (p >= 1.0 / 512 && p <= 1.0 - 1.0 / 512) EXPECT_LE(std::fabs(pe - p), 1.0 / 512 + 1e-9);
    else EXPECT_DOUBLE_EQ(pe, p < 0.5 ? 1.0 / 256 : 255.0 / 256);
    const double sigma = std::sqrt(pe * (1.0 - pe) / double(r.total));
    EXPECT_NEAR(r.value(), pe, 5 * sigma) << "p=" << p << " over " << r.total << " weights";
    if (pe < 0.01 || pe > 0.99) continue;
    // Neighbours (the same Philox call's bytes, adjacent calls, adjacent rows) uncorrelated.
    for (const auto& [di, dj] : {std::pair{0, 1}, std::pair{0, 8}, std::pair{0, 2}, std::pair{1, 0}}) {
      double sxy = 0, sx = 0, sy = 0, n = 0;
      for (int b = 0; b < o.batch; ++b)
        for (int h = 0; h < o.heads; ++h)
          for (int i = 0; i + di < o.max_q; ++i)
            for (int j = 0; j + dj < o.max_k; ++j) {
              const int x = o.at(b, h, i, j), y = o.at(b, h, i + di, j + dj);
              if (x < 0 || y < 0) continue;
              sxy += x * y, sx += x, sy += y, n += 1;
            }
      const double cov = sxy / n - (sx / n) * (sy / n), var = (1 - pe) * pe;
      EXPECT_LT(std::fabs(cov / var), 5.0 / std::sqrt(n)) << "p=" << p << " neighbour (" << di << ", " << dj << ")";
    }
  }
}

// Fraction of elements where two observations differ; for independent masks ~ 2 p (1 - p).
double difference(const Observed& a, const Observed& b) {
  int64_t diff = 0, n = 0;
  for (size_t e = 0; e < a.kept.size(); ++e)
    if (a.kept[e] >= 0) {
      diff += a.kept[e] != b.kept[e];
      ++n;
    }
  return double(diff) / double(n);
}

TEST(DropoutStats, SeedAndOffsetChangeTheMask) {
  Case c(dropout_spec());
  const double p = 0.3, want = 2 * p * (1 - p);
  const Observed base = observe_forward(c, dropout_options(p, 10, 0), 0);
  const Observed same = observe_forward(c, dropout_options(p, 10, 0), 0);
  EXPECT_EQ(base.kept, same.kept) << "same seed and offset must give the same mask";
  const struct {
    const char* what;
    uint64_t seed, offset;
  } variants[] = {{"seed + 1", 11, 0},
                  {"seed high word", 10 + (uint64_t(1) << 32), 0},
                  {"offset + 1000", 10, 1000},
                  {"offset high word", 10, uint64_t(1) << 32}};
  for (const auto& v : variants) {
    const Observed other = observe_forward(c, dropout_options(float(p), v.seed, v.offset), 0);
    const double d = difference(base, other);
    EXPECT_NEAR(d, want, 0.03) << v.what;
  }
}

// offset + batch * num_heads + head is the Philox stream: offset + 1 shifts every (batch, head)
// to the mask of the next one, across batch boundaries too.
TEST(DropoutStats, OffsetShiftsTheStreamByOneHead) {
  Case c(dropout_spec());
  const Observed o0 = observe_forward(c, dropout_options(0.3f, 8, 0), 0);
  const Observed o1 = observe_forward(c, dropout_options(0.3f, 8, 1), 0);
  const int B = o0.batch, H = o0.heads;
  for (int bh = 0; bh + 1 < B * H; ++bh) {
    const int b0 = (bh + 1) / H, h0 = (bh + 1) % H, b1 = bh / H, h1 = bh % H;
    for (int i = 0; i < o0.max_q; ++i)
      for (int j = 0; j < o0.max_k; ++j)
        ASSERT_EQ(o1.at(b1, h1, i, j), o0.at(b0, h0, i, j)) << "bh=" << bh << " i=" << i << " j=" << j;
  }
  EXPECT_GT(difference(o0, o1), 0.3);
}

}  // namespace
}  // namespace flashattn::test
