// Unit tests of the semantics headers and the dtype conversions: the mask's ranges against brute
// force over many (seqlen_q, seqlen_k, window, causal) and tile sizes, the order and gradient of
// the score modifiers, softmax edge rules, and float <-> fp16/bf16 rounding to nearest even.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "common/dtype.h"
#include "semantics/mask.h"
#include "semantics/score_mod.h"
#include "semantics/softmax.h"

namespace flashattn::test {
namespace {

using semantics::Mask;

// --- Mask ---

// Visibility from the public header's formula, written independently of Mask.
bool brute_visible(int sq, int sk, int left, int right, bool causal, int i, int j) {
  if (j < 0 || j >= sk) return false;
  if (causal) right = 0;
  const int64_t diag = int64_t(i) + sk - sq;
  return (left < 0 || j >= diag - left) && (right < 0 || j <= diag + right);
}

struct MaskCase {
  int sq, sk, left, right;
  bool causal;
  std::string str() const {
    return "sq=" + std::to_string(sq) + " sk=" + std::to_string(sk) + " left=" + std::to_string(left) +
           " right=" + std::to_string(right) + " causal=" + std::to_string(causal);
  }
};

std::vector<MaskCase> mask_cases() {
  std::vector<MaskCase> v;
  const int sizes[] = {1, 2, 3, 5, 8, 13, 17, 31, 40};
  const int sides[] = {-1, 0, 1, 2, 5, 16, 45};
  for (int sq : sizes)
    for (int sk : sizes)
      for (int left : sides)
        for (int right : sides)
          for (bool causal : {false, true}) {
            if (causal && right > 2) continue;  // causal ignores right: a few values suffice
            v.push_back({sq, sk, left, right, causal});
          }
  // Very unequal shapes: the diagonal far outside the matrix.
  for (auto [sq, sk] : {std::pair{100, 3}, std::pair{3, 100}, std::pair{70, 1}, std::pair{1, 70}})
    for (int left : {-1, 0, 4, 200})
      for (int right : {-1, 0, 4, 200})
        for (bool causal : {false, true}) v.push_back({sq, sk, left, right, causal});
  return v;
}

// Precomputed visibility of a mask case, [i * sk + j].
std::vector<char> visibility(const MaskCase& c) {
  std::vector<char> vis(size_t(c.sq) * c.sk);
  for (int i = 0; i < c.sq; ++i)
    for (int j = 0; j < c.sk; ++j) vis[size_t(i) * c.sk + j] = brute_visible(c.sq, c.sk, c.left, c.right, c.causal, i, j);
  return vis;
}

TEST(Mask, VisibleMatchesFormula) {
  for (const MaskCase& c : mask_cases()) {
    const Mask m = semantics::make_mask(c.sq, c.sk, c.left, c.right, c.causal);
    for (int i = 0; i < c.sq; ++i)
      for (int j = -2; j < c.sk + 2; ++j)
        ASSERT_EQ(m.visible(i, j), brute_visible(c.sq, c.sk, c.left, c.right, c.causal, i, j))
            << c.str() << " i=" << i << " j=" << j;
  }
}

TEST(Mask, CausalIsWindowLeftZero) {
  for (int sq : {1, 7, 20})
    for (int sk : {1, 9, 20})
      for (int left : {-1, 0, 3}) {
        const Mask a = semantics::make_mask(sq, sk, left, 11, true);
        const Mask b = semantics::make_mask(sq, sk, left, 0, false);
        for (int i = 0; i < sq; ++i)
          for (int j = 0; j < sk; ++j) ASSERT_EQ(a.visible(i, j), b.visible(i, j));
      }
}

// The row ranges a kernel asks about: tiles of several sizes, and every range of short sequences.
std::vector<std::pair<int, int>> ranges(int n) {
  std::vector<std::pair<int, int>> r;
  if (n <= 13) {
    for (int b = 0; b < n; ++b)
      for (int e = b + 1; e <= n; ++e) r.push_back({b, e});
    return r;
  }
  for (int t : {1, 2, 3, 4, 7, 16, 64})
    for (int b = 0; b < n; b += t) r.push_back({b, std::min(n, b + t)});
  return r;
}

TEST(Mask, KeyRangeIsExactUnion) {
  for (const MaskCase& c : mask_cases()) {
    const Mask m = semantics::make_mask(c.sq, c.sk, c.left, c.right, c.causal);
    const std::vector<char> vis = visibility(c);
    for (auto [rb, re] : ranges(c.sq)) {
      int want_lo = c.sk, want_hi = -1;
      for (int i = rb; i < re; ++i)
        for (int j = 0; j < c.sk; ++j)
          if (vis[size_t(i) * c.sk + j]) want_lo = std::min(want_lo, j), want_hi = std::max(want_hi, j + 1);
      int lo, hi;
      m.key_range(rb, re, &lo, &hi);
      if (want_hi < 0) {
        ASSERT_GE(lo, hi) << "no key visible, range must be empty; " << c.str() << " rows [" << rb << "," << re << ")";
      } else {
        ASSERT_EQ(lo, want_lo) << c.str() << " rows [" << rb << "," << re << ")";
        ASSERT_EQ(hi, want_hi) << c.str() << " rows [" << rb << "," << re << ")";
        // The union is contiguous: every key of [lo, hi) is seen by some row.
        for (int j = lo; j < hi; ++j) {
          bool seen = false;
          for (int i = rb; i < re && !seen; ++i) seen = vis[size_t(i) * c.sk + j];
          ASSERT_TRUE(seen) << c.str() << " key " << j;
        }
      }
    }
  }
}

TEST(Mask, CommonKeyRangeIsExactIntersection) {
  for (const MaskCase& c : mask_cases()) {
    const Mask m = semantics::make_mask(c.sq, c.sk, c.left, c.right, c.causal);
    const std::vector<char> vis = visibility(c);
    for (auto [rb, re] : ranges(c.sq)) {
      int lo, hi;
      m.common_key_range(rb, re, &lo, &hi);
      ASSERT_GE(lo, 0) << c.str();
      ASSERT_LE(hi, c.sk) << c.str();
      // Key j is in [lo, hi) iff every row of [rb, re) sees it.
      for (int j = 0; j < c.sk; ++j) {
        bool all = true;
        for (int i = rb; i < re && all; ++i) all = vis[size_t(i) * c.sk + j];
        ASSERT_EQ(j >= lo && j < hi, all) << c.str() << " rows [" << rb << "," << re << ") key " << j;
      }
    }
  }
}

TEST(Mask, QueryRangeIsExactUnion) {
  for (const MaskCase& c : mask_cases()) {
    const Mask m = semantics::make_mask(c.sq, c.sk, c.left, c.right, c.causal);
    const std::vector<char> vis = visibility(c);
    auto check = [&](int cb, int ce) {
      int want_lo = c.sq, want_hi = -1;
      for (int i = 0; i < c.sq; ++i)
        for (int j = cb; j < std::min(ce, c.sk); ++j)
          if (vis[size_t(i) * c.sk + j]) want_lo = std::min(want_lo, i), want_hi = std::max(want_hi, i + 1);
      int lo, hi;
      m.query_range(cb, ce, &lo, &hi);
      if (want_hi < 0) {
        ASSERT_GE(lo, hi) << c.str() << " cols [" << cb << "," << ce << ")";
      } else {
        ASSERT_EQ(lo, want_lo) << c.str() << " cols [" << cb << "," << ce << ")";
        ASSERT_EQ(hi, want_hi) << c.str() << " cols [" << cb << "," << ce << ")";
      }
    };
    for (auto [cb, ce] : ranges(c.sk)) check(cb, ce);
    // Key blocks that run past seqlen_k (the padded last block of a kernel).
    for (int t : {4, 16, 64})
      for (int cb = 0; cb < c.sk; cb += t) check(cb, cb + t);
  }
}

TEST(Mask, TileUnmaskedIffEveryElementVisible) {
  for (const MaskCase& c : mask_cases()) {
    const Mask m = semantics::make_mask(c.sq, c.sk, c.left, c.right, c.causal);
    const std::vector<char> vis = visibility(c);
    for (int tm : {1, 3, 4, 16})
      for (int tn : {1, 2, 4, 8, 16})
        for (int rb = 0; rb < c.sq; rb += tm)
          for (int cb = 0; cb < c.sk; cb += tn) {
            const int re = std::min(c.sq, rb + tm), ce = cb + tn;  // columns may run past sk
            bool all = true;
            for (int i = rb; i < re && all; ++i)
              for (int j = cb; j < ce && all; ++j) all = j < c.sk && vis[size_t(i) * c.sk + j];
            ASSERT_EQ(m.tile_unmasked(rb, re, cb, ce), all)
                << c.str() << " tile rows [" << rb << "," << re << ") cols [" << cb << "," << ce << ")";
            ASSERT_EQ(m.tile_unmasked<true>(rb, re, cb, ce), all)  // the form by common_key_range
                << c.str() << " tile rows [" << rb << "," << re << ") cols [" << cb << "," << ce << ")";
          }
  }
}

// --- ScoreMod ---

TEST(ScoreMod, OrderIsScaleSoftcapAlibi) {
  semantics::ScoreMod<double> m;
  m.scale = 0.5;
  m.softcap = 2.0;
  m.alibi_slope = 0.25;
  m.diag_offset = 3;  // seqlen_k - seqlen_q
  for (double dot : {-9.0, -1.0, 0.0, 0.7, 5.0, 40.0})
    for (int i : {0, 4})
      for (int j : {0, 2, 9}) {
        const double dist = std::fabs(double(i + 3 - j));
        const double want = 2.0 * std::tanh(dot * 0.5 / 2.0) - 0.25 * dist;
        EXPECT_NEAR(m.apply(dot, i, j), want, 1e-15) << dot << " " << i << " " << j;
        // The other order (bias before the cap) is a different function here: the test can tell.
        if (dist > 0) EXPECT_GT(std::fabs(want - 2.0 * std::tanh((dot * 0.5 - 0.25 * dist) / 2.0)), 1e-6);
      }
  EXPECT_DOUBLE_EQ(m.alibi_bias(4, 7), 0.0);  // on the diagonal
  EXPECT_DOUBLE_EQ(m.alibi_bias(4, 9), -0.5);
  EXPECT_DOUBLE_EQ(m.alibi_bias(4, 5), -0.5);
}

TEST(ScoreMod, OffWhenZero) {
  semantics::ScoreMod<double> m;
  m.scale = 0.125;
  for (double dot : {-100.0, 3.0, 1e4}) {
    EXPECT_DOUBLE_EQ(m.apply(dot, 1, 7), dot * 0.125);
    EXPECT_DOUBLE_EQ(m.grad(dot), 0.125);
  }
}

// apply_dist_grad (the GPU backward's one-tanh form) gives bitwise apply's score and grad's
// factor, for every combination of softcap and ALiBi, in float and double.
template <typename T>
void check_apply_dist_grad() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-30.0, 30.0);
  for (T softcap : {T(0), T(5), T(30)})
    for (T slope : {T(0), T(0.0625)}) {
      semantics::ScoreMod<T> m;
      m.scale = T(0.125);
      m.softcap = softcap;
      m.alibi_slope = slope;
      m.diag_offset = 5;
      for (int k = 0; k < 200; ++k) {
        const T dot = T(u(rng));
        const int i = k % 37, j = (k * 7) % 53;
        T g = T(-1);
        const T s = m.apply_dist_grad(dot, T(i + 5 - j), &g);
        const T want_s = m.apply(dot, i, j), want_g = m.grad(dot);
        EXPECT_EQ(std::memcmp(&s, &want_s, sizeof(T)), 0) << softcap << " " << slope << " " << dot;
        EXPECT_EQ(std::memcmp(&g, &want_g, sizeof(T)), 0) << softcap << " " << slope << " " << dot;
      }
    }
}

TEST(ScoreMod, ApplyDistGradIsApplyAndGrad) {
  check_apply_dist_grad<float>();
  check_apply_dist_grad<double>();
}

TEST(ScoreMod, GradMatchesFiniteDifference) {
  for (double softcap : {0.0, 0.5, 3.0, 50.0})
    for (double slope : {0.0, 0.3}) {
      semantics::ScoreMod<double> m;
      m.scale = 0.37;
      m.softcap = softcap;
      m.alibi_slope = slope;
      m.diag_offset = -2;
      for (double dot = -20.0; dot <= 20.0; dot += 0.73) {
        const double h = 1e-5;
        const double fd = (m.apply(dot + h, 5, 1) - m.apply(dot - h, 5, 1)) / (2 * h);
        EXPECT_NEAR(m.grad(dot), fd, 1e-8 * std::max(1.0, std::fabs(fd)))
            << "softcap=" << softcap << " slope=" << slope << " dot=" << dot;
      }
    }
}

// Every softcap validate.cc accepts (0, or a normal float up to the largest) and scales of
// either sign give finite scores and factors, bounded by the cap; a zero score stays zero.
template <typename T>
void check_softcap_range() {
  for (float cap : {FLT_MIN, 1e-30f, 1e-3f, 30.0f, 1e30f, FLT_MAX})
    for (float scale : {0.125f, 2.0f, -0.5f, 1e-20f})
      for (float dot : {0.0f, -0.0f, 1e-3f, -3.0f, 40.0f, 1e30f, -FLT_MAX}) {
        semantics::ScoreMod<T> m;
        m.scale = T(scale);
        m.softcap = T(cap);
        for (T out_scale : {T(1), T(1.4426950408889634)}) {  // (the GPU kernels' log2(e))
          T g = T(-1);
          const T s = m.template apply_dist_grad<1, 0>(T(dot), T(0), &g, out_scale);  // the folded form
          EXPECT_TRUE(std::isfinite(double(s)) && std::isfinite(double(g))) << cap << " " << scale << " " << dot;
          EXPECT_LE(std::fabs(double(s)), double(T(cap) * out_scale)) << cap << " " << scale << " " << dot;
          if (dot == 0.0f) {
            EXPECT_EQ(double(s), 0.0) << cap << " " << scale;
            EXPECT_EQ(double(g), double(T(scale))) << cap << " " << scale;
          }
        }
      }
}

// The folded form (softcap stated: the sm90 kernels) agrees with the formula as written (tested
// at run time: the CPU, the reference) to rounding, with the kernels' out_scale log2(e).
template <typename T>
void check_folded_form(double tol) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-60.0, 60.0);
  for (T softcap : {T(0), T(0.5), T(5), T(30)})
    for (T slope : {T(0), T(0.0625)}) {
      semantics::ScoreMod<T> m;
      m.scale = T(0.125);
      m.softcap = softcap;
      m.alibi_slope = slope;
      for (int k = 0; k < 300; ++k) {
        const T dot = T(u(rng)), dist = T(k % 41 - 20), ls = T(1.4426950408889634);
        T g0 = T(-1), g1 = T(-1);
        const T want = m.apply_dist_grad(dot, dist, &g0, ls);
        const T got = softcap > T(0) ? m.template apply_dist_grad<1, -1>(dot, dist, &g1, ls)
                                     : m.template apply_dist_grad<0, -1>(dot, dist, &g1, ls);
        EXPECT_NEAR(double(got), double(want), tol * std::max(1.0, std::fabs(double(want))))
            << softcap << " " << slope << " " << dot;
        EXPECT_NEAR(double(g1), double(g0), tol) << softcap << " " << slope << " " << dot;
      }
    }
}

TEST(ScoreMod, FoldedFormAgrees) {
  check_folded_form<float>(4e-6);
  check_folded_form<double>(1e-14);
}

TEST(ScoreMod, SoftcapRangeStaysFinite) {
  check_softcap_range<float>();
  check_softcap_range<double>();
}

TEST(ScoreMod, FloatAgreesWithDouble) {
  semantics::ScoreMod<float> f;
  semantics::ScoreMod<double> d;
  f.scale = 0.2f, d.scale = 0.2f;
  f.softcap = 7.0f, d.softcap = 7.0;
  f.alibi_slope = 0.1f, d.alibi_slope = double(0.1f);
  f.diag_offset = d.diag_offset = 11;
  for (float dot = -60.0f; dot <= 60.0f; dot += 1.7f)
    for (int j : {0, 11, 30}) {
      EXPECT_NEAR(f.apply(dot, 0, j), d.apply(dot, 0, j), 2e-6 * std::max(1.0, std::fabs(d.apply(dot, 0, j))));
      EXPECT_NEAR(f.grad(dot), d.grad(dot), 1e-6);
    }
}

// --- Softmax edge rules ---

TEST(Softmax, EmptyRowGivesZeroAndMinusInf) {
  const double inf = std::numeric_limits<double>::infinity();
  double inv = 1, lse = 0;
  semantics::softmax_finalize(-inf, 0.0, &inv, &lse);
  EXPECT_EQ(inv, 0.0);
  EXPECT_TRUE(std::isinf(lse) && lse < 0);
  float finv = 1, flse = 0;
  semantics::softmax_finalize(-INFINITY, 0.0f, &finv, &flse);
  EXPECT_EQ(finv, 0.0f);
  EXPECT_TRUE(std::isinf(flse) && flse < 0);
  EXPECT_EQ(semantics::prob_from_lse(-inf, -inf), 0.0);
  EXPECT_EQ(semantics::prob_from_lse(3.0, -inf), 0.0);
  EXPECT_EQ(semantics::safe_max(-inf), 0.0);
  EXPECT_EQ(semantics::safe_max(-2.5f), -2.5f);
}

TEST(Softmax, FinalizeAndProbAreConsistent) {
  const double s[] = {1.5, -0.25, 3.0, 2.0};
  double mx = -INFINITY, sum = 0;
  for (double x : s) mx = std::max(mx, x);
  for (double x : s) sum += std::exp(x - mx);
  double inv, lse;
  semantics::softmax_finalize(mx, sum, &inv, &lse);
  EXPECT_NEAR(lse, std::log(std::exp(1.5) + std::exp(-0.25) + std::exp(3.0) + std::exp(2.0)), 1e-14);
  double total = 0;
  for (double x : s) {
    EXPECT_NEAR(semantics::prob_from_lse(x, lse), std::exp(x - mx) * inv, 1e-15);
    total += semantics::prob_from_lse(x, lse);
  }
  EXPECT_NEAR(total, 1.0, 1e-15);
}

// --- dtype conversions ---

uint32_t bits_of(float f) { return float_bits(f); }
float float_of(uint32_t u) { return bits_float(u); }
bool is_nan_half(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }
bool is_nan_bf16(uint16_t h) { return (h & 0x7f80u) == 0x7f80u && (h & 0x7fu) != 0; }

// The value of a half bit pattern, decoded from the IEEE definition in double.
double half_value(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0x1f) v = mant ? std::numeric_limits<double>::quiet_NaN() : INFINITY;
  else if (exp == 0) v = std::ldexp(double(mant), -24);
  else v = std::ldexp(1.0 + mant / 1024.0, exp - 15);
  return sign ? -v : v;
}

TEST(DType, HalfToFloatAllPatterns) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float got = half_to_float(uint16_t(h));
    const double want = half_value(uint16_t(h));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << h;
      ASSERT_EQ(std::signbit(got), bool(h & 0x8000)) << std::hex << h;
    } else {
      ASSERT_EQ(double(got), want) << std::hex << h;
      ASSERT_EQ(std::signbit(got), bool(h & 0x8000)) << std::hex << h;  // -0 stays -0
    }
#if defined(__FLT16_MAX__)
    _Float16 f16;
    const uint16_t hb = uint16_t(h);
    std::memcpy(&f16, &hb, 2);
    if (!std::isnan(want)) ASSERT_EQ(got, float(f16)) << std::hex << h;
#endif
  }
}

TEST(DType, HalfRoundTripAllPatterns) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint16_t back = float_to_half(half_to_float(uint16_t(h)));
    if (is_nan_half(uint16_t(h))) ASSERT_TRUE(is_nan_half(back)) << std::hex << h;
    else ASSERT_EQ(back, h) << std::hex << h;
  }
}

// Between every two neighbouring halves a < b (b may be inf): the exact midpoint rounds to the
// one with an even mantissa, the floats just below and above it to a and b.
TEST(DType, FloatToHalfRoundsToNearestEven) {
  for (uint32_t sign : {0u, 0x8000u})
    for (uint32_t h = 0; h < 0x7c00; ++h) {
      const double a = half_value(uint16_t(h)), b = h + 1 == 0x7c00 ? 65536.0 : half_value(uint16_t(h + 1));
      const float mid = float((a + b) / 2);  // exact: 12 significant bits
      ASSERT_EQ(double(mid), (a + b) / 2);
      const float s = sign ? -1.0f : 1.0f;
      const uint16_t even = uint16_t(sign | ((h & 1) ? h + 1 : h));
      ASSERT_EQ(float_to_half(s * mid), even) << std::hex << "h=" << h << " sign=" << sign;
      ASSERT_EQ(float_to_half(s * std::nextafter(mid, 0.0f)), uint16_t(sign | h)) << std::hex << h;
      ASSERT_EQ(float_to_half(s * std::nextafter(mid, INFINITY)), uint16_t(sign | (h + 1))) << std::hex << h;
    }
}

TEST(DType, FloatToHalfSpecialValues) {
  EXPECT_EQ(float_to_half(0.0f), 0x0000);
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half(INFINITY), 0x7c00);
  EXPECT_EQ(float_to_half(-INFINITY), 0xfc00);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half(65519.99f), 0x7bff);
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);  // the tie above the largest half goes to inf
  EXPECT_EQ(float_to_half(FLT_MAX), 0x7c00);
  EXPECT_EQ(float_to_half(-1e30f), 0xfc00);
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);  // tie with 0: even
  EXPECT_EQ(float_to_half(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(float_to_half(std::ldexp(1023.5f, -24)), 0x0400);  // subnormal rounding into normal
  EXPECT_EQ(float_to_half(FLT_TRUE_MIN), 0x0000);  // float subnormals vanish
  EXPECT_EQ(float_to_half(-FLT_TRUE_MIN), 0x8000);
  for (uint32_t nan : {0x7fc00000u, 0x7f800001u, 0xffc00000u, 0x7fffffffu, 0xff800001u}) {
    const uint16_t h = float_to_half(float_of(nan));
    EXPECT_TRUE(is_nan_half(h)) << std::hex << nan << " -> " << h;
    EXPECT_EQ(bool(h & 0x8000), bool(nan & 0x80000000u)) << std::hex << nan;
  }
}

#if defined(__FLT16_MAX__)
// A sweep over the float bit patterns against the compiler's own conversion.
TEST(DType, FloatToHalfMatchesCompilerSweep) {
  for (uint64_t u = 0; u < (uint64_t(1) << 32); u += 1021) {
    const float f = float_of(uint32_t(u));
    if (std::isnan(f)) continue;
    const _Float16 c = static_cast<_Float16>(f);
    uint16_t want;
    std::memcpy(&want, &c, 2);
    ASSERT_EQ(float_to_half(f), want) << std::hex << u;
  }
}
#endif

TEST(DType, Bf16ToFloatAllPatterns) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float f = bf16_to_float(uint16_t(h));
    ASSERT_EQ(bits_of(f), h << 16) << std::hex << h;
  }
}

TEST(DType, Bf16RoundTripAllPatterns) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint16_t back = float_to_bf16(bf16_to_float(uint16_t(h)));
    if (is_nan_bf16(uint16_t(h))) ASSERT_TRUE(is_nan_bf16(back)) << std::hex << h;
    else ASSERT_EQ(back, h) << std::hex << h;
  }
}

TEST(DType, FloatToBf16RoundsToNearestEven) {
  for (uint32_t sign : {0u, 0x8000u})
    for (uint32_t h = 0; h < 0x7f80; ++h) {  // h + 1 = 0x7f80 is inf
      const uint32_t mid = (((sign | h) << 16) | 0x8000u);  // the exact midpoint of h and h + 1
      const uint16_t even = uint16_t(sign | ((h & 1) ? h + 1 : h));
      ASSERT_EQ(float_to_bf16(float_of(mid)), even) << std::hex << h;
      ASSERT_EQ(float_to_bf16(float_of(mid - 1)), uint16_t(sign | h)) << std::hex << h;
      ASSERT_EQ(float_to_bf16(float_of(mid + 1)), uint16_t(sign | (h + 1))) << std::hex << h;
    }
}

// A sweep over float bit patterns against nearest-even rounding computed in double.
TEST(DType, FloatToBf16MatchesDoubleSweep) {
  for (uint64_t u = 0; u < (uint64_t(1) << 32); u += 1021) {
    const float f = float_of(uint32_t(u));
    if (std::isnan(f) || std::isinf(f)) continue;
    const uint32_t a = uint32_t(u) & 0xffff0000u;  // truncation: toward zero
    const uint32_t b = a + 0x10000u;                // next away from zero (may be inf)
    const double da = std::fabs(double(float_of(a))), fb = std::fabs(double(f));
    const double db = (b & 0x7fffffffu) == 0x7f800000u ? std::ldexp(1.0, 128) : std::fabs(double(float_of(b)));
    uint16_t want;
    if (fb - da < db - fb) want = uint16_t(a >> 16);
    else if (fb - da > db - fb) want = uint16_t(b >> 16);
    else want = uint16_t(((a >> 16) & 1) ? b >> 16 : a >> 16);
    ASSERT_EQ(float_to_bf16(f), want) << std::hex << u;
  }
}

TEST(DType, FloatToBf16SpecialValues) {
  EXPECT_EQ(float_to_bf16(0.0f), 0x0000);
  EXPECT_EQ(float_to_bf16(-0.0f), 0x8000);
  EXPECT_EQ(float_to_bf16(INFINITY), 0x7f80);
  EXPECT_EQ(float_to_bf16(-INFINITY), 0xff80);
  EXPECT_EQ(float_to_bf16(FLT_MAX), 0x7f80);  // above the last midpoint: rounds to inf
  EXPECT_EQ(float_to_bf16(FLT_TRUE_MIN), 0x0000);
  EXPECT_EQ(float_to_bf16(float_of(0x00008000u)), 0x0000);  // subnormal tie: even
  EXPECT_EQ(float_to_bf16(float_of(0x00018000u)), 0x0002);
  for (uint32_t nan : {0x7fc00000u, 0x7f800001u, 0xffc00000u, 0x7fffffffu, 0xff800001u, 0x7f80ffffu}) {
    const uint16_t h = float_to_bf16(float_of(nan));
    EXPECT_TRUE(is_nan_bf16(h)) << std::hex << nan << " -> " << h;
    EXPECT_EQ(bool(h & 0x8000), bool(nan & 0x80000000u)) << std::hex << nan;
  }
}

TEST(DType, RoundToAndLoadStore) {
  std::mt19937_64 rng(3);
  std::normal_distribution<float> dist(0.0f, 100.0f);
  uint16_t h16[1];
  float f32[1];
  for (int n = 0; n < 10000; ++n) {
    const float x = dist(rng);
    EXPECT_EQ(round_to(DType::Float32, x), x);
    EXPECT_EQ(round_to(DType::Float16, x), half_to_float(float_to_half(x)));
    EXPECT_EQ(round_to(DType::BFloat16, x), bf16_to_float(float_to_bf16(x)));
    store_float(h16, DType::Float16, 0, x);
    EXPECT_EQ(load_float(h16, DType::Float16, 0), round_to(DType::Float16, x));
    store_float(h16, DType::BFloat16, 0, x);
    EXPECT_EQ(load_float(h16, DType::BFloat16, 0), round_to(DType::BFloat16, x));
    store_float(f32, DType::Float32, 0, x);
    EXPECT_EQ(load_float(f32, DType::Float32, 0), x);
  }
}

}  // namespace
}  // namespace flashattn::test
