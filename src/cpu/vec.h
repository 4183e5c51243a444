// SIMD vectors for the CPU backend through GCC/Clang vector extensions: 16 floats with AVX-512,
// 8 otherwise. One fast exp (Cody-Waite reduction + degree-6 polynomial, rel. error < 2e-7).
#pragma once

#include <cstdint>
#include <cstring>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace flashattn::cpu {

#if defined(__AVX512F__)
constexpr int kW = 16;
#else
constexpr int kW = 8;
#endif

// aligned(4): loads and stores through this type may be unaligned.
typedef float vfloat __attribute__((vector_size(kW * 4), aligned(4)));
typedef int vint __attribute__((vector_size(kW * 4), aligned(4)));

inline vfloat vload(const float* p) { return *reinterpret_cast<const vfloat*>(p); }
inline void vstore(float* p, vfloat v) { *reinterpret_cast<vfloat*>(p) = v; }
inline vfloat vbroadcast(float x) { return vfloat{} + x; }

#if defined(__AVX512F__)
// Halves a 512-bit vector to 128 bits with op, then finishes in 128-bit lanes. (GCC 12's
// _mm512_reduce_*_ps and extract intrinsics trip -Wmaybe-uninitialized, hence memcpy halves.)
template <typename Op256, typename Op128>
inline float reduce16(vfloat v, Op256 op256, Op128 op128) {
  __m256 a, b;
  std::memcpy(&a, &v, sizeof(a));
  std::memcpy(&b, reinterpret_cast<const char*>(&v) + sizeof(a), sizeof(b));
  const __m256 c = op256(a, b);
  __m128 d = op128(_mm256_castps256_ps128(c), _mm256_extractf128_ps(c, 1));
  d = op128(d, _mm_movehl_ps(d, d));
  d = op128(d, _mm_shuffle_ps(d, d, 1));
  return _mm_cvtss_f32(d);
}
#endif

inline float hmax(vfloat v) {
#if defined(__AVX512F__)
  return reduce16(v, [](__m256 a, __m256 b) { return _mm256_max_ps(a, b); },
                  [](__m128 a, __m128 b) { return _mm_max_ps(a, b); });
#else
  float m = v[0];
  for (int i = 1; i < kW; ++i) m = v[i] > m ? v[i] : m;
  return m;
#endif
}
inline float hsum(vfloat v) {
#if defined(__AVX512F__)
  return reduce16(v, [](__m256 a, __m256 b) { return _mm256_add_ps(a, b); },
                  [](__m128 a, __m128 b) { return _mm_add_ps(a, b); });
#else
  float s = 0.0f;
  for (int i = 0; i < kW; ++i) s += v[i];
  return s;
#endif
}
inline vfloat vmax(vfloat a, vfloat b) { return a > b ? a : b; }

// exp(x) for every lane; exactly 0 for x < -87.3 (so for -inf). No overflow handling: the
// argument is always <= 0 here (scores minus their running maximum).
inline vfloat vexp(vfloat x) {
  const vfloat lo = vbroadcast(-87.3f);
  const vint underflow = x < lo;
  x = x < lo ? lo : x;
#if defined(__AVX512F__)
  // roundscale + scalef: 2^n * p(r) in 13 vector instructions.
  const vfloat n = vfloat(_mm512_maskz_roundscale_ps(__mmask16(0xffff), __m512(x * 1.44269504f), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#else
  const vfloat n = __builtin_convertvector(__builtin_convertvector(x * 1.44269504f + (x < 0 ? -0.5f : 0.5f), vint), vfloat);
#endif
  vfloat r = x - n * 0.693145751953125f;  // ln2 split in two for an exact product
  r = r - n * 1.428606765330187e-06f;
  vfloat p = vbroadcast(1.0f / 720.0f);
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
#if defined(__AVX512F__)
  const vfloat y = vfloat(_mm512_maskz_scalef_ps(__mmask16(0xffff), __m512(p), __m512(n)));
#else
  const vint bits = (__builtin_convertvector(n, vint) + 127) << 23;
  vfloat scale;
  std::memcpy(&scale, &bits, sizeof(scale));
  const vfloat y = p * scale;
#endif
  return underflow ? vfloat{} : y;
}

// v with the lanes whose bit in `bits` (bit i: lane i) is clear set to 0.
inline vfloat vkeep(vfloat v, uint32_t bits) {
#if defined(__AVX512F__)
  __m512 x;
  std::memcpy(&x, &v, sizeof(x));
  x = _mm512_maskz_mov_ps(__mmask16(bits), x);
  std::memcpy(&v, &x, sizeof(x));
  return v;
#else
  for (int i = 0; i < kW; ++i)
    if (!(bits >> i & 1u)) v[i] = 0.0f;
  return v;
#endif
}

}  // namespace flashattn::cpu
