// Division by a run-time divisor fixed for a whole kernel launch, as a multiply-high, an add and a
// shift (Granlund and Montgomery, "Division by invariant integers using multiplication", 1994,
// figure 4.1): the host computes the magic number once; on the GPU an integer division by a
// run-time value is a subroutine of ~20 (32-bit) or ~70 (64-bit) instructions with a long
// dependency chain (the sm90 forward's tile decode spent ~1400 cycles a tile in four of them,
// bench/NOTES.md session 17). Exact for every numerator below 2^31 and divisor in [1, 2^31].
#pragma once

#include <cstdint>

#include "semantics/config.h"

namespace flashattn {

struct FastDiv {
  uint32_t d = 1, mul = 1, shift = 0;

  FastDiv() = default;
  // l = ceil(log2 d), mul = floor(2^32 (2^l - d) / d) + 1: then n / d = (mulhi(n, mul) + n) >> l,
  // where mulhi(n, mul) <= n keeps the sum below 2^32 for n < 2^31.
  explicit FastDiv(uint32_t divisor) : d(divisor > 0 ? divisor : 1) {  // (0: taken as 1, never a host fault)
    while ((uint64_t(1) << shift) < d) ++shift;
    mul = uint32_t(((uint64_t(1) << 32) * ((uint64_t(1) << shift) - d)) / d + 1);
  }
  FA_HD uint32_t div(uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const uint32_t hi = __umulhi(n, mul);
#else
    const uint32_t hi = uint32_t((uint64_t(n) * mul) >> 32);
#endif
    return (hi + n) >> shift;
  }
  FA_HD uint32_t mod(uint32_t n) const { return n - div(n) * d; }
};

}  // namespace flashattn
