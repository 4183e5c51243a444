// Dropout as a pure function of (seed, offset, batch, head, row, col), through Philox4x32-10, so
// that every backend, tile shape, thread count, the forward and the backward drop the same elements.
//   counter = (col / 4, row, low32(offset + bh), high32(offset + bh)),  bh = batch * num_heads + head
//   key     = (low32(seed), high32(seed))
// Philox gives four 32-bit words; word col % 4 decides column col: dropped iff word < threshold,
// threshold = max(1, floor(p * 2^32)). Kept weights are multiplied by 1 / (1 - p).
#pragma once

#include "semantics/config.h"

namespace flashattn::semantics {

struct Philox4 {
  uint32_t x[4];
};

FA_HD uint32_t mulhilo32(uint32_t a, uint32_t b, uint32_t* hi) {
  const uint64_t product = uint64_t(a) * uint64_t(b);
  *hi = uint32_t(product >> 32);
  return uint32_t(product);
}

// Philox4x32 with 10 rounds (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3").
FA_HD Philox4 philox4x32_10(Philox4 ctr, uint32_t key0, uint32_t key1) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int round = 0; round < 10; ++round) {
    uint32_t hi0, hi1;
    const uint32_t lo0 = mulhilo32(kM0, ctr.x[0], &hi0);
    const uint32_t lo1 = mulhilo32(kM1, ctr.x[2], &hi1);
    Philox4 next;
    next.x[0] = hi1 ^ ctr.x[1] ^ key0;
    next.x[1] = lo1;
    next.x[2] = hi0 ^ ctr.x[3] ^ key1;
    next.x[3] = lo0;
    ctr = next;
    key0 += kW0;
    key1 += kW1;
  }
  return ctr;
}

struct Dropout {
  uint64_t seed = 0;
  uint64_t offset = 0;
  uint32_t threshold = 0;  // dropped iff random word < threshold; 0: dropout off
  float keep_scale = 1.0f;  // 1 / (1 - p)

  FA_HD bool enabled() const { return threshold != 0; }

  // The four random words covering columns 4 * col_quad .. 4 * col_quad + 3 of one row.
  FA_HD Philox4 words(uint64_t bh, int row, int col_quad) const {
    const uint64_t sub = offset + bh;
    Philox4 ctr;
    ctr.x[0] = uint32_t(col_quad);
    ctr.x[1] = uint32_t(row);
    ctr.x[2] = uint32_t(sub);
    ctr.x[3] = uint32_t(sub >> 32);
    return philox4x32_10(ctr, uint32_t(seed), uint32_t(seed >> 32));
  }

  // Bit t set iff column 4 * col_quad + t is kept.
  FA_HD uint32_t keep_bits4(uint64_t bh, int row, int col_quad) const {
    const Philox4 w = words(bh, row, col_quad);
    uint32_t bits = 0;
    for (int t = 0; t < 4; ++t) bits |= uint32_t(w.x[t] >= threshold) << t;
    return bits;
  }

  // Kept bits of the column pairs (j0 + 8t, j0 + 8t + 1), t < pairs, as bits 2t and 2t + 1:
  // one row of an mma accumulator (a pair of adjacent columns every 8). j0 must be even. A
  // rolled loop, so a kernel holds one copy of the Philox rounds instead of `pairs` copies.
  FA_HD uint32_t keep_mask_pairs(uint64_t bh, int row, int j0, int pairs) const {
    uint32_t mask = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
    for (int t = 0; t < pairs; ++t) {
      const int j = j0 + 8 * t;
      mask |= ((keep_bits4(bh, row, j >> 2) >> (j & 3)) & 3u) << (2 * t);
    }
    return mask;
  }

  FA_HD bool keep(uint64_t bh, int row, int col) const {
    if (!enabled()) return true;
    return (keep_bits4(bh, row, col >> 2) >> (col & 3)) & 1u;
  }
};

// p in [0, 1). Computed in double on the host so that every backend gets the same threshold.
inline Dropout make_dropout(double p, uint64_t seed, uint64_t offset) {
  Dropout d;
  d.seed = seed;
  d.offset = offset;
  if (p > 0.0) {
    double t = p * 4294967296.0;
    if (t > 4294967295.0) t = 4294967295.0;
    d.threshold = uint32_t(t);
    if (d.threshold == 0) d.threshold = 1;  // p > 0 always drops something in expectation
    d.keep_scale = float(1.0 / (1.0 - p));
  }
  return d;
}

}  // namespace flashattn::semantics
