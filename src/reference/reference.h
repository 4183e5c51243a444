// Naive attention in double precision, for tests and the CLI's checks only. It materializes
// each row's scores and reads the same semantics headers as every backend. With
// Rounding::LowPrecision it instead emulates the same naive computation done in the problem's
// dtype (intermediates rounded where a framework would round them): the yardstick of the
// tolerance rule "error <= 2 x the low-precision naive error + the fp32 noise floor".
#pragma once

#include <vector>

#include "dispatch/problem.h"

namespace flashattn::reference {

enum class Rounding { Exact, LowPrecision };

// Dense results in token order: token = cu_seqlens[b] + row (padded: b * seqlen + row).
struct ForwardResult {
  std::vector<double> out;  // (total_q, num_heads, head_dim_v)
  std::vector<double> lse;  // (total_q, num_heads)
};
struct BackwardResult {
  std::vector<double> dq;  // (total_q, num_heads, head_dim)
  std::vector<double> dk;  // (total_k, num_heads_kv, head_dim)
  std::vector<double> dv;  // (total_k, num_heads_kv, head_dim_v)
};

ForwardResult forward(const ForwardArgs& args, Rounding rounding = Rounding::Exact);
// Recomputes the forward pass itself; args.out and args.softmax_lse are not read.
BackwardResult backward(const BackwardArgs& args, Rounding rounding = Rounding::Exact);

// One row (b, h, i) in double: out_row gets head_dim_v values. For sampled checks.
void forward_row(const Problem& p, int b, int h, int i, double* out_row, double* lse);

// Helpers of the reference, shared with tests/cpp/harness.h's tolerance allowance:
// K and V of (batch entry b, kv head hk) as doubles, row j at j * head_dim (k) and j * head_dim_v (v).
void load_kv(const Problem& p, int b, int hk, std::vector<double>* k, std::vector<double>* v);
// out[j] = sum over c < n of a[c] * rows[j * n + c], each sum in increasing c, for j < count.
void dots(const double* a, const double* rows, int count, int n, double* out);

}  // namespace flashattn::reference
