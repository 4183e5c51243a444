// Host-side helpers of the sm80 path shared by launch.cu, the sm90 backward's host side
// (src/cuda/sm90/bwd_launch.cu) and the tuning program (bench/gpu/tune_sm80.cu): Problem ->
// kernel parameters, and the backward's steps around its main kernel.
#pragma once

#include "cuda/sm80/params.h"
#include "dispatch/problem.h"

namespace flashattn::cuda::sm80 {

// An on/off knob for a measured default: "1" on, "0" off, unset (or anything else) `dflt`.
bool env_choice(const char* name, bool dflt);

// The current device's SM count.
int device_sm_count();

// A persistent grid's CTA count from its knob: "0" none (one CTA a tile), "1" one CTA an SM
// (sm_count: device_sm_count()), "N" (N > 1) N CTAs (tests and the sanitizer give many tiles to
// each CTA of a small problem); unset (or not a number): one an SM if `dflt`, else none.
int persistent_ctas(const char* name, bool dflt, int sm_count);

// The sm80 backward's last round split (BwdParams::tail). Eligible where every key block walks
// the same query blocks (no causal mask, no window, no varlen), dQ's order is free (not
// deterministic), the plain kernel runs (no score modifier, no dropout: bwd_kernel.h) and
// FLASHATTN_SM80_BWD_TAIL is not 0. The plan for `tiles` key blocks of
// `steps` steps on `slots` CTA slots (CTAs an SM x SMs; FLASHATTN_SM80_BWD_SLOTS=N takes N, for
// tests): the pieces a tail tile that minimize a slot's modelled steps (each piece costs one step
// more), where that saves 2% or more against whole tiles (FLASHATTN_SM80_BWD_TAIL=1: wherever it
// saves anything; FLASHATTN_SM80_BWD_PIECES=N: N pieces). Returns pieces 0 for no split.
bool bwd_tail_eligible(const BwdParams& p);
BwdParams::Tail bwd_tail_plan(int64_t tiles, int steps, int64_t slots);
int64_t bwd_tail_slots(int ctas_per_sm);

// What the sm80 backward's KernelEntry::launch takes: the kernel's parameters and the call's
// context (the stream-K tail's workspace comes from its allocator).
struct BwdLaunch {
  BwdParams bp;
  const Context* context = nullptr;
};

// Tensors as the kernels see them.
Tensor tensor_of(const Operand& o);
// Rows 16-byte aligned and strides multiples of 8 elements: tiles can move with cp.async.
bool aligned16(const Operand& o);
// Everything but the grid size (the launcher sets num_m_blocks from its tile shape).
FwdParams make_fwd_params(const Problem& p);

// The backward around a main kernel: fills BwdParams (dq_accum_dim floats per (row, head) of
// the fp32 dq workspace), allocates and clears the workspace (dq in fp32 unless
// dq_first_store, D, semaphores when deterministic or dQ tickets), runs D = rowsum(dO * O), then
// main(bp, user, stream), then converts dq to the problem's dtype, all on context.cuda_stream. The sm80 path's main launches its KernelEntry;
// the sm90 backward's adds its tensor maps first. main returns the factor dq_accum still needs
// (BwdParams::dq_scale): 1, or softmax's scale where its kernel left the scale out of dS (the sm90
// plain-score schedule: one multiply an element fewer; dK scaled in its epilogue).
// dq_blocked: main adds dQ in BwdParams::dq_blocked's layout where that applies (the sm80 kernel;
// the sm90 one adds in the natural layout). dq_first_store (padded batch, not deterministic): main
// writes every query block's first dQ with a store (BwdParams::dq_tickets, which main sets
// dq_ticket_rows for), so dq_accum is not cleared.
using BwdMain = float (*)(BwdParams& bp, const void* user, void* stream);
void run_backward(const Problem& p, int dq_accum_dim, const Context& context, BwdMain main, const void* user,
                  bool dq_blocked = false, bool dq_first_store = false);

}  // namespace flashattn::cuda::sm80
