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

// tanh. On the GPU tanh.approx.f32: one MUFU operation, maximum relative error about 2^-11 (PTX
// ISA), which softcap multiplies by the cap: ~0.015 on a score at cap 30, a quarter of what a
// naive bf16 computation's roundings of the tanh's argument, result and product give (the
// tolerance's yardstick, reference.cc), and about one of fp16's. Until session 57 it was
// 1 - 2 / (2^(2 x log2 e) + 1) with the exp2 and reciprocal approximations (absolute error ~3e-7)
// at two MUFU operations, and softcap's kernels were MUFU-bound (three an element with the
// softmax's exp2: at head_dim 64 the sm90 forward ran at 0.37x its plain speed).
// +-inf give +-1, NaN stays NaN. Not volatile: the backward's two calls on the same value fold.
#if defined(__CUDA_ARCH__)
FA_HD float fa_tanh(float x) {
  float t;
  asm("tanh.approx.f32 %0, %1;" : "=f"(t) : "f"(x));
  return t;
}
#else
FA_HD float fa_tanh(float x) { return tanhf(x); }
#endif
FA_HD double fa_tanh(double x) { return tanh(x); }
FA_HD float fa_clamp_finite(float x) { return fminf(fmaxf(x, -FLT_MAX), FLT_MAX); }
FA_HD double fa_clamp_finite(double x) { return fmin(fmax(x, -DBL_MAX), DBL_MAX); }
FA_HD float fa_abs(float x) { return fabsf(x); }
FA_HD double fa_abs(double x) { return fabs(x); }

}  // namespace flashattn::semantics
