// Tensor-core matrix multiply-accumulate, m16n8k16 (sm_80+): D = A * B + C with fp16 or bf16
// operands and fp32 accumulators. One warp holds each operand spread over its 32 lanes; with
// g = lane / 4 and t = lane % 4 the fragments are (PTX ISA, "Matrix Fragments for mma.m16n8k16"):
//   A (16x16, row-major): a0 = A[g][2t..2t+1],  a1 = A[g+8][2t..],  a2 = A[g][2t+8..],  a3 = A[g+8][2t+8..]
//   B (16x8, k-major):    b0 = B[2t..2t+1][g],  b1 = B[2t+8..2t+9][g]
//   C/D (16x8, fp32):     c0,c1 = C[g][2t..2t+1],  c2,c3 = C[g+8][2t..2t+1]
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace flashattn::cuda::prim {

// d[0..3] += A * B. Precondition: every lane of the warp calls it (mma.sync is warp-collective).
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                             uint32_t b1, __half /*tag*/) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                             uint32_t b1, __nv_bfloat16 /*tag*/) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

}  // namespace flashattn::cuda::prim
