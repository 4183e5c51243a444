// Command-line arguments of `flashattn bench`: the configuration struct and its parser.
// The parser only checks form (known flags, values present, numbers well formed and in range);
// the library's validate() judges the attention rules, so each rule is written once.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flashattn/flashattn.h"

namespace flashattn::cli {

// A malformed command line: the caller prints the message and the usage text, and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Which implementations `bench` runs.
enum class Impl { Both, Flash, Naive };

// How gradients are checked: Auto is Full up to a problem size, then Sampled (see bench.cc).
enum class GradCheck { Auto, Full, Sampled };

struct BenchConfig {
  int batch = 2;
  int seqlen_q = 4096;
  int seqlen_k = -1;  // -1: seqlen_q
  int num_heads = 16;
  int num_heads_kv = -1;  // -1: num_heads
  int head_dim = 128;
  int head_dim_v = -1;  // -1: head_dim
  bool causal = false;
  int window_left = -1;
  int window_right = -1;
  float softcap = 0.0f;
  bool alibi = false;
  float dropout = 0.0f;
  bool backward = false;
  std::optional<DType> dtype;  // unset: float32 on the CPU, bfloat16 on CUDA
  Backend device = Backend::Auto;
  int iters = 0;  // 0: automatic (at least 3 runs and about 3 seconds, at most 30 runs)
  int warmup = 1;
  int threads = 0;  // 0: every core
  uint64_t seed = 0;
  Impl impl = Impl::Both;
  double naive_limit_gib = 4.0;
  GradCheck grad_check = GradCheck::Auto;  // the naive run is skipped when its score buffers exceed this
  bool json = false;

  int sk() const { return seqlen_k < 0 ? seqlen_q : seqlen_k; }
  int heads_kv() const { return num_heads_kv < 0 ? num_heads : num_heads_kv; }
  int dv() const { return head_dim_v < 0 ? head_dim : head_dim_v; }
};

// Parses the arguments that follow `bench`; throws UsageError.
BenchConfig parse_bench_args(const std::vector<std::string>& args);

// The text of `flashattn --help`.
const char* usage_text();

}  // namespace flashattn::cli
