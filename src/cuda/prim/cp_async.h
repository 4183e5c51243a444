// cp.async (sm_80+): asynchronous 16-byte copies global -> shared that bypass the registers,
// grouped with commit_group and awaited with wait_group. A copy becomes visible to other threads
// only after wait_group in the issuing thread and then a barrier (__syncthreads).
#pragma once

#include <cstdint>

namespace flashattn::cuda::prim {

// Copies 16 bytes from `src` (16-byte aligned, global) to `dst_smem` (16-byte aligned shared
// address); when `src_bytes` < 16 the rest is zero-filled (src_bytes = 0: only zeros, and `src`
// is not read, but must still be a valid address).
__device__ __forceinline__ void cp_async_16(uint32_t dst_smem, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst_smem), "l"(src),
               "r"(src_bytes));
}

// Copies 4 bytes (a float) from `src` (4-byte aligned, global) to `dst_smem`; src_bytes = 0
// writes a zero and does not read `src`.
__device__ __forceinline__ void cp_async_4(uint32_t dst_smem, const void* src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst_smem), "l"(src), "r"(src_bytes));
}

// Closes the group of copies issued by this thread since the last commit.
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

// Waits until at most `kPending` of this thread's committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

}  // namespace flashattn::cuda::prim
