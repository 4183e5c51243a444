// ldmatrix (sm_75+) and stmatrix (sm_90+). ldmatrix: a warp loads four 8x8 matrices of 16-bit
// elements from shared memory into mma fragments. Lanes 8i..8i+7 give the addresses of matrix i's
// eight rows (16 bytes each, 16-byte aligned); lane l receives in register i the pair at row l/4,
// columns 2(l%4), 2(l%4)+1 of matrix i (.trans: of matrix i transposed, i.e. rows 2(l%4), 2(l%4)+1
// of column l/4).
#pragma once

#include <cstdint>

namespace flashattn::cuda::prim {

// `smem_addr` is this lane's row address in the shared window (from cvta_shared).
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&d)[4], uint32_t smem_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(smem_addr));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&d)[4], uint32_t smem_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(smem_addr));
}

// stmatrix (sm_90+): the inverse of ldmatrix_x4. Lanes 8i..8i+7 give the addresses of matrix i's
// eight rows; lane l's register i holds the pair at row l/4, columns 2(l%4), 2(l%4)+1 of matrix i
// (mma's accumulator layout, packed). kTrans (.trans) stores each matrix transposed (lane 8i + r:
// the row r of matrix i as stored, which receives the matrix's column r). Callers choose it under
// __CUDA_ARCH__ >= 900 (the sm80 kernels compile for sm_80 too); elsewhere it traps.
template <bool kTrans = false>
__device__ __forceinline__ void stmatrix_x4(uint32_t smem_addr, const uint32_t (&r)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (kTrans)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(smem_addr),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
  else
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(smem_addr), "r"(r[0]),
                 "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
#else
  (void)smem_addr;
  (void)r;
  __trap();
#endif
}

// A generic pointer into shared memory as a 32-bit shared-window address.
__device__ __forceinline__ uint32_t cvta_shared(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

}  // namespace flashattn::cuda::prim
