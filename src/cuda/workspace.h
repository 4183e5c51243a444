// Scratch memory of one call on the caller's stream (the sm80 backward's dQ workspace, the sm90
// forward's stream-K pieces): host code only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/backend.h"
#include "cuda/sm80/check.h"

namespace flashattn::cuda {

// Scratch memory from Context::allocator, else cudaMallocAsync/cudaFreeAsync on the stream:
// freed in stream order after the kernels that use it, so no synchronization is needed. data()
// is 256-byte aligned whatever the allocator returns (the block is 255 bytes larger): the sm90
// backward's bulk reductions need 16-byte aligned rows.
class Workspace {
 public:
  Workspace(const Context& ctx, std::size_t bytes) : ctx_(ctx), bytes_(bytes == 0 ? 0 : bytes + 255) {
    if (bytes_ == 0) return;
    if (ctx_.allocator.allocate != nullptr) {
      ptr_ = ctx_.allocator.allocate(bytes_, ctx_.allocator.user);
      if (ptr_ == nullptr) throw CudaError("flashattn: Context::allocator returned null for the workspace");
    } else {
      check(cudaMallocAsync(&ptr_, bytes_, stream()), "cudaMallocAsync(workspace)");
    }
  }
  ~Workspace() {
    if (ptr_ == nullptr) return;
    if (ctx_.allocator.allocate != nullptr) {
      if (ctx_.allocator.deallocate != nullptr) ctx_.allocator.deallocate(ptr_, bytes_, ctx_.allocator.user);
    } else {
      cudaFreeAsync(ptr_, stream());  // a destructor cannot throw; an error here resurfaces on the next call
    }
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  char* data() const {
    return reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(ptr_) + 255) & ~uintptr_t(255));
  }
  cudaStream_t stream() const { return static_cast<cudaStream_t>(ctx_.cuda_stream); }

 private:
  const Context& ctx_;
  std::size_t bytes_;
  void* ptr_ = nullptr;
};

}  // namespace flashattn::cuda
