// The CPU backend's one matrix kernel: C[M x N] (+)= A[M x K] * B[K x N], fp32, row-major, with
// register blocking (8 rows x 2 vectors of accumulators: 8 rows measured ~5% faster than 6 on Zen 4). N must be a multiple of kW: callers
// pad packed operands with zero columns, so there is no column remainder to handle.
#pragma once

#include "cpu/vec.h"

namespace flashattn::cpu {

template <int MR, int NV, bool kAccumulate>
inline void gemm_block(int K, const float* __restrict A, int lda, const float* __restrict B,
                       int ldb, float* __restrict C, int ldc) {
  vfloat acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = kAccumulate ? vload(C + r * ldc + v * kW) : vfloat{};
  for (int k = 0; k < K; ++k) {
    vfloat b[NV];
    for (int v = 0; v < NV; ++v) b[v] = vload(B + k * ldb + v * kW);
    for (int r = 0; r < MR; ++r) {
      const vfloat a = vbroadcast(A[r * lda + k]);
      for (int v = 0; v < NV; ++v) acc[r][v] += a * b[v];
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) vstore(C + r * ldc + v * kW, acc[r][v]);
}

template <int MR, bool kAccumulate>
inline void gemm_rows(int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
                      int ldc) {
  int n = 0;
  for (; n + 2 * kW <= N; n += 2 * kW) gemm_block<MR, 2, kAccumulate>(K, A, lda, B + n, ldb, C + n, ldc);
  if (n < N) gemm_block<MR, 1, kAccumulate>(K, A, lda, B + n, ldb, C + n, ldc);
}

// C (+)= A * B. Requires N % kW == 0; lda, ldb, ldc in elements.
template <bool kAccumulate>
inline void gemm(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
                 int ldc) {
  int m = 0;
  for (; m + 8 <= M; m += 8) gemm_rows<8, kAccumulate>(N, K, A + m * lda, lda, B, ldb, C + m * ldc, ldc);
  switch (M - m) {
    case 7: gemm_rows<7, kAccumulate>(N, K, A + m * lda, lda, B, ldb, C + m * ldc, ldc); break;
    case 6: gemm_rows<6, kAccumulate>(N, K, A + m * lda, lda, B, ldb, C + m * ldc, ldc); break;
    case 5: gemm_rows<5, kAccumulate>(N, K, A + m * lda, lda, B, ldb, C + m * ldc, ldc); break;
    case 4: gemm_rows<4, kAccumulate>(N, K, A + m * lda, lda, B, ldb, C + m * ldc, ldc); break;
    case 3: gemm_rows<3, kAccumulate>(N, K, A + m * lda, lda, B, ldb, C + m * ldc, ldc); break;
    case 2: gemm_rows<2, kAccumulate>(N, K, A + m * lda, lda, B, ldb, C + m * ldc, ldc); break;
    case 1: gemm_rows<1, kAccumulate>(N, K, A + m * lda, lda, B, ldb, C + m * ldc, ldc); break;
    default: break;
  }
}

// Rounds n up to a multiple of the vector width.
constexpr int pad_to_vec(int n) { return (n + kW - 1) / kW * kW; }

}  // namespace flashattn::cpu
