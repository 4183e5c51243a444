// Testing aids outside the fast path. attention_probs materializes the attention probabilities
// of a forward call (seqlen_q x seqlen_k per head): for small test shapes only, CPU memory only.
#pragma once

#include "flashattn/flashattn.h"

namespace flashattn {

// Writes probs[b, h, i, j] (float32, rank 4: (batch, num_heads, rows >= max_seqlen_q,
// cols >= max_seqlen_k), last dim contiguous) for the call described by args: the softmax weight
// of key j for query i (before the 1 / (1 - dropout_p) scale), negated where dropout drops it
// (the sign encodes the dropout pattern, as flash_attn's return_attn_probs does). Masked keys and
// the padding beyond each sequence get 0. Every pointer in args must be host memory; args.out is
// validated but neither read nor written, args.softmax_lse is not used. Computed in double from
// the same semantics (mask, score modifiers, softmax rule, Philox dropout) as every backend.
// Throws Error like forward().
void attention_probs(const ForwardArgs& args, const TensorView& probs);

}  // namespace flashattn
