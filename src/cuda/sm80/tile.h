// Shared-memory tiles and warp-level GEMMs of the sm80 path.
// A tile is kRows x kCols 16-bit elements, row-major, in one of two layouts: padded, a row pitch
// of kCols + 8 (the 16-byte pad puts the 8 rows an ldmatrix reads in 8 different 16-byte bank
// groups for every head_dim tier: pitch = 16 mod 128 bytes, or 80 mod 128), or swizzled
// (swizzle.h: no pad, kCols % 64 == 0; the configs choose it where it fits and measured faster).
#pragma once

#include <cstdint>

#include "cuda/prim/cp_async.h"
#include "cuda/prim/ldmatrix.h"
#include "cuda/prim/math.h"
#include "cuda/prim/mma.h"
#include "cuda/sm80/swizzle.h"

namespace flashattn::cuda::sm80 {

template <int kCols>
struct Pitch {
  static_assert(kCols % 16 == 0, "tile columns must be a multiple of 16 (one mma k-step)");
  static constexpr int value = kCols + 8;
};

// Element offset of (r, c) in a tile of kCols columns: padded rows (Pitch), or swizzled
// (swizzle.h: no pad, kCols % 64 == 0).
template <int kCols, bool kSwz>
__device__ __forceinline__ int tile_offset(int r, int c) {
  if constexpr (kSwz) return swz_offset(r, c, kCols);
  else return r * Pitch<kCols>::value + c;
}

// Global -> shared copy of a kRows x kCols tile starting at `g` (row stride `g_row_stride` in
// elements). Rows >= rows_valid and columns >= cols_valid are zero-filled, so padded head dims and
// partial blocks contribute nothing. `aligned`: 16-byte cp.async (needs cols_valid % 8 == 0 and
// 16-byte aligned rows); else element-wise loads and stores, visible after the next barrier.
// kSwz: the tile is swizzled (swizzle.h).
template <int kRows, int kCols, int kThreads, bool kSwz = false, typename T>
__device__ __forceinline__ void load_tile(T* s, const T* g, int64_t g_row_stride, int rows_valid,
                                          int cols_valid, bool aligned) {
  constexpr int kChunks = kCols / 8;  // 16-byte chunks per row
  constexpr int kPitch = kSwz ? kCols : Pitch<kCols>::value;
  constexpr int kIters = (kRows * kChunks + kThreads - 1) / kThreads;
  static_assert(!kSwz || kCols % 64 == 0, "swizzled tiles have whole 128-byte segments");
  if (aligned) {
    if constexpr (kThreads % kChunks == 0 && kRows % (kThreads / kChunks) == 0) {
      // Each thread copies one fixed column chunk of every (kThreads / kChunks)-th row: one base
      // pointer and one stride, so the copy keeps few registers live in the kernels' main loops.
      constexpr int kRowStep = kThreads / kChunks;
      // Swizzled, a row step below 8 (head_dim 256 on four warps: 4) flips the chunk bits each
      // step (swizzle.h: swz_row_step).
      static_assert(!kSwz || kRowStep % 8 == 0 || 8 % kRowStep == 0, "swizzled: row steps divide 8");
      const int r0 = int(threadIdx.x) / kChunks, col = (int(threadIdx.x) % kChunks) * 8;
      const T* src = g + r0 * g_row_stride + col;
      const int64_t step = kRowStep * g_row_stride;
      const uint32_t dst = prim::cvta_shared(s + tile_offset<kCols, kSwz>(r0, col));
      const bool col_ok = col < cols_valid;
#pragma unroll
      for (int it = 0; it < kRows / kRowStep; ++it) {
        const bool valid = col_ok && r0 + it * kRowStep < rows_valid;
        const uint32_t at = kSwz ? swz_row_step(dst, it, kRowStep, kCols) : dst + it * kRowStep * kPitch * 2;
        prim::cp_async_16(at, valid ? src : g, valid ? 16 : 0);
        src += step;
      }
    } else {
#pragma unroll
      for (int it = 0; it < kIters; ++it) {
        const int c = it * kThreads + int(threadIdx.x);
        if (kRows * kChunks % kThreads != 0 && c >= kRows * kChunks) break;
        const int r = c / kChunks, col = (c % kChunks) * 8;
        const bool valid = r < rows_valid && col < cols_valid;
        const T* src = valid ? g + r * g_row_stride + col : g;
        prim::cp_async_16(prim::cvta_shared(s + tile_offset<kCols, kSwz>(r, col)), src, valid ? 16 : 0);
      }
    }
  } else {
    for (int c = threadIdx.x; c < kRows * kChunks; c += kThreads) {
      const int r = c / kChunks, col0 = (c % kChunks) * 8;
      uint16_t v[8];
#pragma unroll
      for (int e = 0; e < 8; ++e) {
        const bool valid = r < rows_valid && col0 + e < cols_valid;
        v[e] = valid ? reinterpret_cast<const uint16_t*>(g)[r * g_row_stride + col0 + e] : uint16_t(0);
      }
      uint4 packed;
      packed.x = v[0] | (uint32_t(v[1]) << 16);
      packed.y = v[2] | (uint32_t(v[3]) << 16);
      packed.z = v[4] | (uint32_t(v[5]) << 16);
      packed.w = v[6] | (uint32_t(v[7]) << 16);
      *reinterpret_cast<uint4*>(s + tile_offset<kCols, kSwz>(r, col0)) = packed;
    }
  }
}

// This lane's ldmatrix row address for a 16x16 operand block at (row0, col0) of a tile with
// pitch `pitch`, in the four orders the GEMMs below need (see prim/mma.h for fragment layouts):
//   kARowMajor:  A stored [m][k]          -> a0..a3 of one 16x16 A block
//   kATransposed: A stored [k][m]         -> a0..a3 (ldmatrix .trans)
//   kBNMajor:    B stored [n][k]          -> b0,b1 of n-tile 0, then b0,b1 of n-tile 1
//   kBKMajor:    B stored [k][n]          -> same registers (ldmatrix .trans)
enum class Operand { kARowMajor, kATransposed, kBNMajor, kBKMajor };

// The lane's row (0..15) and 8-column chunk (0, 1) of the 16 x 16 block: its offset is
// row * pitch + chunk * 8 (written out in lane_offset, whose form the padded kernels' SASS was
// measured with).
template <Operand kOp>
__device__ __forceinline__ void lane_row_chunk(int lane, int* row, int* chunk) {
  const int i = lane / 8, r = lane % 8;
  const bool a = kOp == Operand::kARowMajor || kOp == Operand::kBKMajor;
  *row = r + (a ? i % 2 : i / 2) * 8;
  *chunk = a ? i / 2 : i % 2;
}

template <Operand kOp>
__device__ __forceinline__ int lane_offset(int lane, int pitch) {
  const int i = lane / 8, r = lane % 8;
  if (kOp == Operand::kARowMajor) return (r + (i % 2) * 8) * pitch + (i / 2) * 8;
  if (kOp == Operand::kATransposed) return (r + (i / 2) * 8) * pitch + (i % 2) * 8;
  if (kOp == Operand::kBNMajor) return (r + (i / 2) * 8) * pitch + (i % 2) * 8;
  return (r + (i % 2) * 8) * pitch + (i / 2) * 8;  // kBKMajor
}

// The lane's ldmatrix base address in a tile whose block (0, 0) starts at row `s` (a multiple
// of 8), column col0 (a multiple of 16): padded, pitch elements a row; or swizzled, kCols
// columns (swizzle.h), where col0 / 16 must have no bit in common with the chunk pairs j the
// GEMM then adds (a multiple of their power-of-two count), so that pair col0 / 16 + j is
// col0 / 16 ^ j and its XOR splits in two.
template <Operand kOp, int kPitch, bool kSwz, typename T>
__device__ __forceinline__ uint32_t lane_base(const T* s, int lane, int col0) {
  if constexpr (kSwz) {
    int row, chunk;
    lane_row_chunk<kOp>(lane, &row, &chunk);
    const int u = col0 / 16;
    return prim::cvta_shared(s) + ((swz_lane_base(row, chunk, kPitch) ^ swz_xor(u)) + uint32_t(u / 4) * 128);
  } else {
    return prim::cvta_shared(s + lane_offset<kOp>(lane, kPitch) + col0);
  }
}

// Address of the 16 x 16 block whose rows start `rows` below the lane base (a multiple of 16)
// and whose columns start at chunk pair j (column 16 j).
template <int kPitch, bool kSwz>
__device__ __forceinline__ uint32_t block_addr(uint32_t base, int rows, int j) {
  if constexpr (kSwz) return (base ^ swz_xor(j)) + swz_imm(rows, j, kPitch);
  else return base + (rows * kPitch + j * 16) * 2;
}

// acc[MT][NT] += A (MT*16 x K) * B (K x NT*8), both in shared memory.
//   sA: kARowMajor -> &A[m0][k0] of a [m][k] tile; kATransposed -> &S[k0][m0] of a [k][m] tile.
//   sB: kBNMajor  -> &B[n0][k0] of a [n][k] tile;  kBKMajor    -> &S[k0][n0] of a [k][n] tile.
// kSwz: both tiles swizzled (kPitch = their columns; sA, sB at a row that is a multiple of 8,
// their first columns a_col0, b_col0 as lane_base requires).
// hook(kk), if given, runs after k-step kk's mma (work to interleave with the GEMM's).
struct NoHook {
  __device__ __forceinline__ void operator()(int) const {}
};
template <int MT, int NT, int K, Operand kA, Operand kB, int kPitchA, int kPitchB, bool kSwz = false, typename T,
          typename Hook = NoHook>
__device__ __forceinline__ void warp_gemm_ss(float (&acc)[MT][NT][4], const T* sA, const T* sB, int lane,
                                             int a_col0 = 0, int b_col0 = 0, Hook hook = Hook()) {
  static_assert(NT % 2 == 0, "B fragments are loaded two n-tiles at a time");
  static_assert(K % 16 == 0, "K must be whole mma k-steps");
  const uint32_t a_base = lane_base<kA, kPitchA, kSwz>(sA, lane, a_col0);
  const uint32_t b_base = lane_base<kB, kPitchB, kSwz>(sB, lane, b_col0);
#pragma unroll
  for (int kk = 0; kk < K / 16; ++kk) {
    uint32_t a[MT][4];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
      // Block (mt, kk): rows advance along m, columns along k (or swapped).
      if (kA == Operand::kARowMajor) prim::ldmatrix_x4(a[mt], block_addr<kPitchA, kSwz>(a_base, mt * 16, kk));
      else prim::ldmatrix_x4_trans(a[mt], block_addr<kPitchA, kSwz>(a_base, kk * 16, mt));
    }
#pragma unroll
    for (int np = 0; np < NT / 2; ++np) {
      uint32_t b[4];
      if (kB == Operand::kBNMajor) prim::ldmatrix_x4(b, block_addr<kPitchB, kSwz>(b_base, np * 16, kk));
      else prim::ldmatrix_x4_trans(b, block_addr<kPitchB, kSwz>(b_base, kk * 16, np));
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) {
        prim::mma_m16n8k16(acc[mt][2 * np], a[mt], b[0], b[1], T());
        prim::mma_m16n8k16(acc[mt][2 * np + 1], a[mt], b[2], b[3], T());
      }
    }
    hook(kk);
  }
}

// acc[MT][NT] += A * B with A already in registers as mma A fragments: a[mt][kk][4] covers rows
// mt*16.., k columns kk*16... B as in warp_gemm_ss.
template <int MT, int NT, int K, Operand kB, int kPitchB, bool kSwz = false, typename T>
__device__ __forceinline__ void warp_gemm_rs(float (&acc)[MT][NT][4], const uint32_t (&a)[MT][K / 16][4],
                                             const T* sB, int lane) {
  static_assert(NT % 2 == 0, "B fragments are loaded two n-tiles at a time");
  const uint32_t b_base = lane_base<kB, kPitchB, kSwz>(sB, lane, 0);
#pragma unroll
  for (int kk = 0; kk < K / 16; ++kk) {
#pragma unroll
    for (int np = 0; np < NT / 2; ++np) {
      uint32_t b[4];
      if (kB == Operand::kBNMajor) prim::ldmatrix_x4(b, block_addr<kPitchB, kSwz>(b_base, np * 16, kk));
      else prim::ldmatrix_x4_trans(b, block_addr<kPitchB, kSwz>(b_base, kk * 16, np));
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) {
        prim::mma_m16n8k16(acc[mt][2 * np], a[mt][kk], b[0], b[1], T());
        prim::mma_m16n8k16(acc[mt][2 * np + 1], a[mt][kk], b[2], b[3], T());
      }
    }
  }
}

template <int MT, int NT>
__device__ __forceinline__ void scale(float (&acc)[MT][NT][4], float f) {
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mt][nt][e] *= f;
}

template <int MT, int NT>
__device__ __forceinline__ void zero(float (&acc)[MT][NT][4]) {
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mt][nt][e] = 0.0f;
}

// Writes a warp's fp32 accumulator block (rows r0 + mt*16 + g (+8), columns c0 + nt*8 + 2t (+1))
// to global memory as T, for rows < rows_valid and columns < cols_valid. `aligned` (16-byte
// aligned rows, cols_valid a multiple of 8; uniform over the warp): with whole groups of four
// n-tiles, 16-byte stores (prim::store_quad_tiles); else one 4-byte store a pair; unaligned,
// element by element.
template <int MT, int NT, typename T>
__device__ __forceinline__ void store_acc(const float (&acc)[MT][NT][4], T* g, int64_t row_stride, int r0,
                                          int c0, int rows_valid, int cols_valid, bool aligned, int lane) {
  const int gr = lane / 4, t = lane % 4;
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = r0 + mt * 16 + gr + half * 8;
      if constexpr (NT % 4 == 0) {
        if (aligned) {
          // The shuffles run in every lane: the quads of a warp are different rows.
#pragma unroll
          for (int j = 0; j < NT / 4; ++j) {
            uint32_t w[4];
#pragma unroll
            for (int c = 0; c < 4; ++c)
              w[c] = prim::pack2(acc[mt][4 * j + c][2 * half], acc[mt][4 * j + c][2 * half + 1], T());
            prim::store_quad_tiles(g + r * row_stride, c0 + 32 * j, w, t, r < rows_valid, cols_valid);
          }
          continue;
        }
      }
      if (r >= rows_valid) continue;
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) {
        const int c = c0 + nt * 8 + 2 * t;
        T* dst = g + r * row_stride + c;
        const float x0 = acc[mt][nt][2 * half], x1 = acc[mt][nt][2 * half + 1];
        if (aligned && c + 1 < cols_valid) {
          *reinterpret_cast<uint32_t*>(dst) = prim::pack2(x0, x1, T());
        } else {
          if (c < cols_valid) dst[0] = prim::from_float<T>(x0);
          if (c + 1 < cols_valid) dst[1] = prim::from_float<T>(x1);
        }
      }
    }
}

}  // namespace flashattn::cuda::sm80
