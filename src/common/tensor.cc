// TensorView helpers and dtype names.
#include "flashattn/tensor.h"

namespace flashattn {

std::size_t dtype_size(DType dtype) { return dtype == DType::Float32 ? 4 : 2; }

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Float32: return "float32";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
  }
  return "unknown";
}

int64_t TensorView::numel() const {
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) n *= shape[d];
  return n;
}

int64_t TensorView::offset_of(const int64_t* index) const {
  int64_t off = 0;
  for (int d = 0; d < rank; ++d) off += index[d] * stride[d];
  return off * int64_t(dtype_size(dtype));
}

TensorView TensorView::contiguous(void* data, DType dtype, std::initializer_list<int64_t> shape) {
  TensorView t;
  t.data = data;
  t.dtype = dtype;
  t.rank = int(shape.size());
  int d = 0;
  for (int64_t s : shape) t.shape[d++] = s;
  int64_t stride = 1;
  for (d = t.rank - 1; d >= 0; --d) {
    t.stride[d] = stride;
    stride *= t.shape[d];
  }
  return t;
}

TensorView TensorView::strided(void* data, DType dtype, std::initializer_list<int64_t> shape,
                               std::initializer_list<int64_t> stride) {
  TensorView t;
  t.data = data;
  t.dtype = dtype;
  t.rank = int(shape.size());
  int d = 0;
  for (int64_t s : shape) t.shape[d++] = s;
  d = 0;
  for (int64_t s : stride) t.stride[d++] = s;
  return t;
}

}  // namespace flashattn
