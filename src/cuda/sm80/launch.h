// Launchers of the templated sm80 kernels, instantiated once per (direction, dtype, tier) in
// src/cuda/instantiations/. Each picks the plain or the with-extras kernel (the one level of
// compile-time switching), sets its dynamic shared-memory limit, launches on the given stream
// and checks the launch.
#pragma once

#include <cuda_runtime.h>

#include "cuda/sm80/bwd_kernel.h"
#include "cuda/sm80/check.h"
#include "cuda/sm80/fwd_kernel.h"

namespace flashattn::cuda::sm80 {

template <typename T, int kD, int kDv>
void launch_fwd(const void* params, void* stream) {
  using C = FwdConfig<kD, kDv>;
  const FwdParams& p = *static_cast<const FwdParams*>(params);
  const int64_t blocks = int64_t(p.num_m_blocks) * p.batch * p.num_heads;
  check_grid(blocks);
  const bool extras = p.has_score_mod || p.dropout.enabled();
  auto kernel = extras ? fwd_kernel<T, kD, kDv, true> : fwd_kernel<T, kD, kDv, false>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes),
        "cudaFuncSetAttribute(fwd_kernel)");
  kernel<<<unsigned(blocks), C::kThreads, C::kSmemBytes, static_cast<cudaStream_t>(stream)>>>(p);
  check(cudaGetLastError(), "launch fwd_kernel");
}

template <typename T, int kD, int kDv>
void launch_bwd(const void* params, void* stream) {
  using C = BwdConfig<kD, kDv>;
  const BwdParams& p = *static_cast<const BwdParams*>(params);
  const int64_t blocks = int64_t(p.num_n_blocks) * p.fwd.batch * p.fwd.num_heads_kv;
  check_grid(blocks);
  const bool extras = p.fwd.has_score_mod || p.fwd.dropout.enabled();
  auto kernel = extras ? bwd_kernel<T, kD, kDv, true> : bwd_kernel<T, kD, kDv, false>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes),
        "cudaFuncSetAttribute(bwd_kernel)");
  kernel<<<unsigned(blocks), C::kThreads, C::kSmemBytes, static_cast<cudaStream_t>(stream)>>>(p);
  check(cudaGetLastError(), "launch bwd_kernel");
}

}  // namespace flashattn::cuda::sm80
