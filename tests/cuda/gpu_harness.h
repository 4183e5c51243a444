// GPU side of the test harness: a Case (tests/cpp/harness.h) mirrored in device memory, guard
// bands included, so that the foundation's checks (tolerance rule, poisoned outputs, untouched
// guards) run unchanged on what the CUDA backend wrote.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <memory>
#include <string>
#include <vector>

#include "harness.h"

namespace flashattn::test {

inline bool gpu_present() { return backend_available(Backend::Cuda); }

#define REQUIRE_GPU()                                                                       \
  do {                                                                                      \
    if (!::flashattn::test::gpu_present())                                                  \
      GTEST_SKIP() << "no CUDA device (or CUDA backend not built): GPU test not run";       \
  } while (0)

inline void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// The environment variables named set to their values (nullptr: unset) for the object's life,
// restored after, also when the scope ends by an exception.
class ScopedEnv {
 public:
  ScopedEnv(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (auto [name, value] : vars) {
      const char* old = std::getenv(name);
      saved_.push_back({name, old != nullptr, old != nullptr ? old : ""});
      if (value != nullptr) setenv(name, value, 1);
      else unsetenv(name);
    }
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->had) setenv(it->name.c_str(), it->value.c_str(), 1);
      else unsetenv(it->name.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  struct Saved {
    std::string name;
    bool had;
    std::string value;
  };
  std::vector<Saved> saved_;
};

// Runs `f` with the environment variable `name` set to `value` (nullptr: unset), restoring it
// afterwards (the kernel paths' knobs are environment variables).
template <typename F>
void with_env(const char* name, const char* value, F&& f) {
  ScopedEnv env({{name, value}});
  f();
}

// True on an sm_90 device (H100/H200) with the sm90 path not turned off; else why not.
inline bool sm90_device(std::string* why) {
  if (!gpu_present()) {
    *why = "no CUDA device (or CUDA backend not built)";
    return false;
  }
  int dev = 0, major = 0, minor = 0;
  cuda_ok(cudaGetDevice(&dev), "cudaGetDevice");
  cuda_ok(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "attribute");
  cuda_ok(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), "attribute");
  if (major * 10 + minor != 90) {
    *why = "the sm90 path needs an sm_90 device (H100/H200); this one is sm_" + std::to_string(major * 10 + minor);
    return false;
  }
  const char* disabled = std::getenv("FLASHATTN_DISABLE_SM90");
  if (disabled != nullptr && disabled[0] == '1') {
    *why = "FLASHATTN_DISABLE_SM90=1 turns the sm90 path off";
    return false;
  }
  return true;
}

// Every option of the shared semantics at one head_dim (bf16, 4 heads, 300 x 517): softcap,
// ALiBi, windows (one that leaves key blocks without queries), MQA, GQA 4:1, dropout (when the
// path takes it), large logits, varlen with empty and short sequences. Seeds are the caller's.
// Their base: bf16, 300 queries over 517 keys, 4 heads, the CUDA backend.
inline Spec option_base(int head_dim) {
  Spec base;
  base.dtype = DType::BFloat16;
  base.head_dim = head_dim;
  base.seqlen_q = 300;
  base.seqlen_k = 517;
  base.heads = 4;
  base.heads_kv = 4;
  base.backend = Backend::Cuda;
  return base;
}
inline std::vector<Spec> option_specs(int head_dim, bool dropout) {
  const Spec base = option_base(head_dim);
  std::vector<Spec> specs;
  Spec s = base;
  s.softcap = 5.0f;
  specs.push_back(s);
  s = base;
  s.alibi = 2;
  s.causal = true;
  specs.push_back(s);
  s = base;
  s.window_left = 100;
  s.window_right = 17;
  specs.push_back(s);
  s = base;
  s.window_left = 30;  // key blocks no query reaches
  s.window_right = 0;
  s.seqlen_q = 64;
  s.seqlen_k = 700;
  specs.push_back(s);
  s = base;
  s.heads_kv = 1;  // MQA
  s.causal = true;
  specs.push_back(s);
  s = base;
  s.heads = 8;
  s.heads_kv = 2;  // GQA 4:1
  specs.push_back(s);
  if (dropout) {
    s = base;
    s.dropout = 0.17f;
    specs.push_back(s);
  }
  s = base;
  s.qk_std = 10.0f;  // large logits
  specs.push_back(s);
  s = base;
  s.batch = 4;
  s.lens_q = {0, 130, 1, 257};
  s.lens_k = {17, 0, 300, 511};
  s.causal = true;
  specs.push_back(s);
  s = base;
  s.batch = 3;
  s.lens_q = {65, 700, 333};
  s.lens_k = {1100, 5, 640};
  specs.push_back(s);
  return specs;
}

// Softcap alone's problems (the sm90 kernels with softcap, kCap: test_sm90.cc Sm90.SoftcapKernel,
// test_sm90_bwd.cc Sm90Bwd.SoftcapKernel): masks, GQA (short queries: packed by the forward),
// varlen, a negative and a zero scale, caps from 0.5 to 2^100 (the largest validation takes),
// large logits (tanh saturates).
inline std::vector<Spec> softcap_specs(int d) {
  Spec base = option_base(d);
  base.softcap = 30.0f;
  std::vector<Spec> v;
  Spec s = base;
  v.push_back(s);
  s.dtype = DType::Float16;
  s.causal = true;  // bottom-right: rows before the first key see none
  s.seqlen_q = 600;
  v.push_back(s);
  s = base;
  s.window_left = 100;
  s.window_right = 17;
  s.softcap = 0.5f;  // a cap below the scores: the tanh saturates
  v.push_back(s);
  s = base;
  s.heads = 8;
  s.heads_kv = 2;  // GQA 4:1, short queries: packed
  s.seqlen_q = 7;
  s.seqlen_k = 900;
  v.push_back(s);
  s = base;
  s.softmax_scale = -0.2f;  // negative: the max over tanh values still orders the scores
  s.qk_std = 4.0f;
  v.push_back(s);
  s = base;
  s.softmax_scale = 0.0f;  // every score 0: uniform weights
  v.push_back(s);
  s = base;
  s.softcap = 0x1p100f;  // the largest cap validation takes: scale / softcap ~2^-103
  s.dtype = DType::Float16;
  v.push_back(s);
  s = base;
  s.qk_std = 10.0f;  // large logits
  v.push_back(s);
  s = base;
  s.batch = 4;
  s.lens_q = {0, 130, 1, 257};
  s.lens_k = {5, 0, 300, 517};
  s.causal = true;
  v.push_back(s);
  return v;
}

// ALiBi alone's problems (the sm90 kernels with ALiBi, kAlibi: test_sm90.cc Sm90.AlibiKernel,
// test_sm90_bwd.cc Sm90Bwd.AlibiKernel): (heads) and (batch, heads) slopes, masks (bottom-right
// causal with more queries than keys, windows), GQA with short queries (kAlibi takes no packing),
// decoding, varlen, large logits, a negative scale (the kernel with extras), long rows whose
// far keys' bias is thousands.
inline std::vector<Spec> alibi_specs(int d) {
  Spec base = option_base(d);
  base.alibi = 1;
  std::vector<Spec> v;
  Spec s = base;
  v.push_back(s);
  s.dtype = DType::Float16;
  s.causal = true;  // bottom-right: rows before the first key see none
  s.seqlen_q = 600;
  s.alibi = 2;
  v.push_back(s);
  s = base;
  s.window_left = 100;
  s.window_right = 17;
  v.push_back(s);
  s = base;
  s.heads = 8;
  s.heads_kv = 2;  // GQA 4:1, short queries
  s.seqlen_q = 7;
  s.seqlen_k = 900;
  v.push_back(s);
  s = base;
  s.seqlen_q = 1;  // decoding
  s.seqlen_k = 1000;
  s.causal = true;
  v.push_back(s);
  s = base;
  s.softmax_scale = -0.2f;  // negative: the kernel with extras
  v.push_back(s);
  s = base;
  s.qk_std = 10.0f;  // large logits
  v.push_back(s);
  s = base;
  s.seqlen_q = 1500;
  s.seqlen_k = 3000;  // |i + diag - j| up to ~3000: biases of hundreds to thousands
  s.heads = 2;
  s.heads_kv = 2;
  v.push_back(s);
  s = base;
  s.batch = 4;
  s.lens_q = {0, 130, 1, 257};
  s.lens_k = {5, 0, 300, 517};
  s.causal = true;
  s.alibi = 2;
  v.push_back(s);
  return v;
}

// One case of the sm90 grids (tests/cuda/test_sm90*.cc) and its test name.
struct GridParam {
  DType dtype;
  int head_dim;
  int seqlen_q, seqlen_k;
  bool causal;
};
// Its Spec on the CUDA backend: two heads (MHA), a seed from the case (plus `salt`, so two
// grids over the same cases draw different inputs).
inline Spec grid_spec(const GridParam& g, uint64_t salt = 0) {
  Spec s;
  s.dtype = g.dtype;
  s.head_dim = g.head_dim;
  s.seqlen_q = g.seqlen_q;
  s.seqlen_k = g.seqlen_k;
  s.causal = g.causal;
  s.heads = 2;
  s.heads_kv = 2;
  s.backend = Backend::Cuda;
  s.seed = uint64_t(g.head_dim * 977 + g.seqlen_q * 13 + g.seqlen_k + g.causal) + salt;
  return s;
}
inline std::string grid_name(const testing::TestParamInfo<GridParam>& info) {
  const GridParam& g = info.param;
  return std::string(g.dtype == DType::Float16 ? "fp16" : "bf16") + "_d" + std::to_string(g.head_dim) + "_q" +
         std::to_string(g.seqlen_q) + "_k" + std::to_string(g.seqlen_k) + (g.causal ? "_causal" : "");
}

// A device copy of a HostTensor's whole buffer (guards too); `view` points inside it.
struct DeviceTensor {
  void* base = nullptr;
  size_t bytes = 0;
  TensorView view;
  const HostTensor* host = nullptr;

  DeviceTensor() = default;
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;
  ~DeviceTensor() {
    if (base) cudaFree(base);
  }
  void mirror(const HostTensor& h) {
    host = &h;
    bytes = h.bytes.size();
    if (base) cudaFree(base);
    base = nullptr;
    view = TensorView{};
    if (!h.view.defined()) return;
    cuda_ok(cudaMalloc(&base, bytes), "cudaMalloc");
    upload();
    view = h.view;
    view.data = static_cast<uint8_t*>(base) + (static_cast<const uint8_t*>(h.view.data) - h.bytes.data());
  }
  void upload() { cuda_ok(cudaMemcpy(base, host->bytes.data(), bytes, cudaMemcpyHostToDevice), "upload"); }
  void download(HostTensor& h) const {
    cuda_ok(cudaMemcpy(h.bytes.data(), base, bytes, cudaMemcpyDeviceToHost), "download");
  }
};

struct GpuCase {
  Case& c;
  DeviceTensor q, k, v, out, lse, dout, dq, dk, dv, alibi;
  int32_t* cu_q = nullptr;
  int32_t* cu_k = nullptr;
  cudaStream_t stream = nullptr;
  bool pass_host_cu = true;

  explicit GpuCase(Case& cs) : c(cs) {
    q.mirror(c.q);
    k.mirror(c.k);
    v.mirror(c.v);
    out.mirror(c.out);
    lse.mirror(c.lse);
    dout.mirror(c.dout);
    dq.mirror(c.dq);
    dk.mirror(c.dk);
    dv.mirror(c.dv);
    if (c.spec.alibi) alibi.mirror(c.alibi);
    if (c.spec.varlen()) {
      cuda_ok(cudaMalloc(&cu_q, c.cu_q.size() * 4), "cudaMalloc");
      cuda_ok(cudaMalloc(&cu_k, c.cu_k.size() * 4), "cudaMalloc");
      cuda_ok(cudaMemcpy(cu_q, c.cu_q.data(), c.cu_q.size() * 4, cudaMemcpyHostToDevice), "upload");
      cuda_ok(cudaMemcpy(cu_k, c.cu_k.data(), c.cu_k.size() * 4, cudaMemcpyHostToDevice), "upload");
    }
  }
  ~GpuCase() {
    if (cu_q) cudaFree(cu_q);
    if (cu_k) cudaFree(cu_k);
  }
  Varlen varlen() const {
    Varlen vl = c.varlen();
    if (!c.spec.varlen()) return vl;
    vl.cu_seqlens_q = cu_q;
    vl.cu_seqlens_k = cu_k;
    if (pass_host_cu) {
      vl.cu_seqlens_q_host = c.cu_q.data();
      vl.cu_seqlens_k_host = c.cu_k.data();
    }
    return vl;
  }
  Options options() const {
    Options o = c.options();
    if (c.spec.alibi) o.alibi_slopes = alibi.view;
    return o;
  }
  Context context() const {
    Context ctx;
    ctx.backend = Backend::Cuda;
    ctx.cuda_stream = stream;
    return ctx;
  }
  ForwardArgs forward_args() const { return make_forward_args(*this, varlen(), options()); }
  BackwardArgs backward_args() const { return make_backward_args(*this, varlen(), options()); }
  // Poisoned outputs up, forward on the GPU, outputs (guards included) back into the Case.
  RunInfo run_forward() {
    c.out.poison();
    c.lse.poison();
    out.upload();
    lse.upload();
    const RunInfo info = flashattn::forward(forward_args(), context());
    cuda_ok(cudaDeviceSynchronize(), "forward");
    out.download(c.out);
    lse.download(c.lse);
    return info;
  }
  RunInfo run_backward() {
    c.dq.poison();
    c.dk.poison();
    c.dv.poison();
    dq.upload();
    dk.upload();
    dv.upload();
    const RunInfo info = flashattn::backward(backward_args(), context());
    cuda_ok(cudaDeviceSynchronize(), "backward");
    dq.download(c.dq);
    dk.download(c.dk);
    dv.download(c.dv);
    return info;
  }
};

// The forward path a problem should take: "cuda-sm80", or "cuda-sm90" where the caller expects
// the Hopper kernel (tests/cuda/test_sm90.cc). Unless FLASHATTN_DISABLE_SM90=1 the grid of
// test_cuda.cc accepts either (the sm90 forward is the default on sm_90 devices).
inline bool sm90_requested() {
  const char* v = std::getenv("FLASHATTN_DISABLE_SM90");
  return !(v != nullptr && v[0] == '1');
}

// The foundation's checks (harness.h) on results computed on the GPU and downloaded into the
// Case: the same tolerance rule and backward allowances as the CPU backend; the LSE at 1e-4.
inline void check_forward_gpu(const Spec& spec, const char* want_path = nullptr) {
  Case c(spec);
  GpuCase g(c);
  const RunInfo info = g.run_forward();
  if (want_path != nullptr) EXPECT_EQ(info.path, want_path) << spec.str();
  else if (sm90_requested()) EXPECT_TRUE(info.path == "cuda-sm80" || info.path == "cuda-sm90") << info.path;
  else EXPECT_EQ(info.path, "cuda-sm80");
  check_forward_results(c, 1e-4);
}

// deterministic = true: three backward runs give bitwise-identical dq, dk, dv, within the
// tolerance rule; the path that ran must be want_path where given.
inline void check_backward_deterministic(Spec spec, const char* want_path = nullptr) {
  spec.deterministic = true;
  Case c(spec);
  GpuCase g(c);
  g.run_forward();
  std::vector<std::vector<uint8_t>> first;
  for (int run = 0; run < 3; ++run) {
    const RunInfo info = g.run_backward();
    if (want_path != nullptr) EXPECT_EQ(info.path, want_path) << spec.str();
    std::vector<std::vector<uint8_t>> now = {c.dq.bytes, c.dk.bytes, c.dv.bytes};
    if (run == 0) first = now;
    else EXPECT_TRUE(now == first) << "run " << run << " differs from run 0: " << spec.str();
  }
  check_backward_results(c);
}

// The small bf16 CUDA problem the probes below run.
inline Spec probe_spec(int head_dim) {
  Spec s;
  s.dtype = DType::BFloat16;
  s.head_dim = head_dim;
  s.backend = Backend::Cuda;
  return s;
}

// Whether this build has a CUDA kernel (either path) for bf16 at this head_dim (FLASHATTN_HEAD_DIMS
// may leave its tier out).
inline bool cuda_tier_built(int head_dim) {
  Case c(probe_spec(head_dim));
  GpuCase g(c);
  try {
    g.run_forward();
  } catch (const Error&) {
    return false;
  }
  return true;
}

// False (with the selector's reason) when this build lacks a head_dim tier the case needs, in
// either direction (FLASHATTN_HEAD_DIMS left it out): such a case is skipped, not failed. Any
// other refusal is left to the test to report.
inline bool tier_in_build(const Spec& spec, bool backward, std::string* why = nullptr) {
  Case c(spec);
  GpuCase g(c);
  const Support fwd = is_supported(g.forward_args(), g.context());
  const Support bwd = backward ? is_supported(g.backward_args(), g.context()) : Support{true, "", ""};
  for (const Support* s : {&fwd, &bwd})
    if (!s->supported && s->reason.find("is not in this build") != std::string::npos) {
      if (why != nullptr) *why = s->reason;
      return false;
    }
  return true;
}
// For the tests over several tiers: a skip when none of them is in the build.
#define SKIP_IF_NONE_RAN(ran) \
  if ((ran) == 0) GTEST_SKIP() << "none of this test's head_dim tiers is in this build (FLASHATTN_HEAD_DIMS)"
#define REQUIRE_TIER_BUILT(spec, backward)                                          \
  do {                                                                              \
    std::string why_;                                                               \
    if (!::flashattn::test::tier_in_build(spec, backward, &why_)) GTEST_SKIP() << why_; \
  } while (0)

inline void check_backward_gpu(const Spec& spec) {
  Case c(spec);
  GpuCase g(c);
  g.run_forward();
  g.run_backward();
  check_backward_results(c);
}

// Whether this build takes the sm90 path on this device for an eligible problem (bf16,
// head_dim 128 or the one given): the forward's (backward = false) or the backward's (requested
// with FLASHATTN_EXPERIMENTAL_SM90_BWD=1); `why` says what is missing.
inline bool sm90_path_built(bool backward, std::string* why, int head_dim = 128) {
  if (!sm90_device(why)) return false;
  Case c(probe_spec(head_dim));
  GpuCase g(c);
  RunInfo info;
  try {
    with_env("FLASHATTN_DISABLE_SM90", nullptr, [&] {
      info = g.run_forward();
      if (backward) with_env("FLASHATTN_EXPERIMENTAL_SM90_BWD", "1", [&] { info = g.run_backward(); });
    });
  } catch (const Error&) {  // the head_dim's tier is not in this build (no path at all)
    info.path.clear();
  }
  if (info.path == "cuda-sm90") return true;
  *why = std::string("this build has no sm90 ") + (backward ? "backward" : "path") +
         " (FLASHATTN_CUDA_ARCHS without 90, or head_dim tier " + std::to_string(head_dim) + " not built)";
  return false;
}

// Whether the sm90 path is built: any tier (tier 128 first; the backward has no tier 96), so that
// a build of some tiers only (FLASHATTN_HEAD_DIMS, e.g. a device run of "96;192;256") still runs
// the suites' cases of its tiers (each case checks its own: check_sm90_if_built, and
// test_sm90_bwd.cc tier_built).
inline bool sm90_any_tier_built(bool backward, std::string* why) {
  for (int d : {128, 64, 96, 192, 256}) {
    if (backward && d == 96) continue;
    if (sm90_path_built(backward, why, d)) return true;
  }
  if (sm90_device(why)) *why = std::string("this build has no sm90 ") + (backward ? "backward" : "path") +
                               " (FLASHATTN_CUDA_ARCHS without 90, or none of its head_dim tiers built)";
  return false;
}

#define REQUIRE_SM90_PATH(backward)                                \
  do {                                                             \
    std::string why;                                               \
    if (!sm90_any_tier_built(backward, &why)) GTEST_SKIP() << why; \
  } while (0)

// The stream-K tests' problems (test_sm90.cc Sm90.StreamKTail, test_sm90_bwd.cc
// Sm90BwdStreamK, and the sm80 backward's split last round: test_cuda.cc CudaBwdTail): variant 0 plain bf16, 1 fp16 with a softcap, ALiBi and dropout, 2 GQA with 40
// queries (two query heads a tile or walk); heads_kv = heads / 2.
inline Spec streamk_spec(int d, int variant, int batch, int heads, int sq, int sk, uint64_t seed) {
  Spec s;
  s.dtype = variant == 1 ? DType::Float16 : DType::BFloat16;
  s.head_dim = d;
  s.batch = batch;
  s.heads = heads;
  s.heads_kv = heads / 2;
  s.seqlen_q = variant == 2 ? 40 : sq;
  s.seqlen_k = sk;
  if (variant == 1) {
    s.softcap = 25.0f;
    s.alibi = 1;
    s.dropout = 0.15f;
  }
  s.backend = Backend::Cuda;
  s.seed = seed;
  return s;
}

// Largest |x - y| over the elements, against 2% of the largest |y| (plus an absolute floor):
// catches gross disagreements; the reference checks carry the exact tolerance rule.
inline void expect_near_tensor(const HostTensor& x, const HostTensor& y, const char* what) {
  double diff = 0, big = 0;
  for (int64_t i = 0; i < y.numel(); ++i) {
    const double a = x.get(i), b = y.get(i);
    diff = std::isnan(a - b) ? INFINITY : std::max(diff, std::fabs(a - b));
    big = std::max(big, std::fabs(b));
    if (std::isinf(diff)) break;
  }
  EXPECT_LE(diff, 0.02 * big + 1e-3) << what << ": one scheme against the other, largest |value| " << big;
}

// The backward twice on one Case from `s` (same q, k, v, dout and forward results): `first` and
// then `second` wrap the call (the environment of each scheme); both within the reference's
// tolerance, and close to each other.
template <typename A, typename B>
inline void backward_agree(const Spec& s, const char* path_a, A&& first, const char* path_b, B&& second) {
  Case c(s);
  GpuCase g(c);
  g.run_forward();
  RunInfo ia, ib;
  first([&] { ia = g.run_backward(); });
  EXPECT_EQ(ia.path, path_a);
  check_backward_results(c);
  const HostTensor dq0 = c.dq, dk0 = c.dk, dv0 = c.dv;
  second([&] { ib = g.run_backward(); });
  EXPECT_EQ(ib.path, path_b);
  check_backward_results(c);
  expect_near_tensor(c.dq, dq0, "dq");
  expect_near_tensor(c.dk, dk0, "dk");
  expect_near_tensor(c.dv, dv0, "dv");
}

}  // namespace flashattn::test
