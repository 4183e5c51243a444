// `flashattn bench`: random inputs, timed forward/backward of flashattn and of the naive
// materialized baseline, their memory (library scratch, process peak RSS), and checks against the
// double reference. Outputs are poisoned (NaN) before every run, outside the timed region.
#include "cli/bench.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "cli/naive.h"
#include "cli/progress.h"
#include "cli/report.h"
#include "cli/sysinfo.h"
#include "cli/tensors.h"
#include "reference/reference.h"

namespace flashattn::cli {
namespace {

constexpr int kSampledRows = 16;
// Automatic run count: at least kAutoMinRuns and about kAutoSeconds of timed runs, at most
// kAutoMaxRuns (ANCHORS.md takes the median of >= 30 GPU runs; CPU runs take seconds each).
constexpr int kAutoMinRuns = 3;
constexpr int kAutoMaxRuns = 30;
constexpr double kAutoSeconds = 3.0;
// The full reference backward (single-threaded, double) runs up to this many
// batch * heads * seqlen_q * seqlen_k * head_dim; larger problems get the sampled dq check.
constexpr double kFullGradCheckLimit = 2e9;

using Clock = std::chrono::steady_clock;

PassResult time_pass(Progress& progress, const std::string& label, const BenchConfig& cfg, double flops,
                     const std::function<void()>& prepare, const std::function<void()>& run) {
  PassResult r;
  r.ran = true;
  r.flops = flops;
  r.baseline_rss_bytes = current_rss_bytes();
  progress.phase(label);
  for (int w = 0; w < cfg.warmup; ++w) {
    progress.detail("warm-up " + std::to_string(w + 1) + "/" + std::to_string(cfg.warmup));
    prepare();
    run();
  }
  double total = 0.0;
  for (int n = 0;; ++n) {
    const bool done = cfg.iters > 0 ? n >= cfg.iters
                                    : n >= kAutoMaxRuns || (n >= kAutoMinRuns && total >= kAutoSeconds);
    if (done) break;
    progress.detail("run " + std::to_string(n + 1) + (cfg.iters > 0 ? "/" + std::to_string(cfg.iters) : ""));
    prepare();
    const Clock::time_point t0 = Clock::now();
    run();
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    total += seconds;
    r.ms.push_back(seconds * 1e3);
  }
  progress.clear();
  std::vector<double> sorted = r.ms;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  r.median_ms = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  r.min_ms = sorted.front();
  return r;
}

Comparison comparison(const std::string& impl, const std::string& what, const std::string& scope, double tol) {
  Comparison c;
  c.impl = impl;
  c.what = what;
  c.scope = scope;
  c.tol = tol;
  return c;
}

// ALiBi's standard slopes 2^(-8 (h + 1) / heads), one per head.
HostTensor alibi_slopes(int heads) {
  HostTensor t(DType::Float32, {heads});
  for (int h = 0; h < heads; ++h) t.set(h, float(std::exp2(-8.0 * (h + 1) / heads)));
  return t;
}

// The tensors of one implementation: its own outputs, its inputs by view (so the naive run can
// read float32 copies while flashattn reads the benchmark's dtype).
struct Operands {
  TensorView q, k, v, dout;
  HostTensor out, lse, dq, dk, dv;

  ForwardArgs forward_args(const Options& o) const {
    ForwardArgs a;
    a.q = q;
    a.k = k;
    a.v = v;
    a.out = out.view();
    a.softmax_lse = lse.view();
    a.options = o;
    return a;
  }
  BackwardArgs backward_args(const Options& o) const {
    BackwardArgs a;
    a.q = q;
    a.k = k;
    a.v = v;
    a.out = out.view();
    a.dout = dout;
    a.softmax_lse = lse.view();
    a.dq = dq.view();
    a.dk = dk.view();
    a.dv = dv.view();
    a.options = o;
    return a;
  }
};

class Bench {
 public:
  explicit Bench(const BenchConfig& cfg) : cfg_(cfg) {}
  int run();

 private:
  void setup();
  void allocate_and_validate();
  void fill_inputs();
  void fill_dout();
  void run_flash();
  void run_naive();
  void check_gradients(const std::string& impl, const Problem& p, const HostTensor& dq, const HostTensor& dk,
                       const HostTensor& dv, double tol);
  const reference::BackwardResult& reference_backward(const BackwardArgs& args);
  void reset_pass_memory();

  const BenchConfig& cfg_;
  BenchResult r_;
  Progress progress_;
  Options options_;
  Context context_;
  bool full_grad_check_ = false;
  std::vector<RowSample> rows_;
  HostTensor q_, k_, v_, dout_, slopes_;
  bool inputs_filled_ = false;
  bool dout_filled_ = false;
  Operands flash_;  // flashattn's outputs, allocated early: untouched pages cost no memory
  std::optional<reference::BackwardResult> ref_grads_;
};

void Bench::setup() {
  const BenchConfig& c = cfg_;
  r_.config = c;
  r_.backend = c.device == Backend::Auto ? default_backend() : c.device;
  if (!backend_available(r_.backend))
    throw Error("--device", std::string(backend_name(r_.backend)) + " is not built or has no device here");
  if (r_.backend == Backend::Cuda)
    throw std::runtime_error("this flashattn command has no CUDA memory support yet: use --device cpu");
  r_.dtype = c.dtype.value_or(r_.backend == Backend::Cuda ? DType::BFloat16 : DType::Float32);
  r_.threads = c.threads > 0 ? c.threads : omp_get_num_procs();
  omp_set_num_threads(r_.threads);

  // FlashAttention's FLOP count: 2 * seqlen_q * seqlen_k * (head_dim + head_dim_v) per (batch,
  // head), i.e. 4 * ... * head_dim when they are equal; halved for causal; backward = 2.5x.
  r_.fwd_flops = 2.0 * c.batch * c.num_heads * double(c.seqlen_q) * c.sk() * (c.head_dim + c.dv());
  if (c.causal) r_.fwd_flops /= 2.0;
  if (c.backward) r_.bwd_flops = 2.5 * r_.fwd_flops;

  const double es = double(dtype_size(r_.dtype));
  const double q = double(c.batch) * c.seqlen_q * c.num_heads * c.head_dim;
  const double k = double(c.batch) * c.sk() * c.heads_kv() * c.head_dim;
  const double v = double(c.batch) * c.sk() * c.heads_kv() * c.dv();
  const double o = double(c.batch) * c.seqlen_q * c.num_heads * c.dv();
  const double lse = double(c.batch) * c.num_heads * c.seqlen_q * 4.0;
  double io = (q + k + v + o) * es + lse;
  if (c.backward) io += (o + q + k + v) * es;
  r_.io_bytes = std::size_t(io);
  // The naive run adds float32 copies of everything when the dtype is 16-bit.
  const double needed = io * (c.impl != Impl::Flash && r_.dtype != DType::Float32 ? 3.0 : 1.0);
  const std::size_t available = mem_available_bytes();
  if (available > 0 && needed > double(available))
    throw std::runtime_error("inputs and outputs need " + format_bytes(needed) + " but only " +
                             format_bytes(double(available)) + " of memory are available");

  options_.causal = c.causal;
  options_.window_left = c.window_left;
  options_.window_right = c.window_right;
  options_.softcap = c.softcap;
  options_.dropout_p = c.dropout;
  options_.seed = c.seed;
  if (c.alibi) {
    slopes_ = alibi_slopes(c.num_heads);
    options_.alibi_slopes = slopes_.view();
  }
  context_.backend = r_.backend;
  context_.num_threads = c.threads;
  full_grad_check_ = c.grad_check == GradCheck::Full ||
                     (c.grad_check == GradCheck::Auto &&
                      double(c.batch) * c.num_heads * double(c.seqlen_q) * c.sk() * c.head_dim <= kFullGradCheckLimit);
  r_.flash.requested = c.impl != Impl::Naive;
  r_.naive.requested = c.impl != Impl::Flash;
}

// Allocates every tensor and lets the library judge the arguments before any time is spent.
// Inputs are filled when first needed (a skipped naive run needs none), dout just before the
// first backward pass, so that the forward pass's peak RSS does not include it.
void Bench::allocate_and_validate() {
  const BenchConfig& c = cfg_;
  q_ = HostTensor(r_.dtype, {c.batch, c.seqlen_q, c.num_heads, c.head_dim});
  k_ = HostTensor(r_.dtype, {c.batch, c.sk(), c.heads_kv(), c.head_dim});
  v_ = HostTensor(r_.dtype, {c.batch, c.sk(), c.heads_kv(), c.dv()});
  flash_.q = q_.view();
  flash_.k = k_.view();
  flash_.v = v_.view();
  flash_.out = HostTensor(r_.dtype, {c.batch, c.seqlen_q, c.num_heads, c.dv()});
  flash_.lse = HostTensor(DType::Float32, {c.batch, c.num_heads, c.seqlen_q});
  validate(flash_.forward_args(options_), context_);
  if (c.backward) {
    dout_ = HostTensor(r_.dtype, {c.batch, c.seqlen_q, c.num_heads, c.dv()});
    flash_.dout = dout_.view();
    flash_.dq = HostTensor(r_.dtype, {c.batch, c.seqlen_q, c.num_heads, c.head_dim});
    flash_.dk = HostTensor(r_.dtype, {c.batch, c.sk(), c.heads_kv(), c.head_dim});
    flash_.dv = HostTensor(r_.dtype, {c.batch, c.sk(), c.heads_kv(), c.dv()});
    validate(flash_.backward_args(options_), context_);
  }
}

void Bench::fill_inputs() {
  if (inputs_filled_) return;
  progress_.phase("generating inputs");
  q_.fill_normal(cfg_.seed, 1);
  k_.fill_normal(cfg_.seed, 2);
  v_.fill_normal(cfg_.seed, 3);
  progress_.clear();
  inputs_filled_ = true;
}

void Bench::fill_dout() {
  if (dout_filled_) return;
  dout_.fill_normal(cfg_.seed, 4);
  dout_filled_ = true;
}

void Bench::reset_pass_memory() {
  reset_cpu_scratch_peak();
  r_.rss_reset = reset_peak_rss();
}

const reference::BackwardResult& Bench::reference_backward(const BackwardArgs& args) {
  // The naive run reads float32 copies of the same values, so one reference serves both.
  if (!ref_grads_) {
    progress_.phase("reference backward (double)");
    ref_grads_ = reference::backward(args);
    progress_.clear();
  }
  return *ref_grads_;
}

void Bench::check_gradients(const std::string& impl, const Problem& p, const HostTensor& dq, const HostTensor& dk,
                            const HostTensor& dv, double tol) {
  r_.coverages.push_back(coverage(impl, "dq", dq));
  r_.coverages.push_back(coverage(impl, "dk", dk));
  r_.coverages.push_back(coverage(impl, "dv", dv));
  if (!full_grad_check_) {
    progress_.phase("checking " + impl + " dq rows");
    Comparison c = comparison(impl, "dq", std::to_string(rows_.size()) + " sampled rows", tol);
    compare_dq_rows(p, rows_, &c);
    r_.comparisons.push_back(c);
    progress_.clear();
    return;
  }
  const HostTensor* ours[] = {&dq, &dk, &dv};
  const char* names[] = {"dq", "dk", "dv"};
  for (int t = 0; t < 3; ++t) {
    const reference::BackwardResult& ref = *ref_grads_;
    const std::vector<double>& want = t == 0 ? ref.dq : t == 1 ? ref.dk : ref.dv;
    Comparison c = comparison(impl, names[t], "all elements", tol);
    compare_dense(*ours[t], want, &c);
    r_.comparisons.push_back(c);
  }
}

void Bench::run_flash() {
  const BenchConfig& c = cfg_;
  const double tol = tolerance(r_.dtype);
  fill_inputs();
  Operands& ops = flash_;
  const ForwardArgs fa = ops.forward_args(options_);
  const Problem p = make_problem(fa, Backend::Cpu);
  if (rows_.empty()) rows_ = sample_rows(p, kSampledRows, c.seed);

  RunInfo info;
  reset_pass_memory();
  r_.flash.fwd = time_pass(
      progress_, "flashattn forward", c, r_.fwd_flops,
      [&] {
        ops.out.poison();
        ops.lse.poison();
      },
      [&] { info = forward(fa, context_); });
  r_.flash.fwd.scratch_bytes = cpu_scratch_peak_bytes();
  r_.flash.fwd.peak_rss_bytes = peak_rss_bytes();
  r_.flash.backend = backend_name(info.backend);
  r_.flash.path = info.path;
  r_.flash.threads = r_.threads;

  progress_.phase("checking flashattn forward");
  r_.coverages.push_back(coverage("flashattn", "out", ops.out));
  r_.coverages.push_back(coverage("flashattn", "lse", ops.lse, /*allow_neg_inf=*/true));
  const std::string scope = std::to_string(rows_.size()) + " sampled rows";
  Comparison out = comparison("flashattn", "out", scope, tol);
  Comparison lse = comparison("flashattn", "lse", scope, tolerance(DType::Float32));
  compare_forward_rows(p, rows_, &out, &lse);
  r_.comparisons.push_back(out);
  r_.comparisons.push_back(lse);
  progress_.clear();
  if (!c.backward) return;

  fill_dout();
  const BackwardArgs ba = ops.backward_args(options_);
  reset_pass_memory();
  r_.flash.bwd = time_pass(
      progress_, "flashattn backward", c, r_.bwd_flops,
      [&] {
        ops.dq.poison();
        ops.dk.poison();
        ops.dv.poison();
      },
      [&] { backward(ba, context_); });
  r_.flash.bwd.scratch_bytes = cpu_scratch_peak_bytes();
  r_.flash.bwd.peak_rss_bytes = peak_rss_bytes();
  if (full_grad_check_) reference_backward(ba);
  check_gradients("flashattn", make_problem(ba, Backend::Cpu), ops.dq, ops.dk, ops.dv, tol);
}

void Bench::run_naive() {
  const BenchConfig& c = cfg_;
  // Naive results are float32 from the same (already rounded) input values: the fp32 rule.
  const double tol = tolerance(DType::Float32);
  const Problem shape = make_problem(flash_.forward_args(options_), Backend::Cpu);
  const NaivePlan fwd_plan = naive_plan(shape, c.threads, false);
  const NaivePlan plan = c.backward ? naive_plan(shape, c.threads, true) : fwd_plan;
  r_.naive.threads = plan.threads;
  r_.naive.score_bytes = plan.score_bytes;
  r_.naive.other_bytes = plan.other_bytes;
  const double limit = c.naive_limit_gib * 1024.0 * 1024.0 * 1024.0;
  if (double(plan.score_bytes) > limit) {
    r_.naive.skipped = "would need " + format_bytes(double(plan.score_bytes)) + " of score buffers (" +
                       std::to_string(plan.threads) + " threads x " + (c.backward ? "2 x " : "") +
                       std::to_string(c.seqlen_q) + " x " + std::to_string(c.sk()) + " x 4 B), over the limit of " +
                       format_bytes(limit) + " (--naive-limit-gib)";
    return;
  }

  fill_inputs();
  Operands ops;
  ops.out = HostTensor(DType::Float32, {c.batch, c.seqlen_q, c.num_heads, c.dv()});
  ops.lse = HostTensor(DType::Float32, {c.batch, c.num_heads, c.seqlen_q});
  HostTensor q32, k32, v32, dout32;
  if (r_.dtype == DType::Float32) {
    ops.q = q_.view();
    ops.k = k_.view();
    ops.v = v_.view();
  } else {
    q32 = q_.to_float32();
    k32 = k_.to_float32();
    v32 = v_.to_float32();
    ops.q = q32.view();
    ops.k = k32.view();
    ops.v = v32.view();
  }
  const ForwardArgs fa = ops.forward_args(options_);
  const Problem p = make_problem(fa, Backend::Cpu);
  if (rows_.empty()) rows_ = sample_rows(p, kSampledRows, c.seed);

  reset_pass_memory();
  r_.naive.fwd = time_pass(
      progress_, "naive forward", c, r_.fwd_flops,
      [&] {
        ops.out.poison();
        ops.lse.poison();
      },
      [&] { naive_forward(p, fwd_plan); });
  r_.naive.fwd.scratch_bytes = fwd_plan.score_bytes + fwd_plan.other_bytes;
  r_.naive.fwd.peak_rss_bytes = peak_rss_bytes();

  progress_.phase("checking naive forward");
  r_.coverages.push_back(coverage("naive", "out", ops.out));
  r_.coverages.push_back(coverage("naive", "lse", ops.lse, /*allow_neg_inf=*/true));
  const std::string scope = std::to_string(rows_.size()) + " sampled rows";
  Comparison out = comparison("naive", "out", scope, tol);
  Comparison lse = comparison("naive", "lse", scope, tol);
  compare_forward_rows(p, rows_, &out, &lse);
  r_.comparisons.push_back(out);
  r_.comparisons.push_back(lse);
  progress_.clear();
  if (!c.backward) return;

  fill_dout();
  if (r_.dtype == DType::Float32) {
    ops.dout = dout_.view();
  } else {
    dout32 = dout_.to_float32();
    ops.dout = dout32.view();
  }
  ops.dq = HostTensor(DType::Float32, {c.batch, c.seqlen_q, c.num_heads, c.head_dim});
  ops.dk = HostTensor(DType::Float32, {c.batch, c.sk(), c.heads_kv(), c.head_dim});
  ops.dv = HostTensor(DType::Float32, {c.batch, c.sk(), c.heads_kv(), c.dv()});
  const BackwardArgs ba = ops.backward_args(options_);
  const Problem pb = make_problem(ba, Backend::Cpu);
  reset_pass_memory();
  r_.naive.bwd = time_pass(
      progress_, "naive backward", c, r_.bwd_flops,
      [&] {
        ops.dq.poison();
        ops.dk.poison();
        ops.dv.poison();
      },
      [&] { naive_backward(pb, plan); });
  r_.naive.bwd.scratch_bytes = plan.score_bytes + plan.other_bytes;
  r_.naive.bwd.peak_rss_bytes = peak_rss_bytes();
  if (full_grad_check_) reference_backward(ba);
  check_gradients("naive", pb, ops.dq, ops.dk, ops.dv, tol);
}

int Bench::run() {
  setup();
  allocate_and_validate();
  if (r_.flash.requested) run_flash();
  if (r_.naive.requested) run_naive();

  if (cfg_.backward && !full_grad_check_)
    r_.notes.push_back("gradients checked only for dq on " + std::to_string(rows_.size()) + " sampled rows" +
                       (cfg_.grad_check == GradCheck::Auto
                            ? " (batch*heads*seqlen_q*seqlen_k*head_dim > 2e9 is too large for the full double reference)"
                            : "") +
                       "; dk and dv only for coverage (every element written and finite)");
  if (r_.dtype != DType::Float32)
    r_.notes.push_back(std::string(dtype_name(r_.dtype)) +
                       ": fixed tolerance; sampled rows have no low-precision naive yardstick");
  if (cfg_.json) print_json(r_, std::cout);
  else print_text(r_, std::cout);
  std::cout.flush();
  return r_.ok() ? 0 : 3;
}

}  // namespace

int run_bench(const BenchConfig& config) { return Bench(config).run(); }

}  // namespace flashattn::cli
