// Probe of the sm90 building blocks in isolation (one warpgroup, one tile, no warp
// specialization): TMA with the 128-byte swizzle into shared memory, S = Q K^T with wgmma SS and
// the K-major descriptors, O = P V with wgmma RS and the N-major descriptor for V. Inputs are
// small integers, so every product is exact and any difference is a layout error. Prints, per
// stage, the mismatch count and the first mismatches with their coordinates.
//   flashattn_sm90_probe        (needs an sm_90 GPU; exits 0 with a message without one)
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda/sm90/host.h"
#include "cuda/sm90/prim.h"
#include "cuda/sm90/wgmma_ops.h"

using namespace flashattn;
using namespace flashattn::cuda::sm90;

namespace {

constexpr int kM = 64, kN = 128, kD = 128;  // one warpgroup: 64 query rows, 128 keys, head_dim 128
constexpr int kPanelQ = kM * 128, kPanelKV = kN * 128;

__global__ void __launch_bounds__(128) probe_kernel(const __grid_constant__ CUtensorMap mq,
                                                    const __grid_constant__ CUtensorMap mk,
                                                    const __grid_constant__ CUtensorMap mv, float* s_out,
                                                    float* o_out, uint16_t* dump) {
  extern __shared__ __align__(16) unsigned char raw[];
  unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(raw) + 1023) & ~uintptr_t(1023));
  unsigned char* sQ = smem;
  unsigned char* sK = sQ + 2 * kPanelQ;
  unsigned char* sV = sK + 2 * kPanelKV;
  uint64_t* bar = reinterpret_cast<uint64_t*>(sV + 2 * kPanelKV);
  const int tid = threadIdx.x;
  if (tid == 0) {
    mbar_init(bar, 1);
    fence_barrier_init();
  }
  __syncthreads();
  if (tid == 0) {
    mbar_arrive_expect_tx(bar, 2 * kPanelQ + 4 * kPanelKV);
    for (int p = 0; p < 2; ++p) {
      tma_load_4d(sQ + p * kPanelQ, &mq, bar, p * 64, 0, 0, 0);
      tma_load_4d(sK + p * kPanelKV, &mk, bar, p * 64, 0, 0, 0);
      tma_load_4d(sV + p * kPanelKV, &mv, bar, p * 64, 0, 0, 0);
    }
  }
  mbar_wait(bar, 0);
  // Raw shared-memory image of Q (both panels) for the swizzle check on the host.
  for (int i = tid; i < 2 * kPanelQ / 2; i += 128) dump[i] = reinterpret_cast<const uint16_t*>(sQ)[i];

  const int warp = tid / 32, lane = tid % 32, gr = lane / 4, tq = lane % 4;
  float acc_s[kN / 2];
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kD / 16; ++kk)
    Wgmma<kN, __nv_bfloat16, 0>::ss(acc_s, desc_k_major(smem_addr(sQ), kPanelQ, kk),
                                    desc_k_major(smem_addr(sK), kPanelKV, kk), kk > 0);
  wgmma_commit();
  wgmma_wait<0>();
  reg_fence(acc_s);
  for (int j = 0; j < kN / 2; ++j) {
    const int r = warp * 16 + gr + ((j % 4) / 2) * 8, c = (j / 4) * 8 + 2 * tq + (j % 2);
    s_out[r * kN + c] = acc_s[j];
  }
  // P = S / 64 rounded to bf16 would lose exactness; use P[r][c] = (c == (r * 3) % kN) instead:
  // O[r] is then exactly row (3r mod 128) of V.
  uint32_t pa[kN / 16][4];
  for (int kk = 0; kk < kN / 16; ++kk)
    for (int q = 0; q < 4; ++q) {
      const int r = warp * 16 + gr + (q % 2) * 8;
      const int c = kk * 16 + (q / 2) * 8 + 2 * tq;
      const float lo = c == (r * 3) % kN ? 1.0f : 0.0f, hi = c + 1 == (r * 3) % kN ? 1.0f : 0.0f;
      __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
      pa[kk][q] = *reinterpret_cast<uint32_t*>(&v);
    }
  float acc_o[kD / 2];
  for (int i = 0; i < kD / 2; ++i) acc_o[i] = 0.0f;
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kN / 16; ++kk)
    Wgmma<kD, __nv_bfloat16, 1>::rs(acc_o, pa[kk], desc_mn_major(smem_addr(sV), kPanelKV, kk), 1);
  wgmma_commit();
  wgmma_wait<0>();
  reg_fence(acc_o);
  for (int j = 0; j < kD / 2; ++j) {
    const int r = warp * 16 + gr + ((j % 4) / 2) * 8, c = (j / 4) * 8 + 2 * tq + (j % 2);
    o_out[r * kD + c] = acc_o[j];
  }
}

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

float bf(uint16_t x) {
  uint32_t u = uint32_t(x) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("sm90 probe: no CUDA device, not run\n");
    return 0;
  }
  cudaDeviceProp prop;
  ok(cudaGetDeviceProperties(&prop, 0), "properties");
  if (prop.major != 9) {
    std::printf("sm90 probe: needs sm_90, this is sm_%d%d; not run\n", prop.major, prop.minor);
    return 0;
  }
  // Q: 64 x 128, K and V: 128 x 128, bf16 small integers; rows contiguous (row stride 128).
  std::vector<uint16_t> hq(kM * kD), hk(kN * kD), hv(kN * kD);
  auto small = [](int a, int b) {  // -2 .. 2: exact in bf16, and so is every sum of products
    const float f = float(((a * 7 + b * 3) % 5) - 2);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return uint16_t(u >> 16);
  };
  for (int r = 0; r < kM; ++r)
    for (int c = 0; c < kD; ++c) hq[r * kD + c] = small(r, c);
  for (int r = 0; r < kN; ++r)
    for (int c = 0; c < kD; ++c) {
      hk[r * kD + c] = small(r + 11, c * 5 + 1);
      hv[r * kD + c] = small(r * 2 + 3, c + 7);
    }
  void *dq, *dk, *dv;
  float *ds, *dO;
  uint16_t* ddump;
  ok(cudaMalloc(&dq, hq.size() * 2), "malloc");
  ok(cudaMalloc(&dk, hk.size() * 2), "malloc");
  ok(cudaMalloc(&dv, hv.size() * 2), "malloc");
  ok(cudaMalloc(&ds, kM * kN * 4), "malloc");
  ok(cudaMalloc(&dO, kM * kD * 4), "malloc");
  ok(cudaMalloc(&ddump, 2 * kPanelQ), "malloc");
  ok(cudaMemcpy(dq, hq.data(), hq.size() * 2, cudaMemcpyHostToDevice), "upload");
  ok(cudaMemcpy(dk, hk.data(), hk.size() * 2, cudaMemcpyHostToDevice), "upload");
  ok(cudaMemcpy(dv, hv.data(), hv.size() * 2, cudaMemcpyHostToDevice), "upload");
  auto tensor = [](void* p, int rows) {
    cuda::sm80::Tensor t;
    t.data = p;
    t.row_stride = kD;
    t.head_stride = kD;
    t.batch_stride = int64_t(rows) * kD;
    return t;
  };
  const CUtensorMap mq = make_tensor_map(tensor(dq, kM), DType::BFloat16, kD, kM, 1, 1, kM);
  const CUtensorMap mk = make_tensor_map(tensor(dk, kN), DType::BFloat16, kD, kN, 1, 1, kN);
  const CUtensorMap mv = make_tensor_map(tensor(dv, kN), DType::BFloat16, kD, kN, 1, 1, kN);
  const int smem = 2 * kPanelQ + 4 * kPanelKV + 64 + 1024;
  ok(cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "attribute");
  probe_kernel<<<1, 128, smem>>>(mq, mk, mv, ds, dO, ddump);
  ok(cudaGetLastError(), "launch");
  ok(cudaDeviceSynchronize(), "run");
  std::vector<float> s(kM * kN), o(kM * kD);
  std::vector<uint16_t> dump(kPanelQ);
  ok(cudaMemcpy(s.data(), ds, s.size() * 4, cudaMemcpyDeviceToHost), "download");
  ok(cudaMemcpy(o.data(), dO, o.size() * 4, cudaMemcpyDeviceToHost), "download");
  ok(cudaMemcpy(dump.data(), ddump, dump.size() * 2, cudaMemcpyDeviceToHost), "download");

  // 1. TMA: element (r, c) of panel p expected at byte p * kPanelQ + r * 128 + ((c/8) ^ (r%8)) * 16 + (c%8) * 2.
  int bad = 0;
  for (int p = 0; p < 2; ++p)
    for (int r = 0; r < kM; ++r)
      for (int c = 0; c < 64; ++c) {
        const int idx = (p * kPanelQ + r * 128 + (((c / 8) ^ (r % 8)) * 16) + (c % 8) * 2) / 2;
        if (dump[idx] != hq[r * kD + p * 64 + c] && bad++ < 5)
          std::printf("tma: Q(%d,%d) expected %g at smem element %d, found %g\n", r, p * 64 + c,
                      bf(hq[r * kD + p * 64 + c]), idx, bf(dump[idx]));
      }
  std::printf("stage tma (Q in shared memory, 128-byte swizzle): %d mismatches\n", bad);
  // 2. S = Q K^T.
  bad = 0;
  for (int r = 0; r < kM; ++r)
    for (int c = 0; c < kN; ++c) {
      double ref = 0;
      for (int k = 0; k < kD; ++k) ref += double(bf(hq[r * kD + k])) * bf(hk[c * kD + k]);
      if (s[r * kN + c] != float(ref) && bad++ < 8)
        std::printf("S(%d,%d) = %g, expected %g\n", r, c, s[r * kN + c], ref);
    }
  std::printf("stage S = Q K^T (wgmma SS, K-major descriptors): %d mismatches of %d\n", bad, kM * kN);
  // 3. O = P V with P selecting row (3r mod 128) of V.
  bad = 0;
  for (int r = 0; r < kM; ++r)
    for (int c = 0; c < kD; ++c) {
      const float ref = bf(hv[((r * 3) % kN) * kD + c]);
      if (o[r * kD + c] != ref && bad++ < 8) std::printf("O(%d,%d) = %g, expected %g\n", r, c, o[r * kD + c], ref);
    }
  std::printf("stage O = P V (wgmma RS, N-major V descriptor): %d mismatches of %d\n", bad, kM * kD);
  return 0;
}
