// Times tile-shape variants of the sm80 kernels side by side (bf16, standard shapes of
// ANCHORS.md at one seqlen) and checks each against the tier's default variant (the first of its
// head_dim): max |difference| of out (forward) or dq, dk, dv (backward). Prints one line per
// variant; bench/NOTES.md records the choices made from it. Built with FLASHATTN_CUDA_TUNING=ON.
//   flashattn_tune_sm80 [seqlen=8192] [causal=0]
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cuda/backend.h"
#include "cuda/sm80/host.h"
#include "dispatch/problem.h"
#include "tune_common.cuh"

#include "tune_entries.inc"  // generated: kTuneEntries[]

using namespace flashattn;

namespace {

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct Dev {
  void* p = nullptr;
  size_t n = 0;
  explicit Dev(size_t elems, uint32_t seed) : n(elems) {
    ok(cudaMalloc(&p, n * 2), "cudaMalloc");
    std::vector<__nv_bfloat16> h(n);
    uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
    for (auto& e : h) {  // xorshift: uniform in [-2, 2), fast enough for 10^8 elements
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      e = __float2bfloat16(float(x >> 40) * (4.0f / 16777216.0f) - 2.0f);
    }
    ok(cudaMemcpy(p, h.data(), n * 2, cudaMemcpyHostToDevice), "upload");
  }
  ~Dev() { cudaFree(p); }
  std::vector<float> get() const {
    std::vector<__nv_bfloat16> h(n);
    ok(cudaMemcpy(h.data(), p, n * 2, cudaMemcpyDeviceToHost), "download");
    std::vector<float> f(n);
    for (size_t i = 0; i < n; ++i) f[i] = __bfloat162float(h[i]);
    return f;
  }
};

double max_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(double(a[i]) - b[i]);
    if (!(d <= m)) m = d;  // NaN sticks
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const int seqlen = argc > 1 ? std::atoi(argv[1]) : 8192;
  const bool causal = argc > 2 && std::atoi(argv[2]) != 0;
  if (!cuda::device_present()) {
    std::printf("no CUDA device\n");
    return 0;
  }
  cudaStream_t stream;
  ok(cudaStreamCreate(&stream), "stream");
  int last_d = -1;
  bool last_bwd = false;
  std::vector<std::vector<float>> base;
  for (const TuneEntry& e : kTuneEntries) {
    const int d = e.head_dim, heads = 2048 / d, batch = std::max(1, 16384 / seqlen);
    const size_t n = size_t(batch) * seqlen * heads * d;
    Dev q(n, 1), k(n, 2), v(n, 3), o(n, 4), dout(n, 5), dq(n, 6), dk(n, 7), dv(n, 8);
    float* lse;
    ok(cudaMalloc(&lse, size_t(batch) * heads * seqlen * 4), "cudaMalloc");
    auto view = [&](void* p) { return TensorView::contiguous(p, DType::BFloat16, {batch, seqlen, heads, d}); };
    BackwardArgs a;
    a.q = view(q.p);
    a.k = view(k.p);
    a.v = view(v.p);
    a.out = view(o.p);
    a.dout = view(dout.p);
    a.dq = view(dq.p);
    a.dk = view(dk.p);
    a.dv = view(dv.p);
    a.softmax_lse = TensorView::contiguous(lse, DType::Float32, {batch, heads, seqlen});
    a.options.causal = causal;
    const Problem p = make_problem(a, Backend::Cuda, stream);
    Context ctx;
    ctx.backend = Backend::Cuda;
    ctx.cuda_stream = stream;
    cuda::sm80::FwdParams f = cuda::sm80::make_fwd_params(p);
    // The forward of the default variant provides out and lse for the backward variants.
    int count = 0;
    const cuda::KernelEntry* table = cuda::sm80_kernels(&count);
    const cuda::KernelEntry* fwd_default = nullptr;
    for (int i = 0; i < count; ++i)
      if (table[i].direction == cuda::Direction::Forward && table[i].dtype == DType::BFloat16 &&
          table[i].head_dim == d && table[i].head_dim_v == d)
        fwd_default = &table[i];
    if (fwd_default == nullptr) {
      std::printf("%-28s skipped: tier %d not built\n", e.name, d);
      continue;
    }
    fwd_default->launch(&f, stream);
    cuda::KernelEntry bwd_entry{cuda::Direction::Backward, DType::BFloat16, d, d, size_t(e.smem_bytes), e.launch};
    auto run = [&] {
      if (e.backward) cuda::sm80_backward(p, bwd_entry, ctx);
      else e.launch(&f, stream);
    };
    for (int i = 0; i < 3; ++i) run();
    ok(cudaStreamSynchronize(stream), "warm-up");
    std::vector<float> times;
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    for (int i = 0; i < 20; ++i) {
      cudaEventRecord(t0, stream);
      run();
      cudaEventRecord(t1, stream);
      ok(cudaEventSynchronize(t1), "timing");
      float ms;
      cudaEventElapsedTime(&ms, t0, t1);
      times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    const double ms = times[times.size() / 2];
    const double flops = 4.0 * batch * double(seqlen) * seqlen * heads * d / (causal ? 2 : 1) * (e.backward ? 2.5 : 1.0);
    std::vector<std::vector<float>> res;
    if (e.backward) res = {dq.get(), dk.get(), dv.get()};
    else res = {o.get()};
    if (d != last_d || e.backward != last_bwd) base = res;
    double diff = 0;
    for (size_t i = 0; i < res.size(); ++i) diff = std::max(diff, max_diff(res[i], base[i]));
    last_d = d;
    last_bwd = e.backward;
    std::printf("%-28s seqlen %5d causal %d  %8.3f ms  %6.1f TFLOP/s  smem %6d  max|diff vs first| %.3g\n", e.name,
                seqlen, int(causal), ms, flops / (ms * 1e-3) / 1e12, e.smem_bytes, diff);
    std::fflush(stdout);
    cudaFree(lse);
  }
  return 0;
}
