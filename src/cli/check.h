// Checks of benchmark results against the double reference (src/reference), with the CLI's
// tolerance rule: an element passes when |ours - ref| <= tol * max(1, |ref|), tol = 2e-2 for
// bfloat16, 5e-3 for float16, 1e-4 for float32; NaN never passes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/tensors.h"
#include "dispatch/problem.h"

namespace flashattn::cli {

double tolerance(DType dtype);

// The running result of comparing one output with its reference.
struct Comparison {
  std::string impl;           // "flashattn" or "naive"
  std::string what;           // e.g. "out", "dq"
  std::string scope;          // e.g. "16 sampled rows", "all elements"
  double tol = 0.0;
  int64_t count = 0;          // elements compared
  int64_t mismatched = 0;     // NaN, or an infinity where the reference has none (or vice versa)
  double max_abs_err = 0.0;   // max |ours - ref| over finite pairs
  double max_scaled_err = 0.0;  // max |ours - ref| / max(1, |ref|): passes when <= tol

  void add(double ours, double ref);
  bool ok() const { return mismatched == 0 && max_scaled_err <= tol; }
};

// Every element of an output must be finite (lse: finite or -inf, a row that sees no key).
// Outputs are poisoned with NaN before each run, so this also proves every element was written.
struct Coverage {
  std::string impl;
  std::string what;
  int64_t count = 0;
  int64_t nonfinite = 0;
  bool ok() const { return nonfinite == 0; }
};
Coverage coverage(const std::string& impl, const std::string& what, const HostTensor& t,
                  bool allow_neg_inf = false);

struct RowSample {
  int b, h, i;
};
// `count` distinct (batch, head, row) triples, the first and the last row among them.
std::vector<RowSample> sample_rows(const Problem& p, int count, uint64_t seed);

// out (and lse when p has one and lse != nullptr) of the sampled rows against
// reference::forward_row. The reference reads the inputs p points to.
void compare_forward_rows(const Problem& p, const std::vector<RowSample>& rows, Comparison* out, Comparison* lse);

// dq of the sampled rows against the chain rule evaluated in double from q, k, v, dout (and the
// reference's out and lse of each row). p must be a backward Problem.
void compare_dq_rows(const Problem& p, const std::vector<RowSample>& rows, Comparison* dq);

// A whole tensor against a dense reference in the same element order.
void compare_dense(const HostTensor& ours, const std::vector<double>& ref, Comparison* c);

}  // namespace flashattn::cli
