// Launchers of the templated sm80 kernels, instantiated once per (direction, dtype, tier) in
// src/cuda/instantiations/. Each picks the plain or the with-extras kernel (the one level of
// compile-time switching), sets its dynamic shared-memory limit, launches on the given stream
// and checks the launch. The grid's block counts follow the configuration's tile sizes.
#pragma once

#include <cuda_runtime.h>

#include "cuda/sm80/bwd_kernel.h"
#include "cuda/sm80/check.h"
#include "cuda/sm80/fwd_kernel.h"

namespace flashattn::cuda::sm80 {

template <typename T, typename C, bool kExtras>
void launch_fwd_config(FwdParams p, cudaStream_t stream) {
  p.num_m_blocks = (p.seqlen_q + C::kBlockM - 1) / C::kBlockM;
  const int64_t blocks = int64_t(p.num_m_blocks) * p.batch * p.num_heads;
  if (blocks == 0) return;
  check_grid(blocks);
  auto kernel = fwd_kernel<T, C, kExtras>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes),
        "cudaFuncSetAttribute(fwd_kernel)");
  kernel<<<unsigned(blocks), C::kThreads, C::kSmemBytes, stream>>>(p);
  check(cudaGetLastError(), "launch fwd_kernel");
}

// The caller sizes the semaphores with num_m_blocks (query blocks of 64: no configuration has
// smaller ones); the key blocks follow the configuration. Two Q/dO buffers where the device's
// opt-in shared memory holds them (unless the configuration forces a count).
template <typename T, typename C, bool kExtras>
void launch_bwd_config(BwdParams p, cudaStream_t stream) {
  static_assert(C::kBlockM % 64 == 0, "semaphores are sized for query blocks of 64");
  p.num_n_blocks = (p.fwd.seqlen_k + C::kBlockN - 1) / C::kBlockN;
  const int64_t blocks = int64_t(p.num_n_blocks) * p.fwd.batch * p.fwd.num_heads_kv;
  if (blocks == 0) return;
  check_grid(blocks);
  p.stages = C::kStagesForced;
  if (p.stages == 0) {
    int dev = 0, optin = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "cudaDeviceGetAttribute");
    p.stages = C::bytes(2) <= optin ? 2 : 1;
  }
  const int smem = C::bytes(p.stages);
  auto kernel = bwd_kernel<T, C, kExtras>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
        "cudaFuncSetAttribute(bwd_kernel)");
  kernel<<<unsigned(blocks), C::kThreads, smem, stream>>>(p);
  check(cudaGetLastError(), "launch bwd_kernel");
}

template <typename T, int kD, int kDv>
void launch_fwd(const void* params, void* stream) {
  const FwdParams& p = *static_cast<const FwdParams*>(params);
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (p.has_score_mod || p.dropout.enabled()) launch_fwd_config<T, FwdConfig<kD, kDv>, true>(p, s);
  else launch_fwd_config<T, FwdConfig<kD, kDv>, false>(p, s);
}

template <typename T, int kD, int kDv>
void launch_bwd(const void* params, void* stream) {
  const BwdParams& p = *static_cast<const BwdParams*>(params);
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (p.fwd.has_score_mod || p.fwd.dropout.enabled()) launch_bwd_config<T, BwdConfig<kD, kDv>, true>(p, s);
  else launch_bwd_config<T, BwdConfig<kD, kDv>, false>(p, s);
}

}  // namespace flashattn::cuda::sm80
