// Dropout as a pure function of (seed, offset, batch, head, row, col), through Philox4x32-7, so
// that every backend, tile shape, thread count, the forward and the backward drop the same elements.
//   unit    = (col / 64) * 4 + (col % 8) / 2
//   counter = (unit, row, low32(offset + bh), high32(offset + bh)),  bh = batch * num_heads + head
//   key     = (low32(seed), high32(seed))
// Philox's 128 bits are sixteen bytes, byte k = bits 8k .. 8k + 7 (byte 0 the low byte of x[0]);
// column col takes byte 2 * ((col % 64) / 8) + col % 2, and is dropped iff that byte < threshold,
// threshold = min(255, max(1, round(p * 256))). Kept weights are multiplied by 1 / (1 - p).
// One unit is the sixteen columns {64g + 8t + 2q + e : t < 8, e < 2} of a row: what one thread of
// an mma.sync / wgmma accumulator holds of 64 columns (pairs of adjacent columns every 8), so a GPU
// thread draws one Philox call per 16 of its elements (CPU: 4 calls per 64 columns). The form of
// FlashAttention-2's dropout (8-bit words, 7 rounds): until session 18 the rule took 16-bit words
// and 10 rounds, 2.9x the Philox work an element, and that work bounded both passes (NOTES).
#pragma once

#include <cassert>
#include <cmath>

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

// Philox4x32 with kRounds rounds (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3");
// the dropout rule takes 7 (kDropoutRounds). Random123's known answers for 7 and 10 rounds are
// checked in tests/cpp/test_dropout.cc.
// Its multipliers and key increments (cpu/dropout_bits.h's vector form takes them from here).
constexpr uint32_t kPhiloxM0 = 0xD2511F53u, kPhiloxM1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9u, kPhiloxW1 = 0xBB67AE85u;
template <int kRounds>
FA_HD Philox4 philox4x32(Philox4 ctr, uint32_t key0, uint32_t key1) {
  constexpr uint32_t kM0 = kPhiloxM0, kM1 = kPhiloxM1, kW0 = kPhiloxW0, kW1 = kPhiloxW1;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int round = 0; round < kRounds; ++round) {
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
constexpr int kDropoutRounds = 7;

struct Dropout {
  uint64_t seed = 0;
  uint64_t offset = 0;
  uint32_t threshold = 0;  // dropped iff the column's random byte < threshold; 0: dropout off
  float keep_scale = 1.0f;  // 1 / (1 - p)

  FA_HD bool enabled() const { return threshold != 0; }

  // The unit (Philox counter word 0) of column col, and the index of its byte (< 16).
  static FA_HD int unit_of(int col) { return (col >> 6) * 4 + ((col & 7) >> 1); }
  static FA_HD int byte_of(int col) { return 2 * ((col & 63) >> 3) + (col & 1); }

  // The 128 random bits of one unit of one row.
  FA_HD Philox4 words(uint64_t bh, int row, int unit) const {
    const uint64_t sub = offset + bh;
    Philox4 ctr;
    ctr.x[0] = uint32_t(unit);
    ctr.x[1] = uint32_t(row);
    ctr.x[2] = uint32_t(sub);
    ctr.x[3] = uint32_t(sub >> 32);
    return philox4x32<kDropoutRounds>(ctr, uint32_t(seed), uint32_t(seed >> 32));
  }

  // Whether byte k (< 16) of a unit's Philox output is kept, against threshold_hi() =
  // threshold << 24: the byte shifted to the top of its 32-bit word compares as it stands (one
  // or two instructions a byte on a GPU; the bits below it cannot reach the next multiple of 2^24).
  FA_HD uint32_t threshold_hi() const { return threshold << 24; }
  static FA_HD bool byte_kept(const Philox4& w, int k, uint32_t threshold_hi) {
    return (w.x[k >> 2] << (24 - 8 * (k & 3))) >= threshold_hi;
  }
  // The column, within its stretch of 64, that byte k of the stretch's unit q (< 4) decides: the
  // inverse of (unit_of, byte_of).
  static FA_HD int column_of(int q, int k) { return 8 * (k >> 1) + 2 * q + (k & 1); }

  // Bit k set iff byte k of the unit is kept (k < 16).
  FA_HD uint32_t keep_bits16(uint64_t bh, int row, int unit) const {
    const Philox4 w = words(bh, row, unit);
    const uint32_t thr = threshold_hi();
    uint32_t bits = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int k = 0; k < 16; ++k) bits |= uint32_t(byte_kept(w, k, thr)) << k;
    return bits;
  }

  // Bit c set iff column col0 + c is kept, c < 64; col0 a multiple of 64 (four Philox calls).
  FA_HD uint64_t keep_bits64(uint64_t bh, int row, int col0) const {
    uint64_t mask = 0;
    for (int q = 0; q < 4; ++q) {
      const uint32_t bits = keep_bits16(bh, row, (col0 >> 6) * 4 + q);
      for (int t = 0; t < 8; ++t) mask |= uint64_t((bits >> (2 * t)) & 3u) << (8 * t + 2 * q);
    }
    return mask;
  }

  // Kept bits of the column pairs (j0 + 8t, j0 + 8t + 1), t < pairs <= 16, as bits 2t and 2t + 1:
  // one row of an mma / wgmma accumulator (a pair of adjacent columns every 8). j0 must be even.
  // The pairs of one 64-column stretch share a unit, one Philox call per (up to) eight pairs; when
  // j0 starts a stretch, a unit's sixteen bits are the mask's next sixteen. Rolled loops, so a
  // kernel holds one copy of the Philox rounds; kUnroll = 2 unrolls the calls of a stretch-aligned
  // j0 (independent: a GPU thread overlaps their rounds, at the cost of a copy of them a call).
  template <int kUnroll = 1>
  FA_HD uint32_t keep_mask_pairs(uint64_t bh, int row, int j0, int pairs) const {
    assert(pairs <= 16 && j0 % 2 == 0);
    uint32_t mask = 0;
    if ((j0 & 63) < 8) {
#ifdef __CUDA_ARCH__
#pragma unroll kUnroll
#endif
      for (int g = 0; 8 * g < pairs; ++g) mask |= keep_bits16(bh, row, unit_of(j0 + 64 * g)) << (16 * g);
      return pairs >= 16 ? mask : mask & ((1u << (2 * pairs)) - 1u);
    }
    int t = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
    while (t < pairs) {
      const int group = (j0 + 8 * t) >> 6;
      const uint32_t bits = keep_bits16(bh, row, unit_of(j0 + 8 * t));
      for (; t < pairs && ((j0 + 8 * t) >> 6) == group; ++t)
        mask |= ((bits >> byte_of(j0 + 8 * t)) & 3u) << (2 * t);
    }
    return mask;
  }

  FA_HD bool keep(uint64_t bh, int row, int col) const {
    if (!enabled()) return true;
    return byte_kept(words(bh, row, unit_of(col)), byte_of(col), threshold_hi());
  }
};

// p in [0, 1). Computed in double on the host so that every backend gets the same threshold: p
// rounded to a multiple of 1/256 (at least 1/256, at most 255/256), as FlashAttention-2 does; the
// keep scale stays 1 / (1 - p) for the p given.
inline Dropout make_dropout(double p, uint64_t seed, uint64_t offset) {
  Dropout d;
  d.seed = seed;
  d.offset = offset;
  if (p > 0.0) {
    double t = std::floor(p * 256.0 + 0.5);
    if (t > 255.0) t = 255.0;
    if (t < 1.0) t = 1.0;  // p > 0 always drops something in expectation
    d.threshold = uint32_t(t);
    d.keep_scale = float(1.0 / (1.0 - p));
  }
  return d;
}

}  // namespace flashattn::semantics
