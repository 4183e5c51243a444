// What `flashattn bench` measured and checked, and its two renderings: a table for people and
// one JSON object for scripts (bench/cpu_bench.py reads it; bench/README.md lists its fields).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/check.h"

namespace flashattn::cli {

// One timed pass (forward or backward) of one implementation.
struct PassResult {
  bool ran = false;
  std::vector<double> ms;  // every timed run, in order
  double median_ms = 0.0;
  double min_ms = 0.0;
  double flops = 0.0;
  std::size_t scratch_bytes = 0;   // flashattn: the library's scratch peak; naive: its buffers
  std::size_t peak_rss_bytes = 0;  // process peak RSS during this pass (see BenchResult::rss_reset)
  std::size_t baseline_rss_bytes = 0;  // RSS when the pass began (inputs already resident)

  double tflops() const { return median_ms > 0.0 ? flops / (median_ms * 1e-3) / 1e12 : 0.0; }
};

struct ImplResult {
  bool requested = false;
  std::string skipped;  // why it did not run; empty when it ran (or was not requested)
  std::string backend, path;  // flashattn: the RunInfo of the call
  int threads = 0;
  PassResult fwd, bwd;
  std::size_t score_bytes = 0;  // naive: the quadratic buffers of the larger pass
  std::size_t other_bytes = 0;  // naive: its linear temporaries
};

struct BenchResult {
  BenchConfig config;
  DType dtype = DType::Float32;
  Backend backend = Backend::Cpu;
  int threads = 0;
  double fwd_flops = 0.0, bwd_flops = 0.0;  // FlashAttention's count (see bench.cc)
  std::size_t io_bytes = 0;  // inputs and outputs of the measured passes
  bool rss_reset = false;    // false: peak RSS could not be reset per pass (it is the process's)
  ImplResult flash, naive;
  std::vector<Comparison> comparisons;
  std::vector<Coverage> coverages;
  std::vector<std::string> notes;

  bool ok() const;
};

void print_text(const BenchResult& r, std::ostream& out);
void print_json(const BenchResult& r, std::ostream& out);

// "512 B", "3.1 MiB", "1.50 GiB".
std::string format_bytes(double bytes);

}  // namespace flashattn::cli
