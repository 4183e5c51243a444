// wgmma shared-memory matrix descriptors (PTX 9.7.15.5.1.2.2): plain integer arithmetic, host and
// device, so tests/cpp/test_sm90_layout.cc checks it on the CPU against a model of the TMA
// 128-byte swizzle and of how wgmma reads a canonical layout (the bug class of run 11).
#pragma once

#include <cstdint>

#include "semantics/config.h"

namespace flashattn::cuda::sm90 {

// ---- shared-memory matrix descriptors (PTX 9.7.15.5.1.2.2) ------------------------------------
// Every operand tile here is stored in panels of 64 16-bit columns (128 bytes a row) with the
// 128-byte swizzle that TMA's CU_TENSOR_MAP_SWIZZLE_128B writes: 8-row atoms of 1024 bytes,
// each panel 1024-byte aligned. Bits: start address >> 4 (0-13), leading byte offset >> 4
// (16-29), stride byte offset >> 4 (32-45), swizzle mode (62-63; 1 = 128 bytes).
// Every field is 14 bits of 16-byte units: addresses and offsets below 256 KB (shared memory is
// at most 228 KB, so a larger value is a caller's error, which would otherwise wrap silently).
FA_HD uint64_t make_desc(uint32_t smem_byte_addr, uint32_t lbo_bytes, uint32_t sbo_bytes) {
  uint64_t d = 0;
  d |= uint64_t((smem_byte_addr & 0x3FFFF) >> 4);
  d |= uint64_t((lbo_bytes & 0x3FFFF) >> 4) << 16;
  d |= uint64_t((sbo_bytes & 0x3FFFF) >> 4) << 32;
  d |= uint64_t(1) << 62;
  return d;
}
// The descriptor of the tile `bytes` (a multiple of 16) past the one d describes: only the
// start-address field moves, in the low word (tile and tile + bytes both lie below 256 KB, so
// the 14-bit field does not carry). A kernel's k16 steps then share one make_desc of the tile
// and add constants, instead of masking and shifting every step's address (GPU instructions
// in the consumers' issue-bound loops).
FA_HD uint64_t desc_advance(uint64_t d, uint32_t bytes) {
  return (d & 0xFFFFFFFF00000000ull) | uint64_t(uint32_t(d) + (bytes >> 4));
}
// K-major operand (rows along M or N, K contiguous; Q and K) stored in 64-column panels of
// panel_bytes (= rows * 128) each: the k16 step kk starts in panel kk / 4 at byte (kk % 4) * 32
// of the row; 8-row groups are 1024 bytes apart (SBO); LBO is unused within a 128-byte row.
FA_HD uint64_t desc_k_major(uint32_t tile, uint32_t panel_bytes, int kk) {
  return desc_advance(make_desc(tile, 16, 1024), uint32_t(kk / 4) * panel_bytes + uint32_t(kk % 4) * 32u);
}
// Byte offset of element (row, col) of a tile stored as TMA's 128-byte swizzle writes it: 64-column
// panels of panel_bytes, rows 128 bytes apart, the 16-byte chunk index XOR the row within its
// 8-row atom (the tile 1024-byte aligned). The epilogue writes O this way for a TMA store.
FA_HD uint32_t swizzled_offset(int row, int col, uint32_t panel_bytes) {
  const uint32_t a = uint32_t(col / 64) * panel_bytes + uint32_t(row) * 128u + uint32_t(col % 64) * 2u;
  return a ^ (((a >> 7) & 7u) << 4);
}
// The wgmma A fragments (the mma.sync m16n8k16 A layout) of 16 rows from row0 of such a tile, by
// ldmatrix .x4 a k16 step kk: the byte offset of the row lane `lane` addresses. Matrix i = lane / 8
// holds rows row0 + (i % 2) 8 .. + 7 and columns 16 kk + (i / 2) 8 .. + 7, so that register i is
// fragment register a_i (a0: row g, columns 2t; a1: row g + 8; a2: columns 2t + 8; a3: both).
// The forward's Q (kQRegs) and the backward's K (kKRegs, bwd_config.h k_frag_offset).
FA_HD uint32_t a_frag_offset(int row0, int lane, int kk, uint32_t panel_bytes) {
  const int i = lane / 8;
  return swizzled_offset(row0 + (i % 2) * 8 + lane % 8, kk * 16 + (i / 2) * 8, panel_bytes);
}
// MN-major B operand (V stored [key][head_dim]: N = head_dim contiguous, K = keys) in 64-column
// panels of panel_bytes: the k16 step kk starts 16 key rows further (2 x 1024 bytes); panels along
// N are panel_bytes apart (LBO); 8-key groups 1024 bytes apart (SBO).
FA_HD uint64_t desc_mn_major(uint32_t tile, uint32_t panel_bytes, int kk) {
  return desc_advance(make_desc(tile, panel_bytes, 1024), uint32_t(kk) * 2048u);
}

}  // namespace flashattn::cuda::sm90
