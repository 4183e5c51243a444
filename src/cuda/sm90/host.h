// Host-side helpers of the sm90 path shared by launch.cu and the probe (tests/cuda/sm90_probe.cu).
#pragma once

#include <cuda.h>

#include "cuda/sm80/params.h"
#include "dispatch/problem.h"

namespace flashattn::cuda::sm90 {

// cuTensorMapEncodeTiled, reached through the CUDA runtime's driver entry point (no link against
// libcuda); throws CudaError when the driver lacks it.
using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
EncodeTiled encode_tiled();

// An on/off knob for a measured default: "1" on, "0" off, unset (or anything else) `dflt`.
bool env_choice(const char* name, bool dflt);

// The current device's SM count.
int device_sm_count();

// A persistent grid's CTA count from its knob: "0" none (one CTA a tile), "1" one CTA an SM
// (sm_count: device_sm_count()), "N" (N > 1) N CTAs (tests and the sanitizer give many tiles to
// each CTA of a small problem); unset (or not a number): one an SM if `dflt`, else none.
int persistent_ctas(const char* name, bool dflt, int sm_count);

// TMA can address the operand: a 16-byte aligned base and byte strides that are multiples of 16.
bool tma_ok(const Operand& o);

// A q/k/v-like operand as a 4-D TMA tensor (head_dim, rows, heads, batch) read in boxes of
// 64 columns x box_rows rows (x box_heads heads: rows of consecutive heads stacked) with the
// 128-byte swizzle; reads past any extent return zeros.
CUtensorMap make_tensor_map(const sm80::Tensor& t, DType dtype, int head_dim, int64_t rows, int heads, int batch,
                            int box_rows, int box_heads = 1);

}  // namespace flashattn::cuda::sm90
