// Host-side conversions between float32 and the 16-bit formats, rounding to nearest even.
// Used by the CPU backend, the reference's low-precision emulation and the tests.
#pragma once

#include <cstdint>
#include <cstring>

#include "flashattn/tensor.h"

namespace flashattn {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline float bf16_to_float(uint16_t h) { return bits_float(uint32_t(h) << 16); }

inline uint16_t float_to_bf16(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

inline float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (mant << 13));  // inf / NaN
  if (exp == 0) {
    if (mant == 0) return bits_float(sign);
    // Subnormal: value = mant * 2^-24.
    float v = float(mant) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

inline uint16_t float_to_half(float f) {
  uint32_t u = float_bits(f);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
  u &= 0x7fffffffu;
  if (u > 0x7f800000u) return uint16_t(sign | 0x7e00u);  // NaN
  if (u >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds to inf (>= 65520)
  if (u < 0x38800000u) {
    // Subnormal or zero in half: round value * 2^24 to an integer, nearest even.
    const float v = bits_float(u) * 16777216.0f;
    float r = float(int32_t(v));
    const float frac = v - r;
    if (frac > 0.5f || (frac == 0.5f && (int32_t(r) & 1))) r += 1.0f;
    return uint16_t(sign | uint16_t(r));
  }
  // Normal: rebias the exponent, round the 13 dropped mantissa bits to nearest even.
  uint32_t h = ((u >> 13) - (112u << 10));
  const uint32_t rest = u & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return uint16_t(sign | h);
}

// Rounds a float to the nearest value representable in dtype.
inline float round_to(DType dtype, float f) {
  switch (dtype) {
    case DType::Float16: return half_to_float(float_to_half(f));
    case DType::BFloat16: return bf16_to_float(float_to_bf16(f));
    default: return f;
  }
}

inline float load_float(const void* base, DType dtype, int64_t index) {
  switch (dtype) {
    case DType::Float16: return half_to_float(static_cast<const uint16_t*>(base)[index]);
    case DType::BFloat16: return bf16_to_float(static_cast<const uint16_t*>(base)[index]);
    default: return static_cast<const float*>(base)[index];
  }
}

inline void store_float(void* base, DType dtype, int64_t index, float value) {
  switch (dtype) {
    case DType::Float16: static_cast<uint16_t*>(base)[index] = float_to_half(value); break;
    case DType::BFloat16: static_cast<uint16_t*>(base)[index] = float_to_bf16(value); break;
    default: static_cast<float*>(base)[index] = value; break;
  }
}

}  // namespace flashattn
