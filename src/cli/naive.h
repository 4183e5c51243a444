// Naive materialized attention in fp32 on the CPU: the full seqlen_q x seqlen_k score matrix of
// each (batch, head) is written to memory, then softmax, then a second matrix product. It is the
// baseline that shows the quadratic memory FlashAttention avoids; the semantics (mask, score
// modifiers, dropout) come from the same headers as the library's, so the results agree.
#pragma once

#include <cstddef>

#include "dispatch/problem.h"

namespace flashattn::cli {

struct NaivePlan {
  int threads = 1;                 // threads that each own a set of buffers
  std::size_t score_bytes = 0;     // the quadratic buffers: threads x buffers x seqlen_q x seqlen_k x 4
  std::size_t other_bytes = 0;     // linear temporaries (transposed K and V, a block of dP rows)
};

// What a naive forward or backward of p needs with `threads` threads (0: every core).
NaivePlan naive_plan(const Problem& p, int threads, bool backward);

// out = softmax(mod(q k^T)) v, and lse when p has one. Every operand of p must be float32.
void naive_forward(const Problem& p, const NaivePlan& plan);
// dq, dk, dv from q, k, v, dout; recomputes the scores (no saved state, like flashattn).
void naive_backward(const Problem& p, const NaivePlan& plan);

}  // namespace flashattn::cli
