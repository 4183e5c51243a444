// Host-side helpers of the sm90 path shared by launch.cu and the probe (tests/cuda/sm90_probe.cu).
#pragma once

#include <cuda.h>

#include "cuda/sm80/host.h"
#include "cuda/sm80/params.h"
#include "dispatch/problem.h"

namespace flashattn::cuda::sm90 {

// cuTensorMapEncodeTiled, reached through the CUDA runtime's driver entry point (no link against
// libcuda); throws CudaError when the driver lacks it.
using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
EncodeTiled encode_tiled();

// The knobs' helpers (sm80/host.h): env_choice, device_sm_count, persistent_ctas.
using sm80::device_sm_count;
using sm80::env_choice;
using sm80::persistent_ctas;

// TMA can address the operand: a 16-byte aligned base and byte strides that are multiples of 16.
bool tma_ok(const Operand& o);

// A q/k/v-like operand as a 4-D TMA tensor (head_dim, rows, heads, batch) read in boxes of
// 64 columns x box_rows rows (x box_heads heads: rows of consecutive heads stacked) with the
// 128-byte swizzle; reads past any extent return zeros.
CUtensorMap make_tensor_map(const sm80::Tensor& t, DType dtype, int head_dim, int64_t rows, int heads, int batch,
                            int box_rows, int box_heads = 1);

}  // namespace flashattn::cuda::sm90
