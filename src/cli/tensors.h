// Host tensors for the benchmark: owned, 64-byte aligned, densely packed memory with a view.
// Random fills are deterministic for a seed whatever the thread count (each 64K-element chunk
// has its own generator), and outputs are poisoned with NaN so an unwritten element shows.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>

#include "flashattn/tensor.h"

namespace flashattn::cli {

class HostTensor {
 public:
  HostTensor() = default;
  HostTensor(DType dtype, std::initializer_list<int64_t> shape);

  const TensorView& view() const { return view_; }
  DType dtype() const { return view_.dtype; }
  int64_t numel() const { return view_.numel(); }
  std::size_t bytes() const { return std::size_t(numel()) * dtype_size(view_.dtype); }
  bool defined() const { return view_.defined(); }

  float get(int64_t i) const;
  void set(int64_t i, float x);

  // Standard normal values (rounded to the dtype); `stream` separates tensors of one seed.
  void fill_normal(uint64_t seed, uint64_t stream);
  // Every element becomes a quiet NaN.
  void poison();
  // Elements that are NaN or +inf (and -inf too unless allow_neg_inf).
  int64_t count_nonfinite(bool allow_neg_inf = false) const;
  // A float32 copy with the same shape.
  HostTensor to_float32() const;

 private:
  struct Free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, Free> data_;
  TensorView view_;
};

}  // namespace flashattn::cli
