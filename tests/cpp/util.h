// Test helpers: host tensors with poisoned guard bands, random data, and the tolerance rule
//   fp16/bf16: max|ours - ref| <= 2 * max|naive_lowprec - ref| + floor,  floor = 1e-5 * max(1, max|ref|)
//   fp32:      max|ours - ref| <= floor
// The floor is relative to max(1, max|ref|), not to max|ref| alone: a gradient that is exactly 0
// by cancellation (a row that sees a single key has dS = dP - D = 0) is computed from terms of
// size ~1 and carries their rounding noise.
// NaN never passes.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "flashattn/flashattn.h"

namespace flashattn::test {

// A tensor in host memory, densely packed in its shape, surrounded by guard bands of poison.
struct HostTensor {
  // Elements of poison before and after: wide enough that a view of another small tensor placed
  // on this one (the aliasing tests) stays inside this allocation.
  static constexpr int64_t kGuard = 1024;
  std::vector<uint8_t> bytes;
  TensorView view;

  HostTensor() = default;
  HostTensor(DType dtype, std::vector<int64_t> shape) { init(dtype, shape); }
  // Copies own their bytes: the view is rebased onto the copy's buffer.
  HostTensor(const HostTensor& other) : bytes(other.bytes), view(other.view) { rebase(other); }
  HostTensor& operator=(const HostTensor& other) {
    if (this != &other) {
      bytes = other.bytes;
      view = other.view;
      rebase(other);
    }
    return *this;
  }
  HostTensor(HostTensor&&) = default;  // a moved vector keeps its buffer
  HostTensor& operator=(HostTensor&&) = default;

  void init(DType dtype, const std::vector<int64_t>& shape) {
    const int64_t es = int64_t(dtype_size(dtype));
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    bytes.assign(size_t((n + 2 * kGuard) * es), 0);
    view = TensorView{};
    view.data = bytes.data() + kGuard * es;
    view.dtype = dtype;
    view.rank = int(shape.size());
    int64_t stride = 1;
    for (int d = view.rank - 1; d >= 0; --d) {
      view.shape[d] = shape[d];
      view.stride[d] = stride;
      stride *= shape[d];
    }
    poison();
  }
  void rebase(const HostTensor& other) {
    if (other.view.data != nullptr)
      view.data = bytes.data() + (static_cast<const uint8_t*>(other.view.data) - other.bytes.data());
  }
  int64_t numel() const { return view.numel(); }
  float get(int64_t i) const { return load_float(view.data, view.dtype, i); }
  void set(int64_t i, float x) { store_float(view.data, view.dtype, i, x); }

  // Fill everything (guards included) with a NaN pattern.
  void poison() {
    const int64_t es = int64_t(dtype_size(view.dtype));
    for (size_t i = 0; i + es <= bytes.size(); i += size_t(es)) {
      if (es == 4) {
        const uint32_t nan = 0x7fc0dead;
        std::memcpy(&bytes[i], &nan, 4);
      } else {
        const uint16_t nan = 0x7fff;
        std::memcpy(&bytes[i], &nan, 2);
      }
    }
  }
  // True iff the guard bands still hold the poison.
  bool guards_intact() const {
    const int64_t es = int64_t(dtype_size(view.dtype));
    const uint8_t* begin = static_cast<const uint8_t*>(view.data);
    const uint8_t* end = begin + numel() * es;
    auto check = [&](const uint8_t* p) {
      if (es == 4) {
        uint32_t u;
        std::memcpy(&u, p, 4);
        return u == 0x7fc0deadu;
      }
      uint16_t u;
      std::memcpy(&u, p, 2);
      return u == 0x7fff;
    };
    for (const uint8_t* p = bytes.data(); p < begin; p += es)
      if (!check(p)) return false;
    for (const uint8_t* p = end; p < bytes.data() + bytes.size(); p += es)
      if (!check(p)) return false;
    return true;
  }
  void fill_normal(std::mt19937_64& rng, float stddev = 1.0f, float mean = 0.0f) {
    std::normal_distribution<float> dist(mean, stddev);
    for (int64_t i = 0; i < numel(); ++i) set(i, dist(rng));
  }
  void fill_uniform(std::mt19937_64& rng, float lo, float hi) {
    std::uniform_real_distribution<float> dist(lo, hi);
    for (int64_t i = 0; i < numel(); ++i) set(i, dist(rng));
  }
  // True iff every byte, guards and elements alike, still holds the poison of poison().
  bool all_poisoned() const {
    HostTensor fresh;
    fresh.bytes.assign(bytes.size(), 0);
    fresh.view = view;
    fresh.view.data = fresh.bytes.data() + (static_cast<const uint8_t*>(view.data) - bytes.data());
    fresh.poison();
    return fresh.bytes == bytes;
  }
  // Bitwise equality of the elements (not the guards).
  bool same_bits(const HostTensor& other) const {
    const size_t n = size_t(numel()) * dtype_size(view.dtype);
    return numel() == other.numel() && view.dtype == other.view.dtype &&
           std::memcmp(view.data, other.view.data, n) == 0;
  }
  // Number of elements that are NaN.
  int64_t nan_count() const {
    int64_t n = 0;
    for (int64_t i = 0; i < numel(); ++i) n += std::isnan(get(i)) ? 1 : 0;
    return n;
  }
  std::vector<double> to_double() const {
    std::vector<double> out(static_cast<size_t>(numel()));
    for (int64_t i = 0; i < numel(); ++i) out[size_t(i)] = get(i);
    return out;
  }
};

struct Comparison {
  double max_err = 0;    // max |ours - ref|
  double lowp_err = 0;   // max |naive low precision - ref|
  double ref_max = 0;    // max |ref|
  double bound = 0;
  int64_t nan_count = 0;
  int64_t lowp_nonfinite = 0;  // elements where the low-precision yardstick is inf or NaN
  int64_t worst = -1;
  bool ok = false;
  std::string describe(const std::string& what) const {
    return what + ": max_err=" + std::to_string(max_err) + " bound=" + std::to_string(bound) +
           " lowp_err=" + std::to_string(lowp_err) + " ref_max=" + std::to_string(ref_max) +
           " nan=" + std::to_string(nan_count) + " lowp_nonfinite=" + std::to_string(lowp_nonfinite) +
           " worst_index=" + std::to_string(worst);
  }
};

// Applies the tolerance rule. `lowp` may be empty for float32. `extra` is an absolute allowance
// added to the bound (the backward's allowances, see harness.h).
inline Comparison compare(DType dtype, const std::vector<double>& ours, const std::vector<double>& ref,
                          const std::vector<double>& lowp, double extra = 0.0) {
  Comparison c;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (std::isnan(ours[i]) || std::isnan(ref[i])) {
      // A NaN in ours never passes; a NaN in the reference means the test itself is broken.
      ++c.nan_count;
      continue;
    }
    const bool both_inf = std::isinf(ours[i]) && std::isinf(ref[i]) && (ours[i] > 0) == (ref[i] > 0);
    const double e = both_inf ? 0.0 : std::fabs(ours[i] - ref[i]);
    if (!(e <= c.max_err)) {
      c.max_err = e;
      c.worst = int64_t(i);
    }
    if (!std::isinf(ref[i])) c.ref_max = std::max(c.ref_max, std::fabs(ref[i]));
    if (!lowp.empty() && !std::isinf(ref[i])) {
      // A yardstick that overflowed (or went NaN) would make the bound infinite: count it as a
      // failure of the test's configuration rather than let anything pass.
      const double le = std::fabs(lowp[i] - ref[i]);
      if (std::isfinite(le)) c.lowp_err = std::max(c.lowp_err, le);
      else ++c.lowp_nonfinite;
    }
  }
  const double floor = 1e-5 * std::max(1.0, c.ref_max);
  c.bound = (dtype == DType::Float32 ? floor : 2.0 * c.lowp_err + floor) + extra;
  c.ok = c.nan_count == 0 && c.lowp_nonfinite == 0 && c.max_err <= c.bound;
  return c;
}

}  // namespace flashattn::test
