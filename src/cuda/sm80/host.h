// Host-side helpers of the sm80 path shared by launch.cu, the sm90 backward's host side
// (src/cuda/sm90/bwd_launch.cu) and the tuning program (bench/gpu/tune_sm80.cu): Problem ->
// kernel parameters, and the backward's steps around its main kernel.
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

// The backward around a main kernel: fills BwdParams (dq_accum_dim floats per (row, head) of
// the fp32 dq workspace), allocates and clears the workspace (dq in fp32, D, semaphores when
// deterministic), runs D = rowsum(dO * O), then main(bp, user, stream), then converts dq to the
// problem's dtype, all on context.cuda_stream. The sm80 path's main launches its KernelEntry;
// the sm90 backward's adds its tensor maps first. main returns the factor dq_accum still needs
// (BwdParams::dq_scale): 1, or softmax's scale where its kernel left the scale out of dS (the sm90
// plain-score schedule: one multiply an element fewer; dK scaled in its epilogue).
// dq_blocked: main adds dQ in BwdParams::dq_blocked's layout where that applies (the sm80 kernel;
// the sm90 one adds in the natural layout).
using BwdMain = float (*)(const BwdParams& bp, const void* user, void* stream);
void run_backward(const Problem& p, int dq_accum_dim, const Context& context, BwdMain main, const void* user,
                  bool dq_blocked = false);

}  // namespace flashattn::cuda::sm80
