// The sm80 path's swizzled tiles (src/cuda/sm80/swizzle.h), checked on the CPU: the layout is a
// bijection that keeps 8-column chunks whole; every lane's ldmatrix address, computed the way
// tile.h computes it ((lane base ^ swz_xor) + swz_imm), points at the logical row and chunk the
// mma fragment needs (the PTX ISA's x4 matrix order for the A, B N-major and B K-major operands);
// the 8 rows of each 8 x 8 matrix fall in 8 different 16-byte bank groups; and the 8 chunks an
// 8-thread phase of load_tile's cp.async writes fill one 128-byte line; warp blocks that start
// at a column offset, and the backward's P / dS stores, address the same layout.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "cuda/sm80/swizzle.h"

namespace flashattn::test {
namespace {

using namespace flashattn::cuda::sm80;

// The lane's row (0..15) and chunk (0, 1) of a 16 x 16 block, from the order of the four 8 x 8
// matrices an ldmatrix.x4 returns for each operand (PTX ISA, mma.m16n8k16 fragments):
//   A [m][k]:            (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15)
//   B stored [n][k]:     (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15)
//   B stored [k][n] (.trans): (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15)
enum class Kind { kA, kBNMajor, kBKMajor };
void lane_row_chunk(Kind k, int lane, int* row, int* chunk) {
  const int m = lane / 8, r = lane % 8;
  if (k == Kind::kBNMajor) {
    *row = r + (m / 2) * 8;
    *chunk = m % 2;
  } else {
    *row = r + (m % 2) * 8;
    *chunk = m / 2;
  }
}

TEST(Sm80Swizzle, BijectionKeepsChunksWhole) {
  for (int cols : {64, 128, 192, 256}) {
    const int rows = 64;
    std::vector<int> hit(rows * cols, 0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const int o = swz_offset(r, c, cols);
        ASSERT_GE(o, 0);
        ASSERT_LT(o, rows * cols);
        ++hit[o];
        if (c % 8 != 0) EXPECT_EQ(o, swz_offset(r, c - c % 8, cols) + c % 8);
        EXPECT_EQ(o / cols, r) << "rows stay rows";
      }
    for (int h : hit) ASSERT_EQ(h, 1) << "cols " << cols;
  }
}

TEST(Sm80Swizzle, LdmatrixAddressesAndBanks) {
  for (int cols : {64, 128, 256}) {
    const uint32_t tile = 3 * 1024;  // a 128-byte aligned tile start in the shared window
    for (Kind kind : {Kind::kA, Kind::kBNMajor, Kind::kBKMajor})
      for (int row_base = 0; row_base + 32 <= 64; row_base += 8)  // the pointer's first row
        for (int rows = 0; row_base + rows + 16 <= 64; rows += 16)
          for (int j = 0; j < cols / 16; ++j) {
            std::set<uint32_t> groups[4];
            for (int lane = 0; lane < 32; ++lane) {
              int row, chunk;
              lane_row_chunk(kind, lane, &row, &chunk);
              const uint32_t base = tile + uint32_t(row_base * cols * 2) + swz_lane_base(row, chunk, cols);
              const uint32_t addr = (base ^ swz_xor(j)) + swz_imm(rows, j, cols);
              const uint32_t want =
                  tile + uint32_t(swz_offset(row_base + rows + row, 16 * j + 8 * chunk, cols)) * 2;
              ASSERT_EQ(addr, want) << "cols " << cols << " lane " << lane << " rows " << rows << " j " << j;
              groups[lane / 8].insert((addr / 16) % 8);
            }
            for (const auto& g : groups) EXPECT_EQ(g.size(), 8u) << "an 8 x 8 matrix's rows share a bank group";
          }
  }
}

// A warp block starting at chunk pair u (a multiple of its power-of-two pair count nj): tile.h's
// lane_base folds u into the lane's base ((base ^ swz_xor(u)) + (u / 4) 128), then the GEMM adds
// its pairs j < nj as for a block at column 0 (the backward's dQ, dV and dK operands).
TEST(Sm80Swizzle, WarpColumnOffsets) {
  for (int cols : {64, 128, 256})
    for (int nj : {1, 2, 4})
      for (int u = 0; u + nj <= cols / 16; u += nj)
        for (Kind kind : {Kind::kA, Kind::kBNMajor, Kind::kBKMajor})
          for (int rows = 0; rows + 16 <= 64; rows += 16)
            for (int j = 0; j < nj; ++j)
              for (int lane = 0; lane < 32; ++lane) {
                int row, chunk;
                lane_row_chunk(kind, lane, &row, &chunk);
                const uint32_t tile = 5 * 1024 + uint32_t(8 * cols * 2);  // a row base 8 rows in
                const uint32_t base = tile + ((swz_lane_base(row, chunk, cols) ^ swz_xor(u)) + uint32_t(u / 4) * 128);
                const uint32_t addr = (base ^ swz_xor(j)) + swz_imm(rows, j, cols);
                const uint32_t want = tile + uint32_t(swz_offset(rows + row, 16 * (u + j) + 8 * chunk, cols)) * 2;
                ASSERT_EQ(addr, want) << "cols " << cols << " u " << u << " j " << j << " lane " << lane;
              }
}

TEST(Sm80Swizzle, StoreOffsets) {
  for (int cols : {64, 128, 256})
    for (int p : {1, 2, 4, 8})
      for (int r = 0; r < 32; ++r)
        for (int c0 = 0; c0 < cols; c0 += 8 * p)
          for (int e = 0; e < 8; e += 2)
            for (int n = 0; n < p; ++n)
              ASSERT_EQ(swz_store_offset(r, c0 + e, n, cols), swz_offset(r, c0 + e + 8 * n, cols))
                  << "cols " << cols << " p " << p << " r " << r << " c0 " << c0 << " n " << n;
}

TEST(Sm80Swizzle, CpAsyncPhasesFillOneLine) {
  for (int cols : {64, 128, 256}) {
    const int chunks = cols / 8;
    for (int r = 0; r < 64; ++r)
      for (int w0 = 0; w0 < chunks; w0 += 8) {  // threads t .. t + 7: chunks w0 .. w0 + 7 of row r
        std::set<uint32_t> lines, slots;
        for (int w = w0; w < w0 + 8; ++w) {
          const uint32_t byte = uint32_t(swz_offset(r, 8 * w, cols)) * 2;
          lines.insert(byte / 128);
          slots.insert(byte / 16);
        }
        EXPECT_EQ(lines.size(), 1u) << "cols " << cols << " row " << r;
        EXPECT_EQ(slots.size(), 8u);
      }
  }
}

// load_tile's loop: a thread's first row r0 < step (its address from swz_offset), then rows
// r0 + i step at swz_row_step; every step that divides 8 or is a multiple of it.
TEST(Sm80Swizzle, RowStepAddresses) {
  const uint32_t tile = 0x4000;
  for (int cols : {64, 128, 192, 256})
    for (int step : {1, 2, 4, 8, 16, 32})
      for (int r0 = 0; r0 < step; ++r0)
        for (int c = 0; c < cols; c += 8) {
          const uint32_t first = tile + uint32_t(swz_offset(r0, c, cols)) * 2;
          for (int i = 0; r0 + i * step < 128; ++i)
            ASSERT_EQ(swz_row_step(first, i, step, cols), tile + uint32_t(swz_offset(r0 + i * step, c, cols)) * 2)
                << "cols " << cols << " step " << step << " r0 " << r0 << " c " << c << " i " << i;
        }
}

}  // namespace
}  // namespace flashattn::test
