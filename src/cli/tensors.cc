// HostTensor: allocation, Box-Muller normal fills from SplitMix64 streams, poisoning, scans.
#include "cli/tensors.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>

#include "common/dtype.h"

namespace flashattn::cli {
namespace {

constexpr int64_t kChunk = int64_t(1) << 16;

uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A uniform double in (0, 1]: never 0, so log() in Box-Muller stays finite.
double uniform(uint64_t* state) { return (double(splitmix64(state) >> 11) + 1.0) * 0x1.0p-53; }

}  // namespace

void HostTensor::Free::operator()(void* p) const { std::free(p); }

HostTensor::HostTensor(DType dtype, std::initializer_list<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  const std::size_t bytes = (std::size_t(n) * dtype_size(dtype) + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, bytes == 0 ? 64 : bytes);
  if (p == nullptr) throw std::bad_alloc();
  data_.reset(p);
  view_ = TensorView::contiguous(p, dtype, shape);
}

float HostTensor::get(int64_t i) const { return load_float(view_.data, view_.dtype, i); }
void HostTensor::set(int64_t i, float x) { store_float(view_.data, view_.dtype, i, x); }

void HostTensor::fill_normal(uint64_t seed, uint64_t stream) {
  const int64_t n = numel();
  const int64_t chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    uint64_t state = seed * 0xD1B54A32D192ED03ull + stream * 0x8CB92BA72F3D8DD7ull + uint64_t(c);
    splitmix64(&state);
    const int64_t end = std::min(n, (c + 1) * kChunk);
    for (int64_t i = c * kChunk; i < end; i += 2) {
      const double r = std::sqrt(-2.0 * std::log(uniform(&state)));
      const double t = 2.0 * M_PI * uniform(&state);
      set(i, float(r * std::cos(t)));
      if (i + 1 < end) set(i + 1, float(r * std::sin(t)));
    }
  }
}

void HostTensor::poison() {
  const int64_t n = numel();
  const float nan = std::nanf("");
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) set(i, nan);
}

int64_t HostTensor::count_nonfinite(bool allow_neg_inf) const {
  const int64_t n = numel();
  int64_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
  for (int64_t i = 0; i < n; ++i) {
    const float x = get(i);
    if (std::isfinite(x) || (allow_neg_inf && x == -INFINITY)) continue;
    ++bad;
  }
  return bad;
}

HostTensor HostTensor::to_float32() const {
  HostTensor copy;
  const std::size_t bytes = (std::size_t(numel()) * 4 + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, bytes == 0 ? 64 : bytes);
  if (p == nullptr) throw std::bad_alloc();
  copy.data_.reset(p);
  copy.view_ = view_;
  copy.view_.data = p;
  copy.view_.dtype = DType::Float32;
  const int64_t n = numel();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) copy.set(i, get(i));
  return copy;
}

}  // namespace flashattn::cli
