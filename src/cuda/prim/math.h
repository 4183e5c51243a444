// Scalar helpers that map to one instruction: the fast base-2 exponential, fp32 -> 16-bit pair
// packing, and warp shuffles for reductions inside the 4 lanes (a quad) that share an mma row.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace flashattn::cuda::prim {

// 2^x with ex2.approx (relative error about 2^-22); ex2(-inf) = 0, which the online softmax uses.
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

// log2(x) with lg2.approx (absolute error about 2^-22 near 1, relative 2^-22 elsewhere) and 1 / x
// with rcp.approx (relative error about 2^-23): one MUFU instruction each, for x >= 1 (a row sum of
// the online softmax: its largest term is 1), where the IEEE forms take ~35 and ~10 instructions.
__device__ __forceinline__ float log2_approx(float x) {
  float y;
  asm("lg2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float rcp_approx(float x) {
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

// Two floats as one register of two 16-bit values, `lo` in the low half (round to nearest).
__device__ __forceinline__ uint32_t pack2(float lo, float hi, __half /*tag*/) {
  __half2 h = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&h);
}
__device__ __forceinline__ uint32_t pack2(float lo, float hi, __nv_bfloat16 /*tag*/) {
  __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&h);
}

__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
template <typename T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

// Reductions over the quad of lanes (lane ^ 1, lane ^ 2) that holds one row of an mma tile.
__device__ __forceinline__ float quad_max(float x) {
  x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
  return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}
__device__ __forceinline__ float quad_sum(float x) {
  x += __shfl_xor_sync(0xffffffffu, x, 1);
  return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

// 4 x 4 transpose of 32-bit words over a quad: lane q's w[c] becomes lane c's w[q] (two
// butterfly rounds, one shuffle per pair of words a round). An mma row's quad holds the column
// pairs 8 t + 2 q of tiles t; after it, lane q holds all four pairs of tile q: 16 contiguous bytes,
// one vector store instead of four 4-byte ones.
__device__ __forceinline__ void quad_transpose(uint32_t (&w)[4], int q) {
#pragma unroll
  for (int m = 1; m <= 2; m *= 2) {
    const bool hi = (q & m) != 0;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if (c & m) continue;
      // Of the pair (c, c + m) the lower lane keeps w[c], the upper w[c + m]; each sends the other.
      const uint32_t r = __shfl_xor_sync(0xffffffffu, hi ? w[c] : w[c + m], m);
      if (hi) w[c] = r;
      else w[c + m] = r;
    }
  }
}

// One row's four 8-column tiles 4 j .. 4 j + 3, held by its quad as packed 16-bit pairs (lane q's
// w[t]: columns 8 t + 2 q, + 1 of tile 4 j + t), written to `row` (16-byte aligned) as 16-byte
// stores: after quad_transpose lane q writes tile 4 j + q, columns `col0 + 8 q` on, when `live`
// and that tile starts below cols_valid (a multiple of 8: a tile is wholly inside or past it). A
// warp's store is 8 rows of 64 contiguous bytes instead of 8 x 16 (the sm90 forward's figures:
// fwd_kernel.h write_out). Every lane must call it (the shuffles), rows past the data included.
template <typename T>
__device__ __forceinline__ void store_quad_tiles(T* row, int col0, uint32_t (&w)[4], int q, bool live, int cols_valid) {
  quad_transpose(w, q);
  const int col = col0 + 8 * q;
  if (live && col < cols_valid) *reinterpret_cast<uint4*>(row + col) = make_uint4(w[0], w[1], w[2], w[3]);
}

// Adds `x` to a float in global memory without reading it back (red.global.add.f32).
__device__ __forceinline__ void red_add(float* p, float x) {
  asm volatile("red.global.add.f32 [%0], %1;\n" ::"l"(p), "f"(x) : "memory");
}

// Adds x to the four floats at p (16-byte aligned): one vector reduction on sm_90
// (red.global.add.v4.f32), four scalar ones before.
__device__ __forceinline__ void red_add4(float* p, const float (&x)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "f"(x[0]), "f"(x[1]), "f"(x[2]), "f"(x[3])
               : "memory");
#else
  for (int i = 0; i < 4; ++i) red_add(p + i, x[i]);
#endif
}

// Adds (x0, x1) to the floats p[0], p[1] (8-byte aligned): one vector reduction on sm_90
// (red.global.add.v2.f32), two scalar ones before.
__device__ __forceinline__ void red_add2(float* p, float x0, float x1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("red.global.add.v2.f32 [%0], {%1, %2};\n" ::"l"(p), "f"(x0), "f"(x1) : "memory");
#else
  red_add(p, x0);
  red_add(p + 1, x1);
#endif
}

}  // namespace flashattn::cuda::prim
