// Tile geometry of the sm90 forward (no device code: tests/cpp/test_sm90_layout.cc uses it too).
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/fast_div.h"
#include "semantics/config.h"

namespace flashattn::cuda::sm90 {

template <int kD_, int kBlockN_, int kStages_ = 2, int kDv_ = kD_, int kConsumers_ = 2>
struct Fwd90Config {
  static constexpr int kD = kD_;    // head_dim tier (Q, K)
  static constexpr int kDv = kDv_;  // head_dim_v tier (V, O): kD, or 128 with kD = 192
  // Consumer warpgroups of 64 query rows each (2, or 3 where the softmax dominates), and one
  // producer warpgroup. Registers (setmaxnreg): the producer keeps 24, the consumers share the
  // rest of the 64K register file (240 each for two, 160 for three).
  static constexpr int kConsumers = kConsumers_;
  static constexpr int kBlockM = 64 * kConsumers;
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kStages = kStages_;
  static constexpr int kThreads = 128 * (1 + kConsumers);
  static constexpr int kProducerRegs = 24, kConsumerRegs = kConsumers == 2 ? 240 : 160;
  static constexpr int kPanels = (kD + 63) / 64, kPanelsV = (kDv + 63) / 64;  // 64-column panels
  static constexpr int kPanelQ = kBlockM * 128, kPanelKV = kBlockN * 128;  // bytes per panel
  static constexpr int kBytesQ = kPanels * kPanelQ, kBytesK = kPanels * kPanelKV, kBytesV = kPanelsV * kPanelKV;
  static constexpr int kBytesRing = kStages * (kBytesK + kBytesV);
  // The O tile for the TMA-store epilogue (panels of kBlockM rows like Q), where it fits.
  static constexpr int kBytesO = kPanelsV * kPanelQ;
  // Barriers: Q full/empty per Q buffer (two at most), K/V full/empty per stage; +1024: alignment slack.
  static constexpr int kBarBytes = (4 + 4 * kStages) * 8 + 1024;
  // The ring of tile records (TileInfo90 below) and the tile tickets' handoff (two mbarriers and a
  // slot, fwd_kernel.h) are static __shared__: the dynamic shared memory has Hopper's 227 KB a
  // block less their bytes.
  static constexpr int kTileInfos = 4;
  static constexpr int kBudget = 227 * 1024 - kTileInfos * 64 - 32;
  static constexpr bool kStoreO = kBytesQ + kBytesRing + kBytesO + kBarBytes <= kBudget;
  // Two Q buffers where they fit beside the ring and the O tile (the O tile first; head_dim 64, 96
  // and 128 on their default key blocks, 192/128 on the alternative 64; 1.9 KB to spare at 96 and
  // 128, so one more barrier there would cost them the second buffer): the
  // producer loads the next tile's Q while this one runs (with one, it waits for the tile's last
  // S; at seqlen 512 its load from DRAM then outlasted the tile's end, session 22's trace).
  static constexpr int kQBuffers = 2 * kBytesQ + kBytesRing + (kStoreO ? kBytesO : 0) + kBarBytes <= kBudget ? 2 : 1;
  // Both Q buffers and the O tile fit beside the ring (fwd90_stages deepens the ring only so far).
  static constexpr bool kRoomy = kStoreO && kQBuffers == 2;
  static constexpr int kOffK = kQBuffers * kBytesQ, kOffV = kOffK + kStages * kBytesK;
  static constexpr int kOffO = kOffV + kStages * kBytesV;
  static constexpr int kOffBar = kOffO + (kStoreO ? kBytesO : 0);
  static constexpr int kSmemBytes = kOffBar + kBarBytes;
  // The records' ring: record j (the CTA's j-th work item) is written once the consumers have
  // released Q buffer (j - kQBuffers) % kQBuffers, after their last read of record j - kQBuffers - 1
  // (fwd_kernel.h): slot j % kTileInfos must not be that record's or a later one's.
  static_assert(kTileInfos > kQBuffers + 1, "the tile records' ring");
  // head_dim 96 and 192 end in half a panel: TMA reads its columns past head_dim as zeros.
  static_assert(kD % 32 == 0 && kD <= 256 && kDv % 32 == 0 && kDv <= kD, "wgmma N = head_dim_v (a multiple of 32)");
  static_assert(kBlockN % 16 == 0 && kBlockN <= 256, "wgmma N = kBlockN for S");
  // (kSmemBytes <= kBudget: asserted where a configuration is launched, launch.h, so that
  // fwd90_stages below may look at deeper rings that do not fit.)
  static_assert(kConsumers == 2 || kConsumers == 3, "two or three consumer warpgroups");
  static_assert(128 * (kProducerRegs + kConsumers * kConsumerRegs) <= 65536, "the register file");
};

// A work item of the forward (a tile, or a stream-K piece of one) as the producer decodes it once
// (the tile map, the sequence's bounds, the mask's key ranges) and the consumer warpgroups read it
// from a ring in shared memory (fwd_kernel.h): 64 bytes. Decoding it in every consumer warp cost
// ~260 instructions a tile a warp (session 32: d64 512 causal), ~7% of the kernel's instructions.
struct TileInfo90 {
  int b, h;          // batch entry, first query head of the tile
  int m0, rows;      // query rows m0 .. m0 + rows - 1 of each head (of its sequence)
  int n_hi, n_count; // key blocks n_hi - n_count .. n_hi - 1 (a piece's steps only); -1: the end of the walk
  int role;          // StreamKPiece's role
  int qb;            // Q's and O's batch coordinate in the tensor maps (0 for varlen)
  int all_lo, all_hi;  // keys every row of the tile sees (Mask::common_key_range)
  int q_row;         // the tile's first row in the tensor maps (sequence start + m0)
  int seqlen_q, seqlen_k;
  int skip;          // key blocks each consumer warpgroup skips at the walk's start (fwd90_skip_blocks);
                     // kCluster: and those every warpgroup passes over at its end (fwd90_trail_field)
  int64_t row_begin_q;  // the sequence's first row (varlen)
};
static_assert(sizeof(TileInfo90) == 64, "TileInfo90: 64 bytes");

// Consumer warpgroups with a query row in a tile of `rows` rows a head (64 rows each, from the
// first): the others skip its key blocks (fwd_kernel.h; the producer arrives on each K/V stage for
// them). Only unpacked tiles (a packed tile's rows are pack heads' rows each), and only with the
// ping-pong turns (fwd_kernel.h says why).
FA_HD constexpr int fwd90_live_consumers(int consumers, int rows, bool skip) {
  return skip && (rows + 63) / 64 < consumers ? (rows + 63) / 64 : consumers;
}

// Key blocks a consumer warpgroup skips at the start of a tile's walk (which runs from key block
// n_hi - 1 down: the causal diagonal first): those past every key its rows see (keys [key_lo,
// key_hi) by Mask::key_range of its rows), but never the walk's last block (rows that see no key
// at all compute it, masked: a warpgroup that skipped a whole walk could go on to a tile without
// turns and wait by parity on a stage whose last V load of this walk had not landed; session 36's
// review). The tile's n_hi comes from its last row's keys, so its last live warpgroup skips none.
// A warpgroup skips only with the ping-pong turns (fwd_kernel.h: it takes an empty turn a skipped
// block, and the producer arrives on the blocks' K/V stages for it, as for idle warpgroups): e.g.
// with 64-key blocks under a causal mask the first warpgroup of a 128-row tile never sees the
// diagonal's second block, with 80 keys mostly not, and of a 192-row tile on 128-key blocks the
// first one or two see only one of two.
FA_HD constexpr int fwd90_skip_blocks(int n_hi, int n_count, int key_lo, int key_hi, int block_n) {
  const int s = key_hi <= key_lo ? n_count : n_hi - (key_hi + block_n - 1) / block_n;
  return s < 0 ? 0 : s > n_count - 1 ? (n_count > 0 ? n_count - 1 : 0) : s;
}
// TileInfo90::skip holds warpgroup cw's count in bits 10 cw .. 10 cw + 9 (a count past 1023 is
// stored as 0: those blocks are computed, masked, as without the skip).
FA_HD constexpr int fwd90_skip_field(int count, int cw) { return (count <= 1023 ? count : 0) << (10 * cw); }
FA_HD constexpr int fwd90_skip_of(int skip, int cw) { return (skip >> (10 * cw)) & 1023; }
// kCluster (two consumer warpgroups): bits 20 .. 29 hold the key blocks at the end of the walk that
// every warpgroup of the tile passes over (fwd_kernel.h: rank 1's under a window, the pair's lowest
// blocks, which only rank 0's rows see; a count past 1023 is stored as 0: computed, masked).
FA_HD constexpr int fwd90_trail_field(int count) { return fwd90_skip_field(count, 2); }
FA_HD constexpr int fwd90_trail_of(int skip) { return fwd90_skip_of(skip, 2); }
// The warpgroups that skip key block i of a tile (the producer's arrivals for them).
FA_HD constexpr int fwd90_skippers(int skip, int i, int consumers) {
  int n = 0;
  for (int w = 0; w < consumers; ++w) n += fwd90_skip_of(skip, w) > i ? 1 : 0;
  return n;
}

// Key-block sizes per tier: S (of the next block), P and O of one consumer warpgroup (64 rows)
// must fit its 240 registers, and Q plus two K/V stages the 227 KB of shared memory.
// Default: 128 keys up to head_dim 128, 96 at 192, 80 at 256 (H200, session 4, seqlen 8k: 80
// beat 64 at head_dim 256 by 4-8%, 96 beat 64 at 192 by 11%; 192 and 176 lost to 128 at head_dim
// 64 and 128). The alternative (FLASHATTN_SM90_BLOCKN=alt, for measurements): 192 / 128 / 176 /
// 64 / 64.
constexpr int fwd90_block_n(int head_dim_tier, bool alt = false) {
  if (!alt) return head_dim_tier <= 128 ? 128 : head_dim_tier <= 192 ? 96 : 80;
  return head_dim_tier <= 64 ? 192 : head_dim_tier <= 96 ? 128 : head_dim_tier <= 128 ? 176 : 64;
}
// Consumer warpgroups: 2; 3 (192-row tiles) at head_dim 64 (the default since session 5's
// measurement, +5-10%; FLASHATTN_SM90_CONSUMERS=2 keeps two).
constexpr int fwd90_consumers(int head_dim_tier, bool three) { return three && head_dim_tier == 64 ? 3 : 2; }
// K/V ring stages: the most, up to four, that leave room for both Q buffers and the O tile, else
// two: head_dim 64 four on 128-key blocks (two or three consumers), three on 192; the other tiers
// two. Deeper rings let the producer load a tile's first key blocks while the last tile's walk
// still holds its stages (session 37, H100, A/B against two stages: head_dim 64 +0.2 to +1.9%,
// causal 512-8k and non-causal 512-16k).
template <int kD, int kBlockN, int kDv, int kConsumers>
constexpr int fwd90_stages() {
  if (Fwd90Config<kD, kBlockN, 4, kDv, kConsumers>::kRoomy) return 4;
  if (Fwd90Config<kD, kBlockN, 3, kDv, kConsumers>::kRoomy) return 3;
  return 2;
}
template <int kD, bool kAlt = false, int kDv = kD, int kConsumers = 2>
using Fwd90ConfigFor = Fwd90Config<kD, fwd90_block_n(kD, kAlt),
                                   fwd90_stages<kD, fwd90_block_n(kD, kAlt), kDv, kConsumers>(), kDv, kConsumers>;

// The forward's mask of a key block it cuts (fwd_kernel.h softmax): a consumer thread (quad lane
// tq) holds kBits = kBlockN / 4 columns of each of its rows, its k-th being column
// 8 (k / 2) + 2 tq + k % 2 of the block. The row's visible keys [2 tq + lo, 2 tq + hi) of the
// block (lo, hi relative to the block's first key plus 2 tq) as a bit per such column, bit k set
// iff its column is visible: count(y), how many of the thread's columns lie below 2 tq + y, is
// 2 (y / 8) + min(y % 8, 2) (two columns per 8), so the visible ones are bits count(lo) ..
// count(hi) - 1. tests/cpp/test_sm90_layout.cc checks it against the columns themselves.
template <int kBits>
FA_HD constexpr std::conditional_t<(kBits > 32), uint64_t, uint32_t> fwd90_visible_bits(int lo, int hi) {
  using Bits = std::conditional_t<(kBits > 32), uint64_t, uint32_t>;
  auto min_ = [](int a, int b) { return a < b ? a : b; };
  auto count = [&](int y) { return y <= 0 ? 0 : min_(kBits, 2 * (y / 8) + min_(y % 8, 2)); };
  auto low = [](int n) { return n >= int(sizeof(Bits) * 8) ? ~Bits(0) : (Bits(1) << n) - 1; };
  return low(count(hi)) & ~low(count(lo));
}

// The forward's tile sequence (fwd_kernel.h): tile t -> its query block and its (batch, head
// pack) index bh < bh_count. Causal: the last query blocks first (they see the most keys: longest
// first), in groups of group_heads pairs when group_heads > 0 (several tiles of each head in flight
// share its K/V in L2; the last group also takes the remainder; the launcher decides, launch.cu);
// varlen: every pair's last blocks first, so the long sequences' blocks start first and the short
// ones fill in; otherwise the query blocks of one pair together (they share K and V in L2).
// The host builds the map once a launch (its divisors as FastDiv: a tile's decode is a few
// multiplies instead of 64-bit divisions, which took ~1400 cycles a tile, session 17); tile
// indices below 2^31 (sm90_eligible). The backward (bwd_kernel.h) walks its key blocks by the
// same map, blocks reversed (key block num_m_blocks - 1 - m_block: under a causal mask key block
// 0 has the longest walk): causal groups (mode 2) where the launcher picks a group, else mode 0,
// a (batch, kv head)'s key blocks together.
struct Tile90 {
  int m_block;
  int bh;
};
struct TileMap90 {
  int mode = 0;  // 0: a pair's query blocks together; 1: causal or varlen, longest first; 2: causal groups
  int num_m_blocks = 1, last_group = 0, group_heads = 1;
  FastDiv by_m, by_bh;            // modes 0, 1: num_m_blocks, bh_count
  FastDiv by_group_tiles, by_group, by_last;  // mode 2: group_heads * num_m_blocks, group_heads, the last group's pairs

  TileMap90() = default;
  TileMap90(int64_t bh_count, int m_blocks, bool causal, bool varlen, int group)
      : num_m_blocks(m_blocks), by_m(uint32_t(m_blocks)), by_bh(uint32_t(bh_count)) {
    if (causal && group > 0 && !varlen) {
      // Groups of group pairs; the last one takes a remainder below half a group too (a small
      // last group would end the grid on a few heads' tiles).
      const int64_t rounded = (bh_count + group / 2) / group;
      mode = 2;
      group_heads = group;
      last_group = int(rounded > 1 ? rounded - 1 : 0);
      by_group_tiles = FastDiv(uint32_t(int64_t(group) * m_blocks));
      by_group = FastDiv(uint32_t(group));
      by_last = FastDiv(uint32_t(bh_count - int64_t(last_group) * group));
    } else {
      mode = causal || varlen ? 1 : 0;
    }
  }
  FA_HD Tile90 operator()(int64_t tile) const {
    const uint32_t t = uint32_t(tile);
    if (mode == 2) {
      const uint32_t g_raw = by_group_tiles.div(t);
      const uint32_t g = g_raw < uint32_t(last_group) ? g_raw : uint32_t(last_group);  // the tile's group
      const uint32_t g0 = g * uint32_t(group_heads), in = t - g0 * uint32_t(num_m_blocks);
      const FastDiv& size = g < uint32_t(last_group) ? by_group : by_last;
      const uint32_t q = size.div(in);
      return {num_m_blocks - 1 - int(q), int(g0 + in - q * size.d)};
    }
    if (mode == 1) {
      const uint32_t q = by_bh.div(t);
      return {num_m_blocks - 1 - int(q), int(t - q * by_bh.d)};
    }
    const uint32_t q = by_m.div(t);
    return {num_m_blocks - 1 - int(t - q * by_m.d), int(q)};
  }
};

// The forward's grid: tiles of rows_per_head query rows of each of `pairs` (batch, head pack)
// pairs, and the CTAs that walk them (persistent: at most sm_count; else one a tile). One formula
// for the launcher (launch.h) and the stream-K plan (launch.cu), which must agree.
inline int64_t fwd90_tiles(int64_t seqlen_q, int rows_per_head, int64_t pairs) {
  return (seqlen_q + rows_per_head - 1) / rows_per_head * pairs;
}
inline int64_t fwd90_grid(int64_t tiles, bool persistent, int sm_count) {
  return persistent && sm_count > 0 && sm_count < tiles ? sm_count : tiles;
}

// The last rounds as stream-K (issue 4: the persistent forward, steps = a tile's key blocks;
// issue 5: the backward, steps = a key block's query walk, bwd_kernel.h): tiles of equal length
// (no causal mask, no window, no varlen) on a grid of G CTAs leave the last round rem = tiles % G
// of G SMs busy (2048 tiles on 132 SMs: 16 rounds for 15.5 rounds of work, 3%). (The comment
// below speaks of the forward's pieces; the backward's merge adds dK and dV instead.) Here the first
// dp_rounds = tiles / G - 1 rounds run whole tiles (round_tile), and the remaining G + rem tiles'
// key blocks (steps, nk a tile) are cut into G ranges of `width` consecutive steps, one a CTA:
// each CTA's work is then within one step of the mean. width > nk, so a range boundary falls
// inside a tile at most once: such a tile has two pieces, its keys' first part [0, j) at the end
// of CTA c's range (role kMerge) and the rest [j, nk) at the start of CTA c + 1's (role
// kPartial). CTA c + 1 runs its piece first and writes its unnormalized O, row maxima and row sums
// to slot c + 1 of a workspace; CTA c merges them into its own at the end of its range (waiting
// on the slot's flag, which in practice is set a dozen tiles earlier; CTA c + 1's piece waits on
// nothing, so the chain cannot deadlock) and writes O and the LSE.
struct StreamKPiece {
  static constexpr int kWhole = 0, kPartial = 1, kMerge = 2;
  int64_t tile;
  int i_lo, i_hi;  // the tile's key-block steps i (block n_hi - 1 - i): [i_lo, i_hi)
  int role;
};
struct StreamK {
  int dp_rounds = 0;  // rounds of whole tiles (before the tail; all of them without one)
  int nk = 0;         // key-block steps of every tile
  int width = 0;      // steps a CTA in the tail; 0: no tail
  int tile0 = 0;      // the tail's first tile (dp_rounds * grid)
  int steps = 0;      // the tail's steps ((tiles - tile0) * nk)
  FastDiv by_nk;      // (a division by a run-time divisor would hoist its reciprocal into registers)

  StreamK() = default;
  // tiles of nk steps each on a grid of `grid` CTAs (tiles below 2^31, sm90_eligible); no tail
  // where the rounds come out even or the tail's steps would pass 2^30.
  StreamK(int64_t tiles, int64_t grid, int steps_a_tile) {
    dp_rounds = grid > 0 ? int((tiles + grid - 1) / grid) : 0;
    if (grid <= 0 || steps_a_tile <= 0 || tiles <= grid || tiles % grid == 0) return;
    const int64_t rounds = tiles / grid - 1, tail_steps = (tiles - rounds * grid) * steps_a_tile;
    if (tail_steps >= (int64_t(1) << 30)) return;
    dp_rounds = int(rounds);
    nk = steps_a_tile;
    by_nk = FastDiv(uint32_t(nk));
    tile0 = int(rounds * grid);
    steps = int(tail_steps);
    width = int((tail_steps + grid - 1) / grid);
  }
  // The share of a CTA's steps the tail saves against whole rounds (dp_rounds + 2 of them where
  // there is a tail: the rounds do not come out even); 0 without one. (Host side: the launchers'
  // rules.)
  double saving() const {
    return width > 0 ? 1.0 - (double(dp_rounds) * nk + width) / (double(dp_rounds + 2) * nk) : 0.0;
  }
  // Tile of round r for CTA cta of `grid`: CTA c takes tile r * grid + c in even rounds and r *
  // grid + grid - 1 - c in odd ones (the snake balances causal grids, whose tiles shorten along t:
  // with plain striding CTA 0 took the longest tile of every round).
  static FA_HD int64_t round_tile(int r, int grid, int cta) {
    return int64_t(r) * grid + ((r & 1) ? grid - 1 - cta : cta);
  }
  // CTA cta's work item at cursor *c (0 first) and *c past it; false when none is left: the
  // whole tile of round *c while *c < dp_rounds (possibly past the last tile: the caller skips
  // those), then its tail pieces (*c - dp_rounds: steps into its range). Both computed and one
  // selected, not branched: with a branch per kind the 160-register consumers of head_dim 64
  // spilled (the kernel walks the items around its main loop).
  FA_HD bool item(int cta, int grid, int* c, StreamKPiece* out) const {
    const bool dp = *c < dp_rounds;
    const int u0 = begin(cta), u_end = end(cta);
    int u = u0 + (*c - dp_rounds);
    if (!dp && u >= u_end) return false;
    const StreamKPiece whole{round_tile(*c, grid, cta), 0, 0, StreamKPiece::kWhole};
    *out = dp ? whole : next(&u, u_end);
    *c = dp ? *c + 1 : dp_rounds + (u - u0);
    return true;
  }
  // CTA cta's tail: steps [begin(cta), end(cta)).
  FA_HD int begin(int cta) const { return cta * width; }
  FA_HD int end(int cta) const { return begin(cta) + width < steps ? begin(cta) + width : steps; }
  // The piece at step *u (< end) and *u past it.
  FA_HD StreamKPiece next(int* u, int end) const {
    const int k = int(by_nk.div(uint32_t(*u))), j = *u - k * nk;
    const int len = end - *u < nk - j ? end - *u : nk - j;
    *u += len;
    const int role = j > 0 ? StreamKPiece::kPartial : len < nk ? StreamKPiece::kMerge : StreamKPiece::kWhole;
    return {tile0 + k, j, j + len, role};
  }
};

}  // namespace flashattn::cuda::sm90
