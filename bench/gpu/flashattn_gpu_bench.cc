// Times flashattn's CUDA forward and backward on given shapes and prints one JSON record per
// line (bench/gpu_bench.py merges them with the peers'). CUDA events around each call, warm-up
// first, the median of --iters runs, the calls queued behind a gate so that the events time the
// GPU's work alone (median_ms; bench/gpu_bench.py times the peers the same way). Inputs are random
// (never zeros).
//   flashattn_gpu_bench --shapes "hdim,seqlen,causal[,seqlen_k,group,batch];..." [--tokens 16384] [--model-dim 2048]
// (the optional fields: key length and query heads per KV head, e.g. decoding "128,1,0,8192,8,64";
// batch defaults to tokens / seqlen; FLOPs count the visible query-key pairs, s^2 / 2 if causal
// and square as shared/ANCHORS.md does)
//                       [--iters 30] [--warmup 5] [--pass fwd|bwd|both] [--dtype bf16|fp16]
//                       [--deterministic 0|1] [--dropout P] [--softcap C] [--alibi 0|1] [--window L,R]
// (--window L,R: a sliding window, -1 an open side, with the shape's causal flag; FLOPs count the
// pairs it leaves visible)
// (--alibi 1: slopes 2^(-8 (h + 1) / heads), one per query head)
// (options other than the defaults name the records' impl "flashattn+deterministic",
// "flashattn+dropout0.1", "flashattn+softcap30", "flashattn+alibi", ..., so that they never mix with the plain runs)
//                       [--sustain S]
// (--sustain S: after the median, the call back to back for about S seconds, the GPU's energy
// counter (NVML, loaded at run time) read before and after: the records gain "sustained_ms" (the
// mean a call over that stretch, which the power cap's clocks decide on long runs: session 58
// found the 16k cells' rounds bimodal by it), "joules" a call and "watts"; bench/gpu/energy.py)
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/stream_gate.h"
#include "flashattn/flashattn.h"

using namespace flashattn;

namespace {

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Random values without a host pass over every element (a 16k x 2048 tensor is 33M values): one
// block of 1M + 7 random values is drawn, and each 1M chunk of the tensor is copied from it at a
// different offset, so no two chunks (and no two tensors) repeat each other's pattern.
__attribute__((noinline)) void fill_random(void* dev, size_t elems, uint32_t seed) {
  constexpr size_t kChunk = size_t(1) << 20, kPool = kChunk + 7919;
  std::vector<uint16_t> h(kPool);
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  for (auto& x : h) {  // bf16 and fp16 both get a small normal-ish value from the top bits of a float
    float f = nd(rng);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    x = uint16_t(u >> 16);
  }
  for (size_t i = 0, c = 0; i < elems; i += kChunk, ++c) {
    const size_t n = std::min(kChunk, elems - i), off = (c * 7901 + seed * 131) % (kPool - kChunk + 1);
    ok(cudaMemcpy(static_cast<uint16_t*>(dev) + i, h.data() + off, n * 2, cudaMemcpyHostToDevice), "upload");
  }
}

// Median GPU time of f in ms: events around each call, every call queued behind the gate before
// the GPU starts them, so each event pair brackets the GPU's work alone, back to back (with a
// synchronization after each call, event a would also count the host's launch path).
template <typename F>
double median_ms(F&& f, int warmup, int iters, cudaStream_t s) {
  for (int i = 0; i < warmup; ++i) f();
  ok(cudaStreamSynchronize(s), "sync");
  std::vector<cudaEvent_t> ev(2 * size_t(iters));
  for (auto& e : ev) ok(cudaEventCreate(&e), "event");
  StreamGate gate;  // (common/stream_gate.h)
  ok(gate.close(s), "gate");
  for (int i = 0; i < iters; ++i) {
    ok(cudaEventRecord(ev[2 * i], s), "record");
    f();
    ok(cudaEventRecord(ev[2 * i + 1], s), "record");
  }
  gate.release();
  ok(cudaStreamSynchronize(s), "sync");
  if (gate.timed_out()) std::fprintf(stderr, "warning: the timing gate timed out (a call synchronized the stream?)\n");
  std::vector<float> t(static_cast<size_t>(iters));
  for (int i = 0; i < iters; ++i) ok(cudaEventElapsedTime(&t[i], ev[2 * i], ev[2 * i + 1]), "elapsed");
  for (auto& e : ev) cudaEventDestroy(e);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The GPU's energy counter in millijoules through NVML, loaded at run time (no link dependency;
// bench/gpu/energy.py reads the same counter for the peers). Unavailable: read() returns -1.
class EnergyCounter {
 public:
  EnergyCounter() {
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (lib_ == nullptr) return;
    using Init = int (*)();
    using ByBus = int (*)(const char*, void**);
    auto init = reinterpret_cast<Init>(dlsym(lib_, "nvmlInit_v2"));
    auto by_bus = reinterpret_cast<ByBus>(dlsym(lib_, "nvmlDeviceGetHandleByPciBusId_v2"));
    get_ = reinterpret_cast<Get>(dlsym(lib_, "nvmlDeviceGetTotalEnergyConsumption"));
    int dev = 0;
    char bus[32] = {0};
    if (init == nullptr || by_bus == nullptr || get_ == nullptr || init() != 0 || cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) != cudaSuccess || by_bus(bus, &device_) != 0)
      get_ = nullptr;
  }
  double read_mj() const {
    unsigned long long mj = 0;
    return get_ != nullptr && get_(device_, &mj) == 0 ? double(mj) : -1.0;
  }

 private:
  using Get = int (*)(void*, unsigned long long*);
  void* lib_ = nullptr;
  void* device_ = nullptr;
  Get get_ = nullptr;
};

// f back to back for about `seconds` (batches of calls sized from ms_each, synchronized between
// batches): the mean ms a call and the energy a call in joules (-1 without NVML).
template <typename F>
void sustain(F&& f, double seconds, double ms_each, cudaStream_t s, const EnergyCounter& energy, double* ms,
             double* joules) {
  const int batch = std::max(1, int(200.0 / std::max(ms_each, 1e-3)));  // ~0.2 s a batch
  const int batches = std::max(1, int(seconds * 1000.0 / (batch * std::max(ms_each, 1e-3)) + 0.5));
  cudaEvent_t a, b;
  ok(cudaEventCreate(&a), "event");
  ok(cudaEventCreate(&b), "event");
  ok(cudaStreamSynchronize(s), "sync");
  const double e0 = energy.read_mj();
  ok(cudaEventRecord(a, s), "record");
  for (int k = 0; k < batches; ++k) {
    for (int i = 0; i < batch; ++i) f();
    if (k + 1 < batches) ok(cudaStreamSynchronize(s), "sync");  // (the host stays at most a batch ahead)
  }
  ok(cudaEventRecord(b, s), "record");
  ok(cudaEventSynchronize(b), "sync");
  const double e1 = energy.read_mj();
  float total = 0.0f;
  ok(cudaEventElapsedTime(&total, a, b), "elapsed");
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  const int calls = batch * batches;
  *ms = double(total) / calls;
  *joules = e0 >= 0.0 && e1 >= e0 ? (e1 - e0) * 1e-3 / calls : -1.0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shapes = "128,8192,0", pass = "both", dtype = "bf16";
  int tokens = 16384, model_dim = 2048, iters = 30, warmup = 5, deterministic = 0, alibi = 0;
  int window_left = -1, window_right = -1;
  float dropout = 0.0f, softcap = 0.0f;
  double sustain_s = 0.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--shapes") shapes = v;
    else if (k == "--tokens") tokens = std::atoi(v.c_str());
    else if (k == "--model-dim") model_dim = std::atoi(v.c_str());
    else if (k == "--iters") iters = std::atoi(v.c_str());
    else if (k == "--warmup") warmup = std::atoi(v.c_str());
    else if (k == "--pass") pass = v;
    else if (k == "--dtype") dtype = v;
    else if (k == "--deterministic") deterministic = std::atoi(v.c_str());
    else if (k == "--dropout") dropout = float(std::atof(v.c_str()));
    else if (k == "--softcap") softcap = float(std::atof(v.c_str()));
    else if (k == "--alibi") alibi = std::atoi(v.c_str());
    else if (k == "--window") {
      if (std::sscanf(v.c_str(), "%d,%d", &window_left, &window_right) != 2) {
        std::fprintf(stderr, "--window wants L,R (-1: an open side), got %s\n", v.c_str());
        return 2;
      }
    }
    else if (k == "--sustain") sustain_s = std::atof(v.c_str());
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (!backend_available(Backend::Cuda)) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  const DType dt = dtype == "fp16" ? DType::Float16 : DType::BFloat16;
  std::string impl = "flashattn";
  if (deterministic) impl += "+deterministic";
  if (dropout > 0.0f) impl += "+dropout" + std::to_string(dropout).substr(0, 4);
  if (softcap > 0.0f) impl += "+softcap" + std::to_string(int(softcap));
  if (alibi) impl += "+alibi";
  if (window_left >= 0 || window_right >= 0)
    impl += "+window" + std::to_string(window_left) + "_" + std::to_string(window_right);
  cudaStream_t stream;
  ok(cudaStreamCreate(&stream), "stream");
  const EnergyCounter energy;
  std::stringstream ss(shapes);
  std::string item;
  while (std::getline(ss, item, ';')) {
    int d = 0, seqlen = 0, causal = 0, seqlen_k = 0, group = 1, batch = 0;
    const int fields = std::sscanf(item.c_str(), "%d,%d,%d,%d,%d,%d", &d, &seqlen, &causal, &seqlen_k, &group, &batch);
    if (fields < 3) continue;
    if (fields < 4) seqlen_k = seqlen;
    const int heads = model_dim / d, heads_kv = std::max(1, heads / std::max(1, group));
    if (batch <= 0) batch = std::max(1, tokens / seqlen);
    const size_t n = size_t(batch) * seqlen * heads * d, nk = size_t(batch) * seqlen_k * heads_kv * d;
    void *q, *k, *v, *o, *dout, *dq, *dk, *dv, *lse;
    for (void** p : {&q, &o, &dout, &dq}) ok(cudaMalloc(p, n * 2), "cudaMalloc");
    for (void** p : {&k, &v, &dk, &dv}) ok(cudaMalloc(p, nk * 2), "cudaMalloc");
    ok(cudaMalloc(&lse, size_t(batch) * heads * seqlen * 4), "cudaMalloc");
    void* slopes = nullptr;
    if (alibi) {
      std::vector<float> h(heads);
      for (int i = 0; i < heads; ++i) h[i] = std::exp2(-8.0f * float(i + 1) / float(heads));
      ok(cudaMalloc(&slopes, heads * 4), "cudaMalloc");
      ok(cudaMemcpy(slopes, h.data(), heads * 4, cudaMemcpyHostToDevice), "cudaMemcpy(slopes)");
    }
    fill_random(q, n, 1);
    fill_random(k, nk, 2);
    fill_random(v, nk, 3);
    fill_random(dout, n, 4);
    auto view = [&](void* p) { return TensorView::contiguous(p, dt, {batch, seqlen, heads, d}); };
    auto view_kv = [&](void* p) { return TensorView::contiguous(p, dt, {batch, seqlen_k, heads_kv, d}); };
    ForwardArgs fa;
    fa.q = view(q);
    fa.k = view_kv(k);
    fa.v = view_kv(v);
    fa.out = view(o);
    fa.softmax_lse = TensorView::contiguous(lse, DType::Float32, {batch, heads, seqlen});
    fa.options.causal = causal != 0;
    fa.options.deterministic = deterministic != 0;
    fa.options.dropout_p = dropout;
    fa.options.softcap = softcap;
    fa.options.window_left = window_left;
    fa.options.window_right = window_right;
    if (alibi) fa.options.alibi_slopes = TensorView::contiguous(slopes, DType::Float32, {heads});
    Context ctx;
    ctx.backend = Backend::Cuda;
    ctx.cuda_stream = stream;
    // Visible (query, key) pairs: all, or under the bottom-right causal mask (s^2 / 2 when square).
    double pairs = double(seqlen) * seqlen_k;
    if (causal && seqlen == seqlen_k) {
      pairs /= 2.0;
    } else if (causal) {
      pairs = 0;
      for (int i = 0; i < seqlen; ++i) pairs += std::max(0, std::min(seqlen_k, i + seqlen_k - seqlen + 1));
    }
    if (window_left >= 0 || window_right >= 0) {  // key j visible to query i: the library's mask
      const int right = causal ? 0 : window_right;
      pairs = 0;
      for (int i = 0; i < seqlen; ++i) {
        const int64_t diag = int64_t(i) + seqlen_k - seqlen;
        const int64_t lo = window_left >= 0 ? std::max<int64_t>(0, diag - window_left) : 0;
        const int64_t hi = right >= 0 ? std::min<int64_t>(seqlen_k, diag + right + 1) : seqlen_k;
        pairs += double(std::max<int64_t>(0, hi - lo));
      }
    }
    const double flops_fwd = 4.0 * batch * pairs * heads * d;
    // "path": the kernel family the selector ran (cuda-sm80, cuda-sm90), from RunInfo.
    auto record = [&](const char* p, const std::string& path, double ms, double flops, auto&& call) {
      std::string extra;
      if (sustain_s > 0.0) {
        double sms = 0.0, joules = -1.0;
        sustain(call, sustain_s, ms, stream, energy, &sms, &joules);
        char buf[160];
        std::snprintf(buf, sizeof(buf), ", \"sustained_ms\": %.5f, \"sustained_tflops\": %.2f, \"joules\": %.5f, \"watts\": %.1f",
                      sms, flops / (sms * 1e-3) / 1e12, joules, joules > 0.0 ? joules / (sms * 1e-3) : -1.0);
        extra = buf;
      }
      std::printf(
          "{\"impl\": \"%s\", \"pass\": \"%s\", \"path\": \"%s\", \"dtype\": \"%s\", \"head_dim\": %d, "
          "\"seqlen_q\": %d, \"seqlen_k\": %d, \"batch\": %d, \"heads\": %d, \"heads_kv\": %d, \"causal\": %s, "
          "\"ms\": %.5f, \"tflops\": %.2f%s}\n",
          impl.c_str(), p, path.c_str(), dt == DType::BFloat16 ? "bf16" : "fp16", d, seqlen, seqlen_k, batch, heads, heads_kv,
          causal ? "true" : "false", ms, flops / (ms * 1e-3) / 1e12, extra.c_str());
      std::fflush(stdout);
    };
    try {
      const std::string fwd_path = forward(fa, ctx).path;
      auto fwd_call = [&] { forward(fa, ctx); };
      const double fwd_ms = median_ms(fwd_call, warmup, iters, stream);
      if (pass != "bwd") record("fwd", fwd_path, fwd_ms, flops_fwd, fwd_call);
      if (pass != "fwd") {
        BackwardArgs ba;
        ba.q = fa.q;
        ba.k = fa.k;
        ba.v = fa.v;
        ba.out = fa.out;
        ba.softmax_lse = fa.softmax_lse;
        ba.options = fa.options;
        ba.dout = view(dout);
        ba.dq = view(dq);
        ba.dk = view_kv(dk);
        ba.dv = view_kv(dv);
        const std::string bwd_path = backward(ba, ctx).path;
        auto bwd_call = [&] { backward(ba, ctx); };
        const double bwd_ms = median_ms(bwd_call, warmup, iters, stream);
        record("bwd", bwd_path, bwd_ms, 2.5 * flops_fwd, bwd_call);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "shape %s failed: %s\n", item.c_str(), e.what());
    }
    for (void* p : {q, k, v, o, dout, dq, dk, dv, lse, slopes}) cudaFree(p);
  }
  cudaStreamDestroy(stream);
  return 0;
}
