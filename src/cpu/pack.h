// Moving tiles between user tensors (any dtype, any strides) and the fp32 scratch tiles of the
// CPU backend. Padding rows and columns are written as zeros: the GEMM kernel reads them.
#pragma once

#include "common/dtype.h"
#include "dispatch/problem.h"

namespace flashattn::cpu {

// dst[r * ld + c] = src(b, row0 + r, h, c) for r < rows, c < cols; zero for c in [cols, ld)
// and for r in [rows, rows_pad).
inline void load_tile(const Operand& src, int64_t row_begin, int b, int h, int row0, int rows,
                      int rows_pad, int cols, float* dst, int ld) {
  for (int r = 0; r < rows_pad; ++r) {
    float* d = dst + int64_t(r) * ld;
    int c = 0;
    if (r < rows) {
      const int64_t base = src.index(row_begin, b, row0 + r, h);
      switch (src.dtype) {
        case DType::Float32: {
          const float* s = static_cast<const float*>(src.data) + base;
          for (; c < cols; ++c) d[c] = s[c];
          break;
        }
        case DType::Float16: {
          const uint16_t* s = static_cast<const uint16_t*>(src.data) + base;
          for (; c < cols; ++c) d[c] = half_to_float(s[c]);
          break;
        }
        case DType::BFloat16: {
          const uint16_t* s = static_cast<const uint16_t*>(src.data) + base;
          for (; c < cols; ++c) d[c] = bf16_to_float(s[c]);
          break;
        }
      }
    }
    for (; c < ld; ++c) d[c] = 0.0f;
  }
}

// dst[c * ld + r] = src(b, row0 + r, h, c): the transpose, zero for r in [rows, ld).
inline void load_tile_transposed(const Operand& src, int64_t row_begin, int b, int h, int row0,
                                 int rows, int cols, float* dst, int ld) {
  for (int c = 0; c < cols; ++c)
    for (int r = rows; r < ld; ++r) dst[int64_t(c) * ld + r] = 0.0f;
  for (int r = 0; r < rows; ++r) {
    const int64_t base = src.index(row_begin, b, row0 + r, h);
    for (int c = 0; c < cols; ++c) dst[int64_t(c) * ld + r] = load_float(src.data, src.dtype, base + c);
  }
}

// dst(b, row0 + r, h, c) = scale * src[r * ld + c] for r < rows, c < cols, rounded to dst's dtype.
inline void store_tile(const Operand& dst, int64_t row_begin, int b, int h, int row0, int rows,
                       int cols, const float* src, int ld, float scale) {
  for (int r = 0; r < rows; ++r) {
    const int64_t base = dst.index(row_begin, b, row0 + r, h);
    const float* s = src + int64_t(r) * ld;
    switch (dst.dtype) {
      case DType::Float32: {
        float* d = static_cast<float*>(dst.data) + base;
        for (int c = 0; c < cols; ++c) d[c] = s[c] * scale;
        break;
      }
      case DType::Float16: {
        uint16_t* d = static_cast<uint16_t*>(dst.data) + base;
        for (int c = 0; c < cols; ++c) d[c] = float_to_half(s[c] * scale);
        break;
      }
      case DType::BFloat16: {
        uint16_t* d = static_cast<uint16_t*>(dst.data) + base;
        for (int c = 0; c < cols; ++c) d[c] = float_to_bf16(s[c] * scale);
        break;
      }
    }
  }
}

// out = in^T: out[j * ld_out + i] = in[i * ld_in + j] for i < in_rows, j < in_cols.
inline void transpose(const float* in, int ld_in, int in_rows, int in_cols, float* out, int ld_out) {
  for (int i = 0; i < in_rows; ++i)
    for (int j = 0; j < in_cols; ++j) out[int64_t(j) * ld_out + i] = in[int64_t(i) * ld_in + j];
}

}  // namespace flashattn::cpu
