// Small configurations of every kernel (forward, backward with its preprocessing and dq
// conversion, deterministic, varlen, dropout, every built head_dim tier), for compute-sanitizer
// memcheck and racecheck in tools/gpu-check. Exits 0 when every call returned; the sanitizer
// decides the verdict. With no GPU it says so and exits 0.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "flashattn/flashattn.h"

using namespace flashattn;

namespace {

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct Buf {
  void* p = nullptr;
  explicit Buf(size_t bytes, std::mt19937& rng) {
    ok(cudaMalloc(&p, bytes + 16), "cudaMalloc");
    std::vector<uint16_t> h(bytes / 2 + 8);
    std::uniform_int_distribution<int> d(0x3000, 0x3c00);  // small positive fp16/bf16-ish bit patterns
    for (auto& x : h) x = uint16_t(d(rng));
    ok(cudaMemcpy(p, h.data(), bytes, cudaMemcpyHostToDevice), "upload");
  }
  ~Buf() { cudaFree(p); }
};

void run(DType dt, int d, int dv, int sq, int sk, int h, int hkv, bool causal, float dropout, bool det,
         bool varlen, float softcap = 0.0f, bool alibi = false, int window_left = -1, int window_right = -1) {
  std::mt19937 rng(d * 7 + sq);
  const int batch = 2;
  const int64_t tq = int64_t(batch) * sq, tk = int64_t(batch) * sk;
  Buf q(tq * h * d * 2, rng), k(tk * hkv * d * 2, rng), v(tk * hkv * dv * 2, rng), o(tq * h * dv * 2, rng),
      dout(tq * h * dv * 2, rng), dq(tq * h * d * 2, rng), dk(tk * hkv * d * 2, rng), dvv(tk * hkv * dv * 2, rng),
      lse(tq * h * 4, rng);
  std::vector<int32_t> cuq = {0, sq / 2, int(tq)}, cuk = {0, sk - 3, int(tk)};
  int32_t *dcuq, *dcuk;
  ok(cudaMalloc(&dcuq, 12), "cudaMalloc");
  ok(cudaMalloc(&dcuk, 12), "cudaMalloc");
  ok(cudaMemcpy(dcuq, cuq.data(), 12, cudaMemcpyHostToDevice), "upload");
  ok(cudaMemcpy(dcuk, cuk.data(), 12, cudaMemcpyHostToDevice), "upload");
  auto view = [&](void* p, int64_t rows, int64_t seq, int heads, int dim) {
    return varlen ? TensorView::contiguous(p, dt, {rows, heads, dim})
                  : TensorView::contiguous(p, dt, {batch, seq, heads, dim});
  };
  Options opt;
  opt.causal = causal;
  opt.dropout_p = dropout;
  opt.deterministic = det;
  opt.softcap = softcap;
  opt.window_left = window_left;
  opt.window_right = window_right;
  float* slopes = nullptr;  // (heads) ALiBi slopes, 0.05 .. 0.05 h
  if (alibi) {
    std::vector<float> sl(h);
    for (int i = 0; i < h; ++i) sl[i] = 0.05f * float(i + 1);
    ok(cudaMalloc(&slopes, sl.size() * 4), "cudaMalloc");
    ok(cudaMemcpy(slopes, sl.data(), sl.size() * 4, cudaMemcpyHostToDevice), "upload");
    opt.alibi_slopes = TensorView::contiguous(slopes, DType::Float32, {h});
  }
  Varlen vl;
  if (varlen) {
    vl.cu_seqlens_q = dcuq;
    vl.cu_seqlens_k = dcuk;
    vl.cu_seqlens_q_host = cuq.data();
    vl.cu_seqlens_k_host = cuk.data();
    vl.batch = batch;
    vl.max_seqlen_q = std::max(cuq[1], cuq[2] - cuq[1]);
    vl.max_seqlen_k = std::max(cuk[1], cuk[2] - cuk[1]);
  }
  ForwardArgs fa;
  fa.q = view(q.p, tq, sq, h, d);
  fa.k = view(k.p, tk, sk, hkv, d);
  fa.v = view(v.p, tk, sk, hkv, dv);
  fa.out = view(o.p, tq, sq, h, dv);
  fa.softmax_lse = varlen ? TensorView::contiguous(lse.p, DType::Float32, {h, tq})
                          : TensorView::contiguous(lse.p, DType::Float32, {batch, h, sq});
  fa.varlen = vl;
  fa.options = opt;
  Context ctx;
  ctx.backend = Backend::Cuda;
  forward(fa, ctx);
  BackwardArgs ba;
  ba.q = fa.q;
  ba.k = fa.k;
  ba.v = fa.v;
  ba.out = fa.out;
  ba.softmax_lse = fa.softmax_lse;
  ba.dout = view(dout.p, tq, sq, h, dv);
  ba.dq = view(dq.p, tq, sq, h, d);
  ba.dk = view(dk.p, tk, sk, hkv, d);
  ba.dv = view(dvv.p, tk, sk, hkv, dv);
  ba.varlen = vl;
  ba.options = opt;
  backward(ba, ctx);
  ok(cudaDeviceSynchronize(), "sync");
  cudaFree(dcuq);
  cudaFree(dcuk);
  cudaFree(slopes);
  std::printf("ok %s d=%d/%d sq=%d sk=%d h=%d/%d causal=%d dropout=%.2f det=%d varlen=%d softcap=%g alibi=%d\n",
              dtype_name(dt), d, dv, sq, sk, h, hkv, causal, dropout, det, varlen, double(softcap), int(alibi));
}

}  // namespace

int main() {
  if (!backend_available(Backend::Cuda)) {
    std::printf("no CUDA device: nothing to sanitize\n");
    return 0;
  }
  const std::pair<int, int> dims[] = {{32, 32}, {59, 59}, {64, 64}, {96, 96}, {128, 128}, {160, 160},
                                      {192, 192}, {192, 128}, {224, 224}, {256, 256}};
  auto guarded = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {  // a tier left out of FLASHATTN_HEAD_DIMS
      std::printf("skipped: %s\n", e.what());
    }
  };
  for (auto [d, dv] : dims)
    guarded([&] { run(DType::BFloat16, d, dv, 70, 90, 2, 1, d % 64 == 0, 0.0f, false, false); });
  guarded([] { run(DType::Float16, 64, 64, 130, 67, 4, 2, true, 0.2f, true, false); });
  guarded([] { run(DType::Float16, 128, 128, 100, 150, 2, 2, false, 0.0f, true, true); });
  guarded([] { run(DType::BFloat16, 59, 59, 33, 129, 2, 2, true, 0.1f, false, true); });
  // The sm90 forward's GQA packing (short queries, several query heads a tile) and a persistent
  // grid with more tiles than SMs (several rounds of the snake order, causal).
  guarded([] { run(DType::BFloat16, 128, 128, 5, 300, 8, 2, false, 0.0f, false, false); });
  guarded([] { run(DType::Float16, 64, 64, 1, 257, 8, 1, true, 0.0f, false, false); });
  guarded([] { run(DType::BFloat16, 64, 64, 1024, 1024, 16, 16, true, 0.0f, false, false); });
  // The sm90 forward's skip of masked key blocks (the default: warpgroups whose rows do not see a
  // causal tile's first blocks): three consumers on 192-row tiles with rows seeing no key, head_dim
  // 256 on 64-key blocks.
  guarded([] { run(DType::BFloat16, 64, 64, 700, 333, 4, 2, true, 0.0f, false, false); });
  guarded([] { run(DType::BFloat16, 256, 256, 700, 700, 2, 1, true, 0.0f, false, false); });
  // The sm90 forward's plain kernel with softcap (kCap): GQA packed, three consumers with rows
  // that see no key, head_dim 256, varlen.
  guarded([] { run(DType::BFloat16, 128, 128, 5, 300, 8, 2, false, 0.0f, false, false, 30.0f); });
  guarded([] { run(DType::BFloat16, 64, 64, 700, 333, 4, 2, true, 0.0f, false, false, 30.0f); });
  guarded([] { run(DType::Float16, 256, 256, 200, 300, 2, 1, false, 0.0f, false, false, 5.0f); });
  guarded([] { run(DType::BFloat16, 96, 96, 70, 90, 2, 2, true, 0.0f, false, true, 30.0f); });
  // The plain kernels with ALiBi (kAlibi), forward and backward: three consumers with rows that
  // see no key (and the backward's 128-query steps), head_dim 128 GQA (80-query steps), varlen
  // (64-query steps at 128).
  guarded([] { run(DType::BFloat16, 64, 64, 700, 333, 4, 2, true, 0.0f, false, false, 0.0f, true); });
  guarded([] { run(DType::Float16, 128, 128, 130, 300, 8, 2, false, 0.0f, false, false, 0.0f, true); });
  guarded([] { run(DType::BFloat16, 128, 128, 100, 150, 2, 2, true, 0.0f, false, true, 0.0f, true); });
  // The sm90 forward in clusters of two with K/V multicast (the 128- and 176-key blocks; GQA;
  // causal pairs, rank 0 skipping the pair's extra blocks, at head_dim 128 and 256; partial last
  // tiles of 72 and 36 rows, the latter with an idle warpgroup; windows, rank 1 passing over the
  // walk's last blocks, one with an idle warpgroup too).
  setenv("FLASHATTN_SM90_CLUSTER", "1", 1);
  guarded([] { run(DType::BFloat16, 128, 128, 512, 517, 4, 2, false, 0.0f, false, false); });
  guarded([] { run(DType::BFloat16, 128, 128, 512, 700, 2, 1, true, 0.0f, false, false); });
  guarded([] { run(DType::Float16, 128, 128, 200, 300, 2, 2, false, 0.0f, false, false); });
  guarded([] { run(DType::BFloat16, 128, 128, 420, 517, 2, 1, true, 0.0f, false, false); });
  guarded([] { run(DType::Float16, 256, 256, 512, 517, 2, 1, true, 0.0f, false, false); });
  guarded([] { run(DType::BFloat16, 128, 128, 512, 600, 2, 1, true, 0.0f, false, false, 0.0f, false, 150, 0); });
  guarded([] { run(DType::Float16, 256, 256, 420, 500, 2, 1, false, 0.0f, false, false, 0.0f, false, 100, 60); });
  setenv("FLASHATTN_SM90_BLOCKN", "alt", 1);
  guarded([] { run(DType::Float16, 128, 128, 256, 400, 2, 1, false, 0.0f, false, false); });
  guarded([] { run(DType::BFloat16, 128, 128, 512, 512, 2, 1, false, 0.0f, false, false, 0.0f, false, 200, -1); });
  unsetenv("FLASHATTN_SM90_BLOCKN");
  // ... on four clusters: whole pairs by ticket, then a stream-K tail (30 pairs; 35 with partial
  // last tiles of 36 rows), and causal pairs by ticket (the caller's FLASHATTN_SM90_PERSISTENT restored
  // after).
  {
    const char* was = std::getenv("FLASHATTN_SM90_PERSISTENT");
    const std::string saved = was != nullptr ? was : "";
    setenv("FLASHATTN_SM90_PERSISTENT", "8", 1);
    setenv("FLASHATTN_SM90_STREAMK", "1", 1);
    guarded([] { run(DType::BFloat16, 128, 128, 768, 517, 5, 1, false, 0.0f, false, false); });
    guarded([] { run(DType::Float16, 128, 128, 1700, 600, 5, 1, false, 0.0f, false, false); });
    unsetenv("FLASHATTN_SM90_STREAMK");
    guarded([] { run(DType::BFloat16, 128, 128, 768, 640, 5, 1, true, 0.0f, false, false); });
    if (was != nullptr) setenv("FLASHATTN_SM90_PERSISTENT", saved.c_str(), 1);
    else unsetenv("FLASHATTN_SM90_PERSISTENT");
  }
  unsetenv("FLASHATTN_SM90_CLUSTER");
  // The sm90 backward for tier 64 too (sm_90 devices; elsewhere these run the sm80 path again).
  setenv("FLASHATTN_EXPERIMENTAL_SM90_BWD", "1", 1);
  guarded([] { run(DType::BFloat16, 64, 64, 70, 200, 4, 2, true, 0.0f, false, false); });
  guarded([] { run(DType::Float16, 128, 128, 100, 150, 2, 2, false, 0.0f, false, true); });
  guarded([] { run(DType::BFloat16, 128, 128, 130, 67, 2, 1, true, 0.0f, false, false); });
  // ... the plain kernel with softcap (kCap): 80-query steps at head_dim 128 (causal MQA), 64-query
  // steps there (varlen, causal), 128-query steps at 64 (varlen).
  guarded([] { run(DType::Float16, 128, 128, 130, 200, 2, 1, true, 0.0f, false, false, 20.0f); });
  guarded([] { run(DType::BFloat16, 128, 128, 100, 150, 2, 2, true, 0.0f, false, true, 15.0f); });
  guarded([] { run(DType::BFloat16, 64, 64, 100, 150, 4, 2, false, 0.0f, false, true, 10.0f); });
  // ... with dropout: the plain-score schedule's keep bits (kDrop: 64-query steps at head_dim
  // 128, 128-query steps at 64) and head_dim 256's kernel with extras.
  guarded([] { run(DType::BFloat16, 128, 128, 140, 200, 2, 2, true, 0.15f, false, false); });
  guarded([] { run(DType::BFloat16, 64, 64, 200, 140, 2, 1, false, 0.15f, false, false); });
  guarded([] { run(DType::BFloat16, 256, 256, 70, 90, 2, 1, false, 0.1f, false, false); });
  // ... tier 192 (its warpgroups' column pieces: 64 + 32 each), padded (160), causal GQA varlen,
  // dropout.
  guarded([] { run(DType::BFloat16, 192, 192, 70, 150, 4, 2, true, 0.0f, false, true); });
  guarded([] { run(DType::Float16, 160, 160, 130, 67, 2, 1, false, 0.0f, false, false); });
  guarded([] { run(DType::BFloat16, 192, 192, 100, 90, 2, 2, false, 0.1f, false, false); });
  // ... deterministic (the dQ writer warp's key-block order through the semaphores).
  setenv("FLASHATTN_SM90_BWD_DETERMINISTIC", "1", 1);
  guarded([] { run(DType::BFloat16, 128, 128, 130, 300, 4, 2, true, 0.0f, true, false); });
  guarded([] { run(DType::Float16, 64, 64, 100, 150, 2, 2, false, 0.0f, true, true); });
  guarded([] { run(DType::BFloat16, 64, 64, 130, 200, 4, 2, true, 0.0f, true, false, 30.0f); });  // kCap
  guarded([] { run(DType::Float16, 128, 128, 130, 300, 4, 2, false, 0.0f, true, false, 25.0f); });  // kCap
  guarded([] { run(DType::BFloat16, 192, 192, 130, 200, 2, 1, true, 0.0f, true, false); });
  // ... tier 256's dQ staged in the ring stage (every step's stage rewritten by the consumers, read
  // by the writer's bulk reductions, then reloaded): deterministic, and causal GQA with more steps
  // than stages.
  guarded([] { run(DType::BFloat16, 256, 256, 200, 150, 2, 1, true, 0.0f, true, false); });
  unsetenv("FLASHATTN_SM90_BWD_DETERMINISTIC");
  guarded([] { run(DType::Float16, 256, 256, 330, 100, 4, 2, true, 0.0f, false, false); });
  unsetenv("FLASHATTN_EXPERIMENTAL_SM90_BWD");
  return 0;
}
