// Softmax bookkeeping shared by the backends: the safe offset for rows whose running maximum is
// still -inf (exp(-inf - -inf) would be NaN) and the rule for rows that see no key at all:
// out = 0, lse = -inf, zero gradients.
#pragma once

#include "semantics/config.h"

namespace flashattn::semantics {

// The value subtracted before exponentiating: the running maximum, or 0 while it is -inf so
// that exp(-inf - 0) = 0 instead of NaN.
template <typename T>
FA_HD T safe_max(T running_max) {
  return running_max == -T(INFINITY) ? T(0) : running_max;
}

// Turns a row's maximum and sum of exp(s - max) into the normalizer and the natural-log LSE.
// A row with an empty sum saw no key: inv_sum = 0 (out = 0) and lse = -inf.
template <typename T>
FA_HD void softmax_finalize(T row_max, T row_sum, T* inv_sum, T* lse) {
  if (!(row_sum > T(0))) {
    *inv_sum = T(0);
    *lse = -T(INFINITY);
  } else {
    *inv_sum = T(1) / row_sum;
    *lse = safe_max(row_max) + log(row_sum);
  }
}

// The probability of a score under a saved LSE (the backward pass recomputes P this way);
// 0 for rows with lse = -inf.
template <typename T>
FA_HD T prob_from_lse(T score, T lse) {
  return lse == -T(INFINITY) ? T(0) : exp(score - lse);
}

}  // namespace flashattn::semantics
