// Non-owning tensor views: a pointer, a dtype, a shape and strides in elements.
// Only the last dimension must be contiguous (stride 1); the library never copies a view's data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace flashattn {

enum class DType : int { Float32 = 0, Float16 = 1, BFloat16 = 2 };

// Size of one element in bytes.
std::size_t dtype_size(DType dtype);
// "float32", "float16" or "bfloat16".
const char* dtype_name(DType dtype);

constexpr int kMaxRank = 4;

struct TensorView {
  void* data = nullptr;
  DType dtype = DType::Float32;
  int rank = 0;
  int64_t shape[kMaxRank] = {0, 0, 0, 0};
  int64_t stride[kMaxRank] = {0, 0, 0, 0};  // in elements, not bytes

  bool defined() const { return data != nullptr; }
  int64_t numel() const;
  // Byte offset of the element at the given multi-index.
  int64_t offset_of(const int64_t* index) const;

  // A densely packed (row-major) view.
  static TensorView contiguous(void* data, DType dtype, std::initializer_list<int64_t> shape);
  // A view with explicit strides (in elements).
  static TensorView strided(void* data, DType dtype, std::initializer_list<int64_t> shape,
                            std::initializer_list<int64_t> stride);
};

}  // namespace flashattn
