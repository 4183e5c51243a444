// Programmatic dependent launch (sm_90): a kernel launched as a programmatic dependent of the
// stream's previous kernel may be scheduled before that kernel ends; it must pass grid_dep_wait()
// before its first global memory access. A kernel's grid_dep_launch() lets its dependent be
// scheduled once every CTA has called it (or exited). Both are no-ops in a kernel launched the
// ordinary way, and compile to nothing before sm_90. Used by the sm90 backward's chain of D,
// main and dQ conversion kernels (sm80::BwdParams::pdl).
#pragma once

#include <cuda_runtime.h>

#include <utility>

namespace flashattn::cuda {

__device__ __forceinline__ void grid_dep_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void grid_dep_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

// kernel<<<grid, block, smem, stream>>>(args...) as a programmatic dependent of the stream's
// previous kernel (sm_90 devices only).
template <typename... Params, typename... Args>
cudaError_t launch_dependent(void (*kernel)(Params...), unsigned grid, unsigned block, std::size_t smem,
                             cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...);
}

}  // namespace flashattn::cuda
