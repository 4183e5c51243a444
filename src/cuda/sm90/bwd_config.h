// Tile geometry of the sm90 backward (no device code: tests/cpp/test_sm90_bwd_layout.cc uses it
// too). Every operand tile lives in 1024-byte aligned panels of 64 16-bit columns, 128-byte
// swizzled as TMA writes them (desc.h), so each GEMM reads it through a plain descriptor.
#pragma once

#include <cstdint>

#include "semantics/config.h"

namespace flashattn::cuda::sm90 {

template <int kD_>
struct Bwd90Config {
  static constexpr int kD = kD_;        // head_dim tier = head_dim_v tier
  static constexpr int kBlockN = 128;   // keys per CTA: two consumer warpgroups of 64 keys
  static constexpr int kBlockM = 64;    // queries per step (Q, dO, LSE, D of one ring stage)
  static constexpr int kStages = 2;
  static constexpr int kThreads = 384;  // producer warpgroup + two consumer warpgroups
  static constexpr int kPanels = kD / 64;
  static constexpr int kPanelKV = kBlockN * 128, kPanelQ = kBlockM * 128;  // bytes per panel
  static constexpr int kBytesKV = kPanels * kPanelKV, kBytesQ = kPanels * kPanelQ;
  // dS of the key block, stored [query][key] (K-major A of dQ = dS K): 64 queries x 128 keys,
  // two panels of 64 keys (panel cw: the keys of consumer warpgroup cw). Two buffers, used by
  // alternate steps: one 256-thread barrier a step then orders both the writes before the dQ
  // GEMMs' reads and (two steps later) those reads before the next writes.
  static constexpr int kPaneldS = kBlockM * 128;
  static constexpr int kBytesdS = 2 * kPaneldS;
  static constexpr int kBuffersdS = 2;
  // dQ = dS K: consumer warpgroup cw computes head_dim columns cw * kDQ .. + kDQ - 1 over all
  // 128 keys, so each dQ element gets one reduction per key block.
  static constexpr int kDQ = kD / 2;
  static constexpr int kOffK = 0, kOffV = kOffK + kBytesKV;
  static constexpr int kOffQ = kOffV + kBytesKV;           // kStages x Q
  static constexpr int kOffdO = kOffQ + kStages * kBytesQ;  // kStages x dO
  static constexpr int kOffdS = kOffdO + kStages * kBytesQ;  // kBuffersdS x dS
  static constexpr int kOffLse = kOffdS + kBuffersdS * kBytesdS;  // kStages x kBlockM floats (log2 units)
  static constexpr int kOffDsum = kOffLse + kStages * kBlockM * 4;
  static constexpr int kOffBar = kOffDsum + kStages * kBlockM * 4;
  // Barriers: K/V full; Q/dO full and empty per stage; +1024: alignment slack.
  static constexpr int kSmemBytes = kOffBar + (1 + 2 * kStages) * 8 + 1024;
  static_assert(kD == 64 || kD == 128, "first version: head_dim tiers 64 and 128");
  static_assert(kOffQ % 1024 == 0 && kOffdO % 1024 == 0 && kOffdS % 1024 == 0, "swizzled panels: 1024-byte aligned");
  static_assert(kBlockN == 128 && kBlockM == 64, "each consumer warpgroup owns 64 keys; S^T is m64 n64");
  static_assert(kDQ % 32 == 0 && (kDQ <= 64 || kDQ % 64 == 0),
                "a warpgroup's dQ columns: one wgmma N (32 or 64) inside one 64-column panel of K");
  static_assert(kSmemBytes <= 227 * 1024, "Hopper's shared memory per block");
};

// Byte offset of dS element (query q, key k < 128) in a dS buffer: panel k / 64 of 8 KB, row q
// of 128 bytes, 128-byte swizzle (the layout TMA would write, so desc_k_major reads it as the A
// operand with panel_bytes = kPaneldS).
FA_HD uint32_t sds_offset(int q, int k) {
  const uint32_t a = uint32_t(k / 64) * uint32_t(64 * 128) + uint32_t(q) * 128u + uint32_t(k % 64) * 2u;
  return a ^ (((a >> 7) & 7u) << 4);
}

}  // namespace flashattn::cuda::sm90
