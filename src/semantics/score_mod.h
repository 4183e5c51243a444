// Score modifiers, applied in a fixed order to the raw dot product q_i . k_j:
//   scale -> softcap -> ALiBi  (then mask -> softmax -> dropout, elsewhere).
// Softcap comes before masking: applied to -inf, tanh would turn a masked score into -cap.
#pragma once

#include <type_traits>

#include "semantics/config.h"

namespace flashattn::semantics {

template <typename T>
struct ScoreMod {
  T scale = T(1);
  T softcap = T(0);      // 0: off
  T alibi_slope = T(0);  // 0: off; the slope of this (batch, head)
  int64_t diag_offset = 0;  // seqlen_k - seqlen_q

  // |i + diag_offset - j| < max(seqlen_q, seqlen_k) <= 2^24 (validate.cc limits ALiBi to such
  // lengths): exact in 32-bit integers and in float, so a kernel may form the distance as
  // T(its row's base) - T(a column offset), both exact, without a conversion per element.
  FA_HD T alibi_bias(int i, int j) const { return alibi_bias_dist(T(i + int(diag_offset) - j)); }
  FA_HD T alibi_bias_dist(T dist) const { return -alibi_slope * fa_abs(dist); }

  // The modified score of query i and key j from their raw dot product. Softcap's division by
  // the cap sits in a constant (hoisted out of a kernel's loops; a division per element was a
  // slow-path call on the GPU).
  FA_HD T apply(T dot, int i, int j) const { return apply_dist(dot, T(i + int(diag_offset) - j)); }
  // The same from the signed distance i + diag_offset - j as T (see alibi_bias), times out_scale.
  FA_HD T apply_dist(T dot, T dist, T out_scale = T(1)) const {
    T unused;
    return apply_dist_grad(dot, dist, &unused, out_scale);
  }

  // The modified score and d(score)/d(dot) at once, softcap's tanh computed once (the backward
  // needs both; computed apart, a GPU kernel ran tanh twice, in branches the compiler kept
  // apart). apply_dist and grad are this function, the other result unused (and compiled away).
  // kSoftcap / kAlibi: -1 tests the option at run time; 0 or 1 states it (softcap > 0,
  // alibi_slope != 0), for kernels that test it once outside their element loops (tested inside,
  // each element became a branch around its own tanh chain, which no element could overlap).
  // out_scale multiplies the modified score (not grad). With softcap stated (kSoftcap 0 or 1: the
  // sm90 kernels, out_scale their exp2 units log2(e)) the constants are folded: an element takes
  // one multiply before the tanh and one after it, ALiBi one multiply-add (the constants are
  // loop-invariant: hoisted). Tested at run time (the CPU, the reference, the sm80 kernels) the
  // formula stays as written: folded there, ptxas if-converted the sm80 kernels' per-element
  // branch (more spills).
  template <int kSoftcap = -1, int kAlibi = -1>
  FA_HD T apply_dist_grad(T dot, T dist, T* grad, T out_scale = T(1)) const {
    const bool alibi = kAlibi == 1 || (kAlibi < 0 && alibi_slope != T(0));
    T g = scale;
    if constexpr (kSoftcap < 0) {
      T s = dot * scale;
      if (softcap > T(0)) {
        const T t = fa_tanh(s * (T(1) / softcap));
        s = softcap * t;
        g = scale * (T(1) - t * t);
      }
      if (alibi) s += alibi_bias_dist(dist);
      *grad = g;
      return s * out_scale;
    } else {
      T s;
      if constexpr (kSoftcap == 1) {
        // tanh(dot scale / softcap), the constants clamped finite (softcap_in, softcap_out).
        const T t = fa_tanh(dot * softcap_in());
        s = t * softcap_out(out_scale);
        g = scale * (T(1) - t * t);
      } else {
        s = dot * (scale * out_scale);
      }
      if (alibi) s += fa_abs(dist) * (-alibi_slope * out_scale);  // alibi_bias_dist(dist) * out_scale
      *grad = g;
      return s;
    }
  }
  // Softcap's folded constants (softcap > 0): a score is softcap_out(out_scale) * tanh(dot *
  // softcap_in()). Both clamped finite: validate.cc takes caps in [FLT_MIN, 2^100], so scale /
  // softcap may reach ~2^126 x scale (and softcap x a large out_scale pass FLT_MAX), and 0 x inf
  // would make a zero score NaN (past the first clamp tanh is +-1 anyway). softcap_out of a
  // positive out_scale is positive, so a kernel may take a row's maximum over the tanh values and
  // scale it after (the sm90 forward's kernel with softcap alone, fwd_kernel.h).
  FA_HD T softcap_in() const { return fa_clamp_finite(scale / softcap); }
  FA_HD T softcap_out(T out_scale) const { return fa_clamp_finite(softcap * out_scale); }
  // ALiBi's factor in raw-dot units (scale >= 2^-20): a score is scale (dot + alibi_per_dot()
  // |dist|), so a kernel may keep raw dots until the exponent with the bias joined to them (the
  // sm90 kernels with ALiBi alone, kAlibi: forward and backward take this one expression).
  // Clamped to +-2^100 (NaN stays NaN), so that |dist| (< 2^24) times it stays finite: past the
  // clamp (|slope| > 2^80 at the smallest scale) a weight at a distance of 1 or more is exp2 of
  // -2^80 or less, 0 as without it (a negative slope's farthest key takes all the weight, as
  // without it).
  FA_HD T alibi_per_dot() const {
    const T x = -alibi_slope / scale;
    return x < T(-0x1p100) ? T(-0x1p100) : x > T(0x1p100) ? T(0x1p100) : x;
  }
  template <int kSoftcap, int kAlibi>
  FA_HD T apply_dist_as(T dot, T dist, T out_scale = T(1)) const {
    T unused;
    return apply_dist_grad<kSoftcap, kAlibi>(dot, dist, &unused, out_scale);
  }
  // Calls f(std::integral_constant<int, softcap on>{}) once: a kernel's element loop inside f
  // then runs with softcap known (apply_dist_as<decltype(on)::value, -1>; ALiBi's test stays in
  // the loop, where it compiles to a predicated add, not a branch).
  template <typename F>
  FA_HD void with_softcap(F&& f) const {
    if (softcap > T(0)) f(std::integral_constant<int, 1>{});
    else f(std::integral_constant<int, 0>{});
  }

  // d(apply)/d(dot), for the backward pass: scale * (1 - tanh^2) under softcap, else scale.
  // ALiBi adds a constant and does not change it.
  FA_HD T grad(T dot) const {
    T g;
    apply_dist_grad(dot, T(0), &g);
    return g;
  }
};

}  // namespace flashattn::semantics
