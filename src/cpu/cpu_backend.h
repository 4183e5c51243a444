// The CPU backend: tiled attention with online softmax (forward) and recomputation of P from the
// saved LSE (backward), threaded with OpenMP, no seqlen_q x seqlen_k buffer anywhere.
#pragma once

#include "dispatch/problem.h"

namespace flashattn::cpu {

// context: num_threads (0 = every core) and the scratch allocator.
void forward(const Problem& p, const Context& context);
void backward(const Problem& p, const Context& context);

// Resolves a thread count of 0 to every core.
int resolve_threads(int num_threads);

}  // namespace flashattn::cpu
