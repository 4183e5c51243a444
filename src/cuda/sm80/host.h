// Host-side helpers of the sm80 path shared by launch.cu and the tuning program
// (bench/gpu/tune_sm80.cu): Problem -> kernel parameters.
#pragma once

#include "cuda/sm80/params.h"
#include "dispatch/problem.h"

namespace flashattn::cuda::sm80 {

// Tensors as the kernels see them.
Tensor tensor_of(const Operand& o);
// Rows 16-byte aligned and strides multiples of 8 elements: tiles can move with cp.async.
bool aligned16(const Operand& o);
// Everything but the grid size (the launcher sets num_m_blocks from its tile shape).
FwdParams make_fwd_params(const Problem& p);

}  // namespace flashattn::cuda::sm80
