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

  // |i + diag_offset - j| < max(seqlen_q, seqlen_k) < 2^31: 32-bit integer arithmetic is exact
  // (and the conversion of that integer to T the same as from 64 bits), at a fraction of a GPU's
  // cost for 64-bit conversions.
  FA_HD T alibi_bias(int i, int j) const { return -alibi_slope * fa_abs(T(i + int(diag_offset) - j)); }

  // The modified score of query i and key j from their raw dot product. Softcap multiplies by
  // the reciprocal of the cap (hoisted out of a kernel's loops; a division per element was a
  // slow-path call on the GPU).
  FA_HD T apply(T dot, int i, int j) const {
    T s = dot * scale;
    if (softcap > T(0)) s = softcap * fa_tanh(s * (T(1) / softcap));
    if (alibi_slope != T(0)) s += alibi_bias(i, j);
    return s;
  }

  // d(apply)/d(dot), for the backward pass: scale * (1 - tanh^2) under softcap, else scale.
  // ALiBi adds a constant and does not change it.
  FA_HD T grad(T dot) const {
    if (softcap > T(0)) {
      const T t = fa_tanh(dot * scale * (T(1) / softcap));
      return scale * (T(1) - t * t);
    }
    return scale;
  }
};

}  // namespace flashattn::semantics
