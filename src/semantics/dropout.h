// Dropout as a pure function of (seed, offset, batch, head, row, col), through Philox4x32-10, so
// that every backend, tile shape, thread count, the forward and the backward drop the same elements.
//   unit    = (col / 32) * 4 + (col % 8) / 2
//   counter = (unit, row, low32(offset + bh), high32(offset + bh)),  bh = batch * num_heads + head
//   key     = (low32(seed), high32(seed))
// Philox's 128 bits are eight 16-bit words, word k = bits 16k .. 16k + 15 (word 0 the low half of
// x[0]); column col takes word 2 * ((col % 32) / 8) + col % 2, and is dropped iff that word <
// threshold, threshold = max(1, floor(p * 2^16)). Kept weights are multiplied by 1 / (1 - p).
// One unit is the eight columns {32g + 8t + 2q + e : t < 4, e < 2} of a row: exactly what one
// thread of an mma.sync / wgmma accumulator holds of 32 columns (pairs of adjacent columns every
// 8), so a GPU thread draws one Philox call per 8 of its elements (CPU: 4 calls per 32 columns).
#pragma once

#include "semantics/config.h"

namespace flashattn::semantics {

struct Philox4 {
  uint32_t x[4];
};

FA_HD uint32_t mulhilo32(uint32_t a, uint32_t b, uint32_t* hi) {
#if defined(__CUDA_ARCH__)
  // One IMAD.WIDE.U32: written as a 64-bit product, nvcc added a zero high word back into it
  // (one extra instruction a multiply, two a Philox round).
  uint64_t product;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(product) : "r"(a), "r"(b));
#else
  const uint64_t product = uint64_t(a) * uint64_t(b);
#endif
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
  uint32_t threshold = 0;  // dropped iff the column's 16-bit random word < threshold; 0: dropout off
  float keep_scale = 1.0f;  // 1 / (1 - p)

  FA_HD bool enabled() const { return threshold != 0; }

  // The unit (Philox counter word 0) of column col, and the index of its 16-bit word.
  static FA_HD int unit_of(int col) { return (col >> 5) * 4 + ((col & 7) >> 1); }
  static FA_HD int word_of(int col) { return 2 * ((col & 31) >> 3) + (col & 1); }

  // The 128 random bits of one unit of one row.
  FA_HD Philox4 words(uint64_t bh, int row, int unit) const {
    const uint64_t sub = offset + bh;
    Philox4 ctr;
    ctr.x[0] = uint32_t(unit);
    ctr.x[1] = uint32_t(row);
    ctr.x[2] = uint32_t(sub);
    ctr.x[3] = uint32_t(sub >> 32);
    return philox4x32_10(ctr, uint32_t(seed), uint32_t(seed >> 32));
  }

  // Whether 16-bit word k (< 8) of a unit's Philox output is kept, against threshold_hi() =
  // threshold << 16: the high half of x[k / 2] compares as it stands, the low half shifted up (one
  // or two instructions a word on a GPU). (Both sides scaled by 2^16: the low bits below a high
  // half cannot reach the next multiple of 2^16.)
  FA_HD uint32_t threshold_hi() const { return threshold << 16; }
  static FA_HD bool word_kept(const Philox4& w, int k, uint32_t threshold_hi) {
    const uint32_t x = w.x[k >> 1];
    return ((k & 1) ? x : x << 16) >= threshold_hi;
  }
  // The column, within its stretch of 32, that word k of the stretch's unit q (< 4) decides: the
  // inverse of (unit_of, word_of).
  static FA_HD int column_of(int q, int k) { return 8 * (k >> 1) + 2 * q + (k & 1); }

  // Bit k set iff 16-bit word k of the unit is kept (k < 8).
  FA_HD uint32_t keep_bits8(uint64_t bh, int row, int unit) const {
    const Philox4 w = words(bh, row, unit);
    uint32_t bits = 0;
    for (int k = 0; k < 8; ++k) bits |= uint32_t(word_kept(w, k, threshold_hi())) << k;
    return bits;
  }

  // Bit c set iff column col0 + c is kept, c < 32; col0 a multiple of 32 (four Philox calls).
  FA_HD uint32_t keep_bits32(uint64_t bh, int row, int col0) const {
    uint32_t mask = 0;
    for (int q = 0; q < 4; ++q) {
      const uint32_t bits = keep_bits8(bh, row, (col0 >> 5) * 4 + q);
      for (int t = 0; t < 4; ++t) mask |= ((bits >> (2 * t)) & 3u) << (8 * t + 2 * q);
    }
    return mask;
  }

  // Kept bits of the column pairs (j0 + 8t, j0 + 8t + 1), t < pairs <= 16, as bits 2t and 2t + 1:
  // one row of an mma / wgmma accumulator (a pair of adjacent columns every 8). j0 must be even.
  // The pairs of one 32-column stretch share a unit, one Philox call per (up to) four pairs; when
  // j0 starts a stretch, a unit's eight bits are the mask's next eight. Rolled loops, so a kernel
  // holds one copy of the Philox rounds; kUnroll = 4 unrolls the calls of a stretch-aligned j0
  // (independent: a GPU thread overlaps their rounds, at the cost of a copy of them a call).
  template <int kUnroll = 1>
  FA_HD uint32_t keep_mask_pairs(uint64_t bh, int row, int j0, int pairs) const {
    uint32_t mask = 0;
    if ((j0 & 31) < 8) {
#ifdef __CUDA_ARCH__
#pragma unroll kUnroll
#endif
      for (int g = 0; 4 * g < pairs; ++g) mask |= keep_bits8(bh, row, unit_of(j0 + 32 * g)) << (8 * g);
      return pairs >= 16 ? mask : mask & ((1u << (2 * pairs)) - 1u);
    }
    int t = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
    while (t < pairs) {
      const int group = (j0 + 8 * t) >> 5;
      const uint32_t bits = keep_bits8(bh, row, unit_of(j0 + 8 * t));
      for (; t < pairs && ((j0 + 8 * t) >> 5) == group; ++t)
        mask |= ((bits >> word_of(j0 + 8 * t)) & 3u) << (2 * t);
    }
    return mask;
  }

  FA_HD bool keep(uint64_t bh, int row, int col) const {
    if (!enabled()) return true;
    return (keep_bits8(bh, row, unit_of(col)) >> word_of(col)) & 1u;
  }
};

// p in [0, 1). Computed in double on the host so that every backend gets the same threshold.
inline Dropout make_dropout(double p, uint64_t seed, uint64_t offset) {
  Dropout d;
  d.seed = seed;
  d.offset = offset;
  if (p > 0.0) {
    double t = p * 65536.0;
    if (t > 65535.0) t = 65535.0;
    d.threshold = uint32_t(t);
    if (d.threshold == 0) d.threshold = 1;  // p > 0 always drops something in expectation
    d.keep_scale = float(1.0 / (1.0 - p));
  }
  return d;
}

}  // namespace flashattn::semantics
