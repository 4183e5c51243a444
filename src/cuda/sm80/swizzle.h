// Swizzled shared-memory tiles of the sm80 path (the default at head_dim 64, 128 and 256: fwd_kernel.h
// FwdConfig, bwd_kernel.h BwdConfig::kSwizzleFits; measured in bench/NOTES.md session 13):
// rows of `cols` 16-bit elements (cols % 64 == 0) with no pad, the 16-byte chunk w of each
// 128-byte segment of row r stored at chunk w ^ (r % 8). An 8-lane phase of 16-byte cp.async
// stores then fills one 128-byte line (the padded tiles' rows, 16 bytes apart mod 128, split 7
// phases in 8 over two lines: 2.6x the ideal shared wavefronts, session 12 run 4), and the 8 rows
// an ldmatrix reads at one logical chunk still sit in 8 bank groups. Host and device: the CPU test
// (tests/cpp/test_sm80_swizzle.cc) checks every address below against swz_offset.
#pragma once

#include <cstdint>

#include "semantics/config.h"

namespace flashattn::cuda::sm80 {

// Element offset of (r, c) in a swizzled tile of `cols` columns.
FA_HD int swz_offset(int r, int c, int cols) {
  return r * cols + (c & ~63) + ((((c >> 3) & 7) ^ (r & 7)) << 3) + (c & 7);
}

// ldmatrix x4 in a swizzled tile. Lane l gives the row address of fragment row `row` (0..15) and
// chunk `chunk` (0 or 1: columns 0-7 or 8-15 of the 16-column block), by operand kind as
// tile.h's lane_offset. At a fragment whose first row is a multiple of 8 (row0 rows below the
// lane's base) and whose first column is chunk pair j (columns 16 j..), the lane's byte offset is
//   (swz_lane_base ^ swz_xor(j)) + swz_imm(row0, j, cols)
// (the pair's in-segment bits 5 and 6 meet the lane's row bits in an XOR; bit 4, the lane's
// chunk, is untouched; whole segments and rows add). The tile must start 128-byte aligned: the
// sm80 kernels declare their dynamic shared memory __align__(128) (it starts at the block's
// window offset 0x400, seen in their SASS), and every tile is a multiple of 128 bytes.
FA_HD uint32_t swz_lane_base(int row, int chunk, int cols) {
  return uint32_t(row * cols * 2 + (((chunk ^ row) & 7) << 4));
}
FA_HD constexpr uint32_t swz_xor(int j) { return uint32_t(32 * (j % 4)); }
FA_HD constexpr uint32_t swz_imm(int row0, int j, int cols) { return uint32_t(row0 * cols * 2 + (j / 4) * 128); }

// Element offset of (r, c + 8 n) when chunk c / 8 is a multiple of a power of two above n (the
// chunks then add as an XOR inside one segment): a warp's n-tile stores of P and dS, one XOR
// each from the row's first offset.
FA_HD int swz_store_offset(int r, int c, int n, int cols) { return swz_offset(r, c, cols) ^ (8 * n); }

// Byte address of row r0 + step i, same column, from row r0's address `first` in a swizzled tile
// (128-byte aligned; r0 < step where step < 8, a power of two): its row % 8 is r0 | (i step % 8),
// so its chunk is r0's XOR (i step % 8), bits 4-6 of the address; whole rows add. Step a
// multiple of 8: the XOR is 0. (load_tile: a thread's rows in its cp.async loop.)
FA_HD constexpr uint32_t swz_row_step(uint32_t first, int i, int step, int cols) {
  return (first ^ (uint32_t((i * step) % 8) << 4)) + uint32_t(i * step * cols * 2);
}

// x a power of two (the swizzled GEMMs' column offsets split only at such counts).
FA_HD constexpr bool swz_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

}  // namespace flashattn::cuda::sm80
