// Qualifiers that let the semantics headers compile as plain C++ and as CUDA device code.
// Everything under src/semantics/ is header-only and free of host-only calls.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define FA_HD __host__ __device__ __forceinline__
#else
#define FA_HD inline
#endif

namespace flashattn::semantics {

FA_HD float fa_tanh(float x) { return tanhf(x); }
FA_HD double fa_tanh(double x) { return tanh(x); }
FA_HD float fa_abs(float x) { return fabsf(x); }
FA_HD double fa_abs(double x) { return fabs(x); }

}  // namespace flashattn::semantics
