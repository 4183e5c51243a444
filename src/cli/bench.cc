// `flashattn bench`: random inputs, timed forward/backward of flashattn and of the naive
// materialized baseline, their memory (library scratch, process peak RSS), and checks against the
// double reference. Outputs are poisoned (NaN) before every run, outside the timed region.
// Tensors live on the host; on CUDA the library works on device mirrors (cli/device.h) and the
// checks read the host copies downloaded after the last run.
#include "cli/bench.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>

#include "cli/device.h"
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

PassResult time_pass(Progress& progress, Device& device, const std::string& label, const BenchConfig& cfg,
                     double flops, const std::function<void()>& prepare, const std::function<void()>& run) {
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
    const double seconds = device.time(run);
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

// The tensors of one call, by view: host tensors, or their device mirrors on CUDA.
struct Views {
  TensorView q, k, v, out, lse, dout, dq, dk, dv;

  ForwardArgs forward_args(const Options& o) const {
    ForwardArgs a;
    a.q = q;
    a.k = k;
    a.v = v;
    a.out = out;
    a.softmax_lse = lse;
    a.options = o;
    return a;
  }
  BackwardArgs backward_args(const Options& o) const {
    BackwardArgs a;
    a.q = q;
    a.k = k;
    a.v = v;
    a.out = out;
    a.dout = dout;
    a.softmax_lse = lse;
    a.dq = dq;
    a.dk = dk;
    a.dv = dv;
    a.options = o;
    return a;
  }
};

// One implementation's tensors on the host: inputs q, k, v, dout, outputs out, lse, dq, dk, dv.
struct Tensors {
  HostTensor q, k, v, out, lse, dout, dq, dk, dv;

  Views views() const {
    return {q.view(), k.view(), v.view(), out.view(), lse.view(), dout.view(), dq.view(), dk.view(), dv.view()};
  }
};

// Their mirrors, which the library reads and writes (the host tensors themselves on the CPU).
struct Mirrors {
  Device::Mirror q, k, v, out, lse, dout, dq, dk, dv;

  Mirrors() = default;
  Mirrors(Device& device, Tensors& t, bool backward)
      : q(device, &t.q), k(device, &t.k), v(device, &t.v), out(device, &t.out), lse(device, &t.lse) {
    if (!backward) return;
    dout = Device::Mirror(device, &t.dout);
    dq = Device::Mirror(device, &t.dq);
    dk = Device::Mirror(device, &t.dk);
    dv = Device::Mirror(device, &t.dv);
  }
  Views views() const {
    return {q.view(), k.view(), v.view(), out.view(), lse.view(), dout.view(), dq.view(), dk.view(), dv.view()};
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
  void check_forward(const std::string& impl, const Problem& p, const Tensors& t, double tol, double lse_tol);
  void check_gradients(const std::string& impl, const Problem& p, const Tensors& t, double tol);
  void reset_pass_memory(Device& device);

  const BenchConfig& cfg_;
  BenchResult r_;
  Progress progress_;
  std::unique_ptr<Device> device_;
  Device cpu_{Backend::Cpu};  // the naive run's
  Options host_options_, run_options_;  // ALiBi slopes on the host / where the library reads them
  Context context_;
  bool full_grad_check_ = false;
  std::vector<RowSample> rows_;
  Tensors flash_;  // allocated early: untouched pages cost no memory
  Mirrors mirrors_;
  HostTensor slopes_;
  Device::Mirror slopes_mirror_;
  bool inputs_filled_ = false;
  bool dout_filled_ = false;
  std::optional<reference::BackwardResult> ref_grads_;
};

void Bench::setup() {
  const BenchConfig& c = cfg_;
  r_.config = c;
  r_.backend = c.device == Backend::Auto ? default_backend() : c.device;
  if (!backend_available(r_.backend))
    throw Error("--device", std::string(backend_name(r_.backend)) + " is not built or has no device here");
  device_ = std::make_unique<Device>(r_.backend);
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
  const bool naive = c.impl != Impl::Flash && r_.backend == Backend::Cpu;
  const double host_needed = io * (naive && r_.dtype != DType::Float32 ? 3.0 : 1.0);
  const std::size_t available = mem_available_bytes();
  if (available > 0 && host_needed > double(available))
    throw std::runtime_error("inputs and outputs need " + format_bytes(host_needed) + " but only " +
                             format_bytes(double(available)) + " of memory are available");
  const std::size_t device_free = device_->free_memory();
  if (r_.backend == Backend::Cuda && io > double(device_free))
    throw std::runtime_error("inputs and outputs need " + format_bytes(io) + " of device memory but only " +
                             format_bytes(double(device_free)) + " are free");

  host_options_.causal = c.causal;
  host_options_.window_left = c.window_left;
  host_options_.window_right = c.window_right;
  host_options_.softcap = c.softcap;
  host_options_.dropout_p = c.dropout;
  host_options_.seed = c.seed;
  run_options_ = host_options_;
  if (c.alibi) {
    slopes_ = alibi_slopes(c.num_heads);
    slopes_mirror_ = Device::Mirror(*device_, &slopes_);
    slopes_mirror_.upload();
    host_options_.alibi_slopes = slopes_.view();
    run_options_.alibi_slopes = slopes_mirror_.view();
  }
  context_ = device_->context(c.threads);
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
  Tensors& t = flash_;
  t.q = HostTensor(r_.dtype, {c.batch, c.seqlen_q, c.num_heads, c.head_dim});
  t.k = HostTensor(r_.dtype, {c.batch, c.sk(), c.heads_kv(), c.head_dim});
  t.v = HostTensor(r_.dtype, {c.batch, c.sk(), c.heads_kv(), c.dv()});
  t.out = HostTensor(r_.dtype, {c.batch, c.seqlen_q, c.num_heads, c.dv()});
  t.lse = HostTensor(DType::Float32, {c.batch, c.num_heads, c.seqlen_q});
  if (c.backward) {
    t.dout = HostTensor(r_.dtype, {c.batch, c.seqlen_q, c.num_heads, c.dv()});
    t.dq = HostTensor(r_.dtype, {c.batch, c.seqlen_q, c.num_heads, c.head_dim});
    t.dk = HostTensor(r_.dtype, {c.batch, c.sk(), c.heads_kv(), c.head_dim});
    t.dv = HostTensor(r_.dtype, {c.batch, c.sk(), c.heads_kv(), c.dv()});
  }
  mirrors_ = Mirrors(*device_, t, c.backward);
  validate(mirrors_.views().forward_args(run_options_), context_);
  if (c.backward) validate(mirrors_.views().backward_args(run_options_), context_);
}

void Bench::fill_inputs() {
  if (inputs_filled_) return;
  progress_.phase("generating inputs");
  flash_.q.fill_normal(cfg_.seed, 1);
  flash_.k.fill_normal(cfg_.seed, 2);
  flash_.v.fill_normal(cfg_.seed, 3);
  if (r_.flash.requested) {
    mirrors_.q.upload();
    mirrors_.k.upload();
    mirrors_.v.upload();
  }
  progress_.clear();
  inputs_filled_ = true;
}

void Bench::fill_dout() {
  if (dout_filled_) return;
  flash_.dout.fill_normal(cfg_.seed, 4);
  if (r_.flash.requested) mirrors_.dout.upload();
  dout_filled_ = true;
}

void Bench::reset_pass_memory(Device& device) {
  device.reset_scratch_peak();
  r_.rss_reset = reset_peak_rss();
}

void Bench::check_forward(const std::string& impl, const Problem& p, const Tensors& t, double tol, double lse_tol) {
  progress_.phase("checking " + impl + " forward");
  r_.coverages.push_back(coverage(impl, "out", t.out));
  r_.coverages.push_back(coverage(impl, "lse", t.lse, /*allow_neg_inf=*/true));
  const std::string scope = std::to_string(rows_.size()) + " sampled rows";
  Comparison out = comparison(impl, "out", scope, tol);
  Comparison lse = comparison(impl, "lse", scope, lse_tol);
  compare_forward_rows(p, rows_, &out, &lse);
  r_.comparisons.push_back(out);
  r_.comparisons.push_back(lse);
  progress_.clear();
}

void Bench::check_gradients(const std::string& impl, const Problem& p, const Tensors& t, double tol) {
  r_.coverages.push_back(coverage(impl, "dq", t.dq));
  r_.coverages.push_back(coverage(impl, "dk", t.dk));
  r_.coverages.push_back(coverage(impl, "dv", t.dv));
  if (!full_grad_check_) {
    progress_.phase("checking " + impl + " dq rows");
    Comparison c = comparison(impl, "dq", std::to_string(rows_.size()) + " sampled rows", tol);
    compare_dq_rows(p, rows_, &c);
    r_.comparisons.push_back(c);
    progress_.clear();
    return;
  }
  if (!ref_grads_) {
    // The naive run reads float32 copies of the same values, so one reference serves both.
    progress_.phase("reference backward (double)");
    ref_grads_ = reference::backward(t.views().backward_args(host_options_));
    progress_.clear();
  }
  const HostTensor* ours[] = {&t.dq, &t.dk, &t.dv};
  const std::vector<double>* want[] = {&ref_grads_->dq, &ref_grads_->dk, &ref_grads_->dv};
  const char* names[] = {"dq", "dk", "dv"};
  for (int i = 0; i < 3; ++i) {
    Comparison c = comparison(impl, names[i], "all elements", tol);
    compare_dense(*ours[i], *want[i], &c);
    r_.comparisons.push_back(c);
  }
}

void Bench::run_flash() {
  const BenchConfig& c = cfg_;
  fill_inputs();
  const Views run = mirrors_.views();
  const ForwardArgs fa = run.forward_args(run_options_);
  const Problem p = make_problem(flash_.views().forward_args(host_options_), Backend::Cpu);
  if (rows_.empty()) rows_ = sample_rows(p, kSampledRows, c.seed);

  RunInfo info;
  reset_pass_memory(*device_);
  r_.flash.fwd = time_pass(
      progress_, *device_, "flashattn forward", c, r_.fwd_flops,
      [&] {
        mirrors_.out.poison();
        mirrors_.lse.poison();
      },
      [&] { info = forward(fa, context_); });
  r_.flash.fwd.scratch_bytes = device_->scratch_peak();
  r_.flash.fwd.peak_rss_bytes = peak_rss_bytes();
  r_.flash.backend = backend_name(info.backend);
  r_.flash.path = info.path;
  r_.flash.threads = r_.threads;
  mirrors_.out.download();
  mirrors_.lse.download();
  check_forward("flashattn", p, flash_, tolerance(r_.dtype), tolerance(DType::Float32));
  if (!c.backward) return;

  fill_dout();
  const BackwardArgs ba = run.backward_args(run_options_);
  reset_pass_memory(*device_);
  r_.flash.bwd = time_pass(
      progress_, *device_, "flashattn backward", c, r_.bwd_flops,
      [&] {
        mirrors_.dq.poison();
        mirrors_.dk.poison();
        mirrors_.dv.poison();
      },
      [&] { backward(ba, context_); });
  r_.flash.bwd.scratch_bytes = device_->scratch_peak();
  r_.flash.bwd.peak_rss_bytes = peak_rss_bytes();
  mirrors_.dq.download();
  mirrors_.dk.download();
  mirrors_.dv.download();
  check_gradients("flashattn", make_problem(flash_.views().backward_args(host_options_), Backend::Cpu), flash_,
                  tolerance(r_.dtype));
}

void Bench::run_naive() {
  const BenchConfig& c = cfg_;
  if (r_.backend != Backend::Cpu) {
    r_.naive.skipped = "the naive baseline runs on the CPU only (--device cpu)";
    return;
  }
  const Problem shape = make_problem(flash_.views().forward_args(host_options_), Backend::Cpu);
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

  // float32 copies of the inputs (the same values: 16-bit to float32 is exact), float32 outputs.
  fill_inputs();
  Tensors t;
  const bool copy = r_.dtype != DType::Float32;
  Views views;
  if (copy) {
    t.q = flash_.q.to_float32();
    t.k = flash_.k.to_float32();
    t.v = flash_.v.to_float32();
  }
  t.out = HostTensor(DType::Float32, {c.batch, c.seqlen_q, c.num_heads, c.dv()});
  t.lse = HostTensor(DType::Float32, {c.batch, c.num_heads, c.seqlen_q});
  views.q = copy ? t.q.view() : flash_.q.view();
  views.k = copy ? t.k.view() : flash_.k.view();
  views.v = copy ? t.v.view() : flash_.v.view();
  views.out = t.out.view();
  views.lse = t.lse.view();
  const Problem p = make_problem(views.forward_args(host_options_), Backend::Cpu);
  if (rows_.empty()) rows_ = sample_rows(p, kSampledRows, c.seed);

  reset_pass_memory(cpu_);
  r_.naive.fwd = time_pass(
      progress_, cpu_, "naive forward", c, r_.fwd_flops,
      [&] {
        t.out.poison();
        t.lse.poison();
      },
      [&] { naive_forward(p, fwd_plan); });
  r_.naive.fwd.scratch_bytes = fwd_plan.score_bytes + fwd_plan.other_bytes;
  r_.naive.fwd.peak_rss_bytes = peak_rss_bytes();
  // Naive results are float32 from the same input values: the float32 rule.
  const double tol = tolerance(DType::Float32);
  check_forward("naive", p, t, tol, tol);
  if (!c.backward) return;

  fill_dout();
  if (copy) t.dout = flash_.dout.to_float32();
  views.dout = copy ? t.dout.view() : flash_.dout.view();
  t.dq = HostTensor(DType::Float32, {c.batch, c.seqlen_q, c.num_heads, c.head_dim});
  t.dk = HostTensor(DType::Float32, {c.batch, c.sk(), c.heads_kv(), c.head_dim});
  t.dv = HostTensor(DType::Float32, {c.batch, c.sk(), c.heads_kv(), c.dv()});
  views.dq = t.dq.view();
  views.dk = t.dk.view();
  views.dv = t.dv.view();
  const Problem pb = make_problem(views.backward_args(host_options_), Backend::Cpu);
  reset_pass_memory(cpu_);
  r_.naive.bwd = time_pass(
      progress_, cpu_, "naive backward", c, r_.bwd_flops,
      [&] {
        t.dq.poison();
        t.dk.poison();
        t.dv.poison();
      },
      [&] { naive_backward(pb, plan); });
  r_.naive.bwd.scratch_bytes = plan.score_bytes + plan.other_bytes;
  r_.naive.bwd.peak_rss_bytes = peak_rss_bytes();
  check_gradients("naive", pb, t, tol);
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
  if (r_.dtype != DType::Float32 && r_.flash.requested)
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
