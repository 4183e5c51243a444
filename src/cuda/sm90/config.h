// Tile geometry of the sm90 forward (no device code: tests/cpp/test_sm90_layout.cc uses it too).
#pragma once

namespace flashattn::cuda::sm90 {

template <int kD_, int kBlockN_, int kStages_ = 2, bool kOverlap_ = false>
struct Fwd90Config {
  static constexpr int kD = kD_;  // head_dim tier = head_dim_v tier
  // Overlap inside a consumer warpgroup: S_{i+1} = Q K^T and P_i V_i on the tensor cores while
  // the softmax of S_{i+1} runs (one more S accumulator of registers). Off until measured.
  static constexpr bool kOverlap = kOverlap_;
  static constexpr int kBlockM = 128;  // two consumer warpgroups of 64 rows
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kStages = kStages_;
  static constexpr int kThreads = 384;
  static constexpr int kPanels = (kD + 63) / 64;  // 64-column panels of a tile
  static constexpr int kPanelQ = kBlockM * 128, kPanelKV = kBlockN * 128;  // bytes per panel
  static constexpr int kBytesQ = kPanels * kPanelQ, kBytesKV = kPanels * kPanelKV;
  static constexpr int kOffK = kBytesQ, kOffV = kOffK + kStages * kBytesKV;
  static constexpr int kOffBar = kOffV + kStages * kBytesKV;
  static constexpr int kSmemBytes = kOffBar + (1 + 4 * kStages) * 8 + 1024;  // +1024: alignment slack
  // head_dim 96 and 192 end in half a panel: TMA reads its columns past head_dim as zeros.
  static_assert(kD % 32 == 0 && kD <= 256, "wgmma N = head_dim (a multiple of 32 here)");
  static_assert(kBlockN % 16 == 0 && kBlockN <= 256, "wgmma N = kBlockN for S");
  static_assert(kSmemBytes <= 227 * 1024, "Hopper's shared memory per block");
};

// Tile shapes per tier: S and O of one consumer warpgroup (64 rows) must fit its 240 registers,
// and Q plus two K/V stages the 227 KB of shared memory (head_dim 192: 48 + 4 x 24 KB).
constexpr int fwd90_block_n(int head_dim_tier) { return head_dim_tier <= 128 ? 128 : 64; }
// The deepest K/V ring (at most 4 stages) that fits beside Q in Hopper's 227 KB.
constexpr int fwd90_max_stages(int head_dim_tier) {
  const int panels = (head_dim_tier + 63) / 64, kv = panels * fwd90_block_n(head_dim_tier) * 128;
  const int room = (227 * 1024 - 2048 - panels * 128 * 128) / (2 * kv);
  return room < 2 ? 2 : (room > 4 ? 4 : room);
}
template <int kD>
using Fwd90ConfigFor = Fwd90Config<kD, fwd90_block_n(kD)>;

}  // namespace flashattn::cuda::sm90
