// The CPU backend: tiled attention with online softmax (forward) and recomputation of P from the
// saved LSE (backward), threaded with OpenMP, no seqlen_q x seqlen_k buffer anywhere.
#pragma once

#include "dispatch/problem.h"

namespace flashattn::cpu {

void forward(const Problem& p, int num_threads);
void backward(const Problem& p, int num_threads);

// Resolves a thread count of 0 to every core.
int resolve_threads(int num_threads);

}  // namespace flashattn::cpu
