// Qualifiers that let the semantics headers compile as plain C++ and as CUDA device code.
// Everything under src/semantics/ is header-only and free of host-only calls.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define FA_HD __host__ __device__ __forceinline__
#else
#define FA_HD inline
#endif

namespace flashattn::semantics {

// tanh. On the GPU as 1 - 2 / (2^(2 x log2 e) + 1) with the hardware's exp2 and reciprocal
// approximations (two MUFU operations; absolute error ~3e-7, against tanhf's ~20 instructions
// and tanh.approx.f32's 2^-11 relative error, which softcap would multiply by the cap). +-inf
// give +-1, NaN stays NaN. Not volatile: the backward's two calls on the same value fold.
// fa_tanh2(u) = tanh(u / (2 log2 e)): the argument in the exponential's units, so that a caller
// folds 2 log2(e) into its own constant (ScoreMod: one multiply before the exponential).
constexpr double kTwoLog2e = 2.8853900817779268;
#if defined(__CUDA_ARCH__)
FA_HD float fa_tanh2(float u) {
  float e, r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(u));
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(e + 1.0f));
  return fmaf(-2.0f, r, 1.0f);
}
FA_HD float fa_tanh(float x) { return fa_tanh2(x * float(kTwoLog2e)); }
#else
FA_HD float fa_tanh2(float u) { return tanhf(u * float(1.0 / kTwoLog2e)); }
FA_HD float fa_tanh(float x) { return tanhf(x); }
#endif
FA_HD double fa_tanh2(double u) { return tanh(u * (1.0 / kTwoLog2e)); }
FA_HD double fa_tanh(double x) { return tanh(x); }
FA_HD float fa_clamp_finite(float x) { return fminf(fmaxf(x, -FLT_MAX), FLT_MAX); }
FA_HD double fa_clamp_finite(double x) { return fmin(fmax(x, -DBL_MAX), DBL_MAX); }
FA_HD float fa_abs(float x) { return fabsf(x); }
FA_HD double fa_abs(double x) { return fabs(x); }

}  // namespace flashattn::semantics
