// A CPU model of the sm90 kernels' shared-memory traffic, shared by tests/cpp/test_sm90_layout.cc
// (forward) and test_sm90_bwd_layout.cc (backward): what TMA writes (64-column boxes,
// CU_TENSOR_MAP_SWIZZLE_128B) and how wgmma reads an operand through a matrix descriptor (the
// canonical 128-byte-swizzled K-major and MN-major layouts of the PTX ISA). The kernels' own
// geometry and descriptor arithmetic (cuda/sm90/*config.h, desc.h) drive it.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace flashattn::test::sm90_model {

// Swizzle<3,4,3> on byte addresses: the 16-byte chunk index (bits 4-6) XOR the row within the
// 8-row atom (bits 7-9).
inline uint32_t swizzle(uint32_t a) { return a ^ (((a >> 7) & 7u) << 4); }

struct Fields {
  uint32_t start, lbo, sbo, mode;
};
inline Fields decode(uint64_t d) {
  return {uint32_t(d & 0x3FFF) << 4, uint32_t((d >> 16) & 0x3FFF) << 4, uint32_t((d >> 32) & 0x3FFF) << 4,
          uint32_t(d >> 62)};
}

struct Smem {
  std::vector<double> v;  // one value per 16-bit element; NaN: never written
  explicit Smem(int bytes) : v(size_t(bytes) / 2, std::nan("")) {}
  double& at(uint32_t byte) { return v.at(byte / 2); }
};

using Matrix = std::vector<std::vector<double>>;
// Small integers (exact in every dtype and in the products' sums); columns past valid_cols 0.
inline Matrix random_matrix(int rows, int cols, int valid_cols, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-2, 2);
  Matrix m(rows, std::vector<double>(cols, 0.0));
  for (auto& r : m)
    for (int c = 0; c < valid_cols; ++c) r[c] = d(rng);
  return m;
}

// TMA: rows x (panels * 64) of `t` (columns past its width read as zeros), panel p at
// base + p * panel_bytes, row r at + r * 128, swizzled.
inline void tma_store(Smem& s, uint32_t base, const Matrix& t, int panels, int panel_bytes) {
  for (int p = 0; p < panels; ++p)
    for (size_t r = 0; r < t.size(); ++r)
      for (int c = 0; c < 64; ++c) {
        const int col = p * 64 + c;
        s.at(swizzle(base + p * panel_bytes + uint32_t(r) * 128 + c * 2)) = col < int(t[r].size()) ? t[r][col] : 0.0;
      }
}

// wgmma's view of a K-major operand (rows x 16): element (m, k) at start + (m / 8) * SBO +
// (m % 8) * 128 + 2k, swizzled.
inline double read_k_major(Smem& s, uint64_t desc, int m, int k) {
  const Fields f = decode(desc);
  return s.at(swizzle(f.start + (m / 8) * f.sbo + (m % 8) * 128 + k * 2));
}
// ... of an MN-major B operand (16 x N): element (k, n) at start + (n / 64) * LBO + (k / 8) * SBO
// + (k % 8) * 128 + 2 (n % 64), swizzled.
inline double read_mn_major(Smem& s, uint64_t desc, int k, int n) {
  const Fields f = decode(desc);
  return s.at(swizzle(f.start + (n / 64) * f.lbo + (k / 8) * f.sbo + (k % 8) * 128 + (n % 64) * 2));
}

}  // namespace flashattn::test::sm90_model
