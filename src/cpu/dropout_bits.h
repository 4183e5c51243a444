// The dropout rule's keep bits (semantics/dropout.h) for the CPU backend, eight Philox calls at a
// time: two 64-column stretches of four units each, advanced round by round together (in AVX-512
// lanes where the build has them, a plain loop otherwise), the bytes tested a vector at a time
// (applied by vec.h's vkeep, 16 floats a mask). The same bits as Dropout::keep_bits64
// (tests/cpp/test_dropout.cc compares them); one Philox call at a time, scalar, had made dropout
// cost 3x the rest of the CPU forward (session 18).
#pragma once

#include <cstdint>
#include <cstring>

#include "semantics/dropout.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace flashattn::cpu {

namespace detail {
// The keep tests of one word index for two units q = 0, 1 (bit 4 q + b: byte b of the word) to
// their columns 8 (b / 2) + 2 q + b % 2 among the word's 16 (units 2, 3: the same, shifted by 4).
constexpr uint16_t spread_entry(int v) {
  uint16_t r = 0;
  for (int bit = 0; bit < 8; ++bit)
    if (v >> bit & 1) {
      const int q = bit / 4, b = bit % 4;
      r = uint16_t(r | (1u << (8 * (b / 2) + 2 * q + b % 2)));
    }
  return r;
}
struct SpreadTable {
  uint16_t v[256];
  constexpr SpreadTable() : v() {
    for (int i = 0; i < 256; ++i) v[i] = spread_entry(i);
  }
};
inline constexpr SpreadTable kSpread{};
}  // namespace detail

// out[0] bit c: column col_a + c of row row_a kept; out[1]: column col_b + c of row row_b (col_a
// and col_b multiples of 64).
inline void keep_bits64_pair(const semantics::Dropout& d, uint64_t bh, int row_a, int col_a, int row_b, int col_b,
                             uint64_t out[2]) {
  const uint64_t sub = d.offset + bh;
  // Call l < 8: stretch s = l / 4 (a, b), unit q = l % 4. words[j] holds word j of every call as
  // 8 x 32 bits (call l at bits 32 l); byte b of word j is byte 4 j + b of the call's output.
  uint32_t words[4][8];
#if defined(__AVX512F__)
  // GCC vector extensions for the lanes (its AVX-512 set/convert intrinsics trip
  // -Wmaybe-uninitialized, vec.h), _mm512_mul_epu32 for the 32 x 32 -> 64-bit products.
  typedef uint64_t u64x8 __attribute__((vector_size(64)));
  typedef uint32_t u32x8 __attribute__((vector_size(32)));
  const uint64_t ua = uint64_t(col_a >> 6) * 4, ub = uint64_t(col_b >> 6) * 4;
  u64x8 x0 = {ua, ua + 1, ua + 2, ua + 3, ub, ub + 1, ub + 2, ub + 3};
  u64x8 x1 = {uint32_t(row_a), uint32_t(row_a), uint32_t(row_a), uint32_t(row_a),
              uint32_t(row_b), uint32_t(row_b), uint32_t(row_b), uint32_t(row_b)};
  u64x8 x2 = u64x8{} + uint64_t(uint32_t(sub)), x3 = u64x8{} + (sub >> 32);
  const u64x8 m0 = u64x8{} + semantics::kPhiloxM0, m1 = u64x8{} + semantics::kPhiloxM1;
  uint64_t k0 = uint32_t(d.seed), k1 = uint32_t(d.seed >> 32);
  // Full 64-bit products of the low 32 bits (vpmuludq; GCC turns a masked u64 multiply into the
  // slower vpmullq, and its _mm512_mul_epu32 trips the warning above).
  auto mul32 = [](u64x8 a, u64x8 b) {
#if defined(__clang__)
    return (u64x8)_mm512_mul_epu32((__m512i)a, (__m512i)b);
#else
    return (u64x8)__builtin_ia32_pmuludq512_mask((__v16si)a, (__v16si)b, (__v8di)_mm512_setzero_si512(), __mmask8(0xff));
#endif
  };
  for (int round = 0; round < semantics::kDropoutRounds; ++round) {
    const u64x8 p0 = mul32(m0, x0);
    const u64x8 p1 = mul32(m1, x2);
    const u64x8 n0 = (p1 >> 32) ^ x1 ^ k0;
    const u64x8 n2 = (p0 >> 32) ^ x3 ^ k1;
    x1 = p1 & 0xffffffffu;
    x3 = p0 & 0xffffffffu;
    x0 = n0;
    x2 = n2;
    k0 = uint32_t(k0 + semantics::kPhiloxW0);
    k1 = uint32_t(k1 + semantics::kPhiloxW1);
  }
  const u32x8 w0 = __builtin_convertvector(x0, u32x8), w1 = __builtin_convertvector(x1, u32x8),
              w2 = __builtin_convertvector(x2, u32x8), w3 = __builtin_convertvector(x3, u32x8);
  std::memcpy(words[0], &w0, 32);
  std::memcpy(words[1], &w1, 32);
  std::memcpy(words[2], &w2, 32);
  std::memcpy(words[3], &w3, 32);
#else
  for (int l = 0; l < 8; ++l) {
    const int row = l < 4 ? row_a : row_b, col = l < 4 ? col_a : col_b;
    const semantics::Philox4 w = d.words(bh, row, (col >> 6) * 4 + (l & 3));
    for (int j = 0; j < 4; ++j) words[j][l] = w.x[j];
  }
#endif
  // Keep tests: bit 4 l + b of m is byte b of word j of call l kept (32 bytes a word index).
  out[0] = out[1] = 0;
  for (int j = 0; j < 4; ++j) {
    uint32_t m = 0;
#if defined(__AVX512BW__) && defined(__AVX512VL__)
    typedef uint8_t u8x32 __attribute__((vector_size(32)));
    u8x32 bytes;
    std::memcpy(&bytes, words[j], 32);
    m = _mm256_cmpge_epu8_mask((__m256i)bytes, (__m256i)(u8x32{} + uint8_t(d.threshold)));
#else
    for (int l = 0; l < 8; ++l)
      for (int b = 0; b < 4; ++b) m |= uint32_t(((words[j][l] >> (8 * b)) & 0xffu) >= d.threshold) << (4 * l + b);
#endif
    // Calls l = 4 s + q: the 16 bits of stretch s, 4 q + b, to columns 16 j + 8 (b / 2) + 2 q + b % 2.
    for (int s = 0; s < 2; ++s) {
      const uint32_t c = m >> (16 * s);
      const uint64_t cols = uint64_t(detail::kSpread.v[c & 0xffu]) | uint64_t(detail::kSpread.v[(c >> 8) & 0xffu]) << 4;
      out[s] |= cols << (16 * j);
    }
  }
}

}  // namespace flashattn::cpu
