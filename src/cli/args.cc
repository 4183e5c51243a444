// The `bench` argument parser: a table of flags, each with a handler that parses its value.
// Numbers are parsed strictly (the whole string, in range), so "--seqlen 4k" is an error, never 4.
#include "cli/args.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <functional>

namespace flashattn::cli {
namespace {

[[noreturn]] void bad_value(const std::string& flag, const std::string& value, const std::string& want) {
  throw UsageError("bad value '" + value + "' for " + flag + ": expected " + want);
}

long long parse_integer(const std::string& flag, const std::string& s, long long lo, long long hi,
                        const std::string& want) {
  if (s.empty()) bad_value(flag, s, want);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) bad_value(flag, s, want);
  return v;
}

double parse_real(const std::string& flag, const std::string& s, double lo, double hi, const std::string& want) {
  if (s.empty()) bad_value(flag, s, want);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v) || v < lo || v > hi) bad_value(flag, s, want);
  return v;
}

int positive(const std::string& flag, const std::string& s) {
  return int(parse_integer(flag, s, 1, INT_MAX, "a positive integer"));
}

DType parse_dtype(const std::string& flag, const std::string& s) {
  if (s == "fp32" || s == "float32") return DType::Float32;
  if (s == "fp16" || s == "float16") return DType::Float16;
  if (s == "bf16" || s == "bfloat16") return DType::BFloat16;
  bad_value(flag, s, "bf16, fp16 or fp32");
}

struct Flag {
  const char* name;
  bool takes_value;
  std::function<void(BenchConfig&, const std::string&)> apply;
};

const std::vector<Flag>& flags() {
  static const std::vector<Flag> table = {
      {"--batch", true, [](BenchConfig& c, const std::string& v) { c.batch = positive("--batch", v); }},
      {"--seqlen", true, [](BenchConfig& c, const std::string& v) { c.seqlen_q = positive("--seqlen", v); }},
      {"--seqlen-k", true, [](BenchConfig& c, const std::string& v) { c.seqlen_k = positive("--seqlen-k", v); }},
      {"--heads", true, [](BenchConfig& c, const std::string& v) { c.num_heads = positive("--heads", v); }},
      {"--heads-kv", true, [](BenchConfig& c, const std::string& v) { c.num_heads_kv = positive("--heads-kv", v); }},
      {"--head-dim", true, [](BenchConfig& c, const std::string& v) { c.head_dim = positive("--head-dim", v); }},
      {"--head-dim-v", true,
       [](BenchConfig& c, const std::string& v) { c.head_dim_v = positive("--head-dim-v", v); }},
      {"--causal", false, [](BenchConfig& c, const std::string&) { c.causal = true; }},
      {"--window", true,
       [](BenchConfig& c, const std::string& v) {
         const std::string want = "L,R with integers >= -1 (-1: unbounded)";
         const size_t comma = v.find(',');
         if (comma == std::string::npos) bad_value("--window", v, want);
         c.window_left = int(parse_integer("--window", v.substr(0, comma), -1, INT_MAX, want));
         c.window_right = int(parse_integer("--window", v.substr(comma + 1), -1, INT_MAX, want));
       }},
      {"--softcap", true,
       [](BenchConfig& c, const std::string& v) {
         c.softcap = float(parse_real("--softcap", v, 0.0, 1e30, "a number >= 0 (0: off)"));
       }},
      {"--alibi", false, [](BenchConfig& c, const std::string&) { c.alibi = true; }},
      {"--dropout", true,
       [](BenchConfig& c, const std::string& v) {
         c.dropout = float(parse_real("--dropout", v, 0.0, 1.0, "a probability in [0, 1)"));
       }},
      {"--backward", false, [](BenchConfig& c, const std::string&) { c.backward = true; }},
      {"--dtype", true, [](BenchConfig& c, const std::string& v) { c.dtype = parse_dtype("--dtype", v); }},
      {"--device", true,
       [](BenchConfig& c, const std::string& v) {
         if (v == "cpu") c.device = Backend::Cpu;
         else if (v == "cuda") c.device = Backend::Cuda;
         else if (v == "auto") c.device = Backend::Auto;
         else bad_value("--device", v, "cpu, cuda or auto");
       }},
      {"--iters", true,
       [](BenchConfig& c, const std::string& v) {
         c.iters = int(parse_integer("--iters", v, 0, 1000000, "an integer >= 0 (0: automatic)"));
       }},
      {"--warmup", true,
       [](BenchConfig& c, const std::string& v) {
         c.warmup = int(parse_integer("--warmup", v, 0, 1000000, "an integer >= 0"));
       }},
      {"--threads", true,
       [](BenchConfig& c, const std::string& v) {
         c.threads = int(parse_integer("--threads", v, 0, 4096, "an integer >= 0 (0: every core)"));
       }},
      {"--seed", true,
       [](BenchConfig& c, const std::string& v) {
         c.seed = uint64_t(parse_integer("--seed", v, 0, LLONG_MAX, "a non-negative integer"));
       }},
      {"--impl", true,
       [](BenchConfig& c, const std::string& v) {
         if (v == "both") c.impl = Impl::Both;
         else if (v == "flashattn") c.impl = Impl::Flash;
         else if (v == "naive") c.impl = Impl::Naive;
         else bad_value("--impl", v, "flashattn, naive or both");
       }},
      {"--no-naive", false, [](BenchConfig& c, const std::string&) { c.impl = Impl::Flash; }},
      {"--naive-limit-gib", true,
       [](BenchConfig& c, const std::string& v) {
         c.naive_limit_gib = parse_real("--naive-limit-gib", v, 0.0, 1e9, "a number of GiB >= 0");
       }},
      {"--grad-check", true,
       [](BenchConfig& c, const std::string& v) {
         if (v == "auto") c.grad_check = GradCheck::Auto;
         else if (v == "full") c.grad_check = GradCheck::Full;
         else if (v == "sampled") c.grad_check = GradCheck::Sampled;
         else bad_value("--grad-check", v, "auto, full or sampled");
       }},
      {"--json", false, [](BenchConfig& c, const std::string&) { c.json = true; }},
  };
  return table;
}

}  // namespace

BenchConfig parse_bench_args(const std::vector<std::string>& args) {
  BenchConfig config;
  for (size_t a = 0; a < args.size(); ++a) {
    std::string name = args[a], value;
    bool inline_value = false;
    const size_t eq = name.find('=');
    if (name.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    const Flag* flag = nullptr;
    for (const Flag& f : flags())
      if (name == f.name) flag = &f;
    if (flag == nullptr) throw UsageError("unknown argument '" + args[a] + "'");
    if (flag->takes_value && !inline_value) {
      if (a + 1 >= args.size()) throw UsageError("missing value for " + name);
      value = args[++a];
    } else if (!flag->takes_value && inline_value) {
      throw UsageError(name + " takes no value");
    }
    flag->apply(config, value);
  }
  return config;
}

const char* usage_text() {
  return R"(usage: flashattn <command> [options]

commands:
  bench      time forward (and backward) attention, check it against the double reference,
             and compare it with naive materialized attention
  version    print the version and the backends this build can run
  help       print this text (also --help, -h)

bench options (defaults in brackets):
  --batch N            batch size [2]
  --seqlen N           query sequence length [4096]
  --seqlen-k N         key/value sequence length [= seqlen]
  --heads N            query heads [16]
  --heads-kv N         key/value heads, dividing heads (GQA/MQA) [= heads]
  --head-dim N         head dimension of q and k [128]
  --head-dim-v N       head dimension of v and out [= head-dim]
  --causal             causal mask (aligned to the bottom-right corner)
  --window L,R         sliding window, -1 = unbounded side
  --softcap X          softcap scores: X * tanh(s / X) [0 = off]
  --alibi              ALiBi with the standard slopes 2^(-8 (h+1) / heads)
  --dropout P          dropout probability in [0, 1) [0]
  --backward           also time and check the backward pass
  --dtype T            bf16, fp16 or fp32 [fp32 on cpu, bf16 on cuda]
  --device D           cpu, cuda or auto [auto: cuda when built and present, else cpu]
  --iters N            timed runs per pass [0 = automatic: >= 3 runs and ~3 s, at most 30]
  --warmup N           untimed runs before timing [1]
  --threads N          CPU threads for flashattn and the naive run [0 = every core]
  --seed S             seed of the random inputs [0]
  --impl I             flashattn, naive or both [both]
  --no-naive           same as --impl flashattn
  --naive-limit-gib X  skip the naive run when its score buffers need more [4]
  --grad-check G       auto, full (dq, dk, dv against the full double reference) or sampled
                       (dq on sampled rows) [auto: full up to batch*heads*seqlen_q*seqlen_k*
                       head_dim = 2e9, about a minute of the single-threaded reference]
  --json               print one JSON object on stdout instead of the report

Flags also take --flag=value. Exit status: 0 success, 1 library or runtime error,
2 usage error, 3 a result failed its check.
)";
}

}  // namespace flashattn::cli
