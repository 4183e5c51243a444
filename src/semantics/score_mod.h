// Score modifiers, applied in a fixed order to the raw dot product q_i . k_j:
//   scale -> softcap -> ALiBi  (then mask -> softmax -> dropout, elsewhere).
// Softcap comes before masking: applied to -inf, tanh would turn a masked score into -cap.
#pragma once

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

  // The modified score of query i and key j from their raw dot product. Softcap multiplies by
  // the reciprocal of the cap (hoisted out of a kernel's loops; a division per element was a
  // slow-path call on the GPU).
  FA_HD T apply(T dot, int i, int j) const { return apply_dist(dot, T(i + int(diag_offset) - j)); }
  // The same from the signed distance i + diag_offset - j as T (see alibi_bias).
  FA_HD T apply_dist(T dot, T dist) const {
    T unused;
    return apply_dist_grad(dot, dist, &unused);
  }

  // The modified score and d(score)/d(dot) at once, softcap's tanh computed once (the backward
  // needs both; computed apart, a GPU kernel ran tanh twice, in branches the compiler kept
  // apart). apply_dist and grad are this function, the other result unused (and compiled away).
  FA_HD T apply_dist_grad(T dot, T dist, T* grad) const {
    T s = dot * scale;
    T g = scale;
    if (softcap > T(0)) {
      const T t = fa_tanh(s * (T(1) / softcap));
      s = softcap * t;
      g = scale * (T(1) - t * t);
    }
    if (alibi_slope != T(0)) s += alibi_bias_dist(dist);
    *grad = g;
    return s;
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
