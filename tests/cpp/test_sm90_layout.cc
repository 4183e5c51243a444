// The sm90 forward's shared-memory addressing, checked on the CPU: a model of what TMA writes
// (64-column boxes, CU_TENSOR_MAP_SWIZZLE_128B) and of how wgmma reads an operand through a
// matrix descriptor (the canonical 128-byte-swizzled K-major and MN-major layouts of the PTX ISA /
// CUTLASS), driven by the kernel's own tile geometry (cuda/sm90/config.h) and descriptor
// arithmetic (cuda/sm90/desc.h). S = Q K^T and O = P V computed through the model must equal the
// plain products for every tier, both consumer warpgroups and both ring stages. Run 11's fault
// (panel sizes passed where rows were expected) fails this test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/sm90/config.h"
#include "cuda/sm90/desc.h"
#include "semantics/mask.h"
#include "sm90_layout_model.h"

namespace flashattn::test {
namespace {

using namespace flashattn::cuda::sm90;
using namespace flashattn::test::sm90_model;

template <int kD, bool kAlt = false, int kDv = kD, int kConsumers = 2>
void check_tier(int head_dim, int head_dim_v = 0) {
  using C = Fwd90ConfigFor<kD, kAlt, kDv, kConsumers>;
  if (head_dim_v == 0) head_dim_v = head_dim;
  std::mt19937 rng(kD * 7 + head_dim);
  Smem s(C::kSmemBytes);
  const Matrix q = random_matrix(C::kBlockM, head_dim, head_dim, rng);
  const Matrix p = random_matrix(64, C::kBlockN, C::kBlockN, rng);
  tma_store(s, 0, q, C::kPanels, C::kPanelQ);
  for (int st = 0; st < C::kStages; ++st) {
    const Matrix k = random_matrix(C::kBlockN, head_dim, head_dim, rng);
    const Matrix v = random_matrix(C::kBlockN, head_dim_v, head_dim_v, rng);
    const uint32_t sK = C::kOffK + st * C::kBytesK, sV = C::kOffV + st * C::kBytesV;
    ASSERT_EQ(sK % 1024, 0u);
    ASSERT_EQ(sV % 1024, 0u);
    tma_store(s, sK, k, C::kPanels, C::kPanelKV);
    tma_store(s, sV, v, C::kPanelsV, C::kPanelKV);
    for (int cw = 0; cw < C::kConsumers; ++cw) {
      const uint32_t sQ = uint32_t(cw) * 64 * 128;
      int bad_s = 0, bad_o = 0;
      // S = Q K^T: k16 steps over head_dim (the kernel's loop: kk < kD / 16).
      for (int m = 0; m < 64; ++m)
        for (int n = 0; n < C::kBlockN; ++n) {
          double got = 0, want = 0;
          for (int kk = 0; kk < kD / 16; ++kk)
            for (int e = 0; e < 16; ++e)
              got += read_k_major(s, desc_k_major(sQ, C::kPanelQ, kk), m, e) *
                     read_k_major(s, desc_k_major(sK, C::kPanelKV, kk), n, e);
          for (int c = 0; c < head_dim; ++c) want += q[cw * 64 + m][c] * k[n][c];
          bad_s += !(got == want);
        }
      // O = P V: k16 steps over the keys, N = kDv.
      for (int m = 0; m < 64; ++m)
        for (int n = 0; n < kDv; ++n) {
          double got = 0, want = 0;
          for (int kk = 0; kk < C::kBlockN / 16; ++kk)
            for (int e = 0; e < 16; ++e) got += p[m][kk * 16 + e] * read_mn_major(s, desc_mn_major(sV, C::kPanelKV, kk), e, n);
          for (int j = 0; j < C::kBlockN; ++j) want += p[m][j] * (n < head_dim_v ? v[j][n] : 0.0);
          bad_o += !(got == want);
        }
      EXPECT_EQ(bad_s, 0) << "S mismatches, tier " << kD << " head_dim " << head_dim << " stage " << st << " warpgroup " << cw;
      EXPECT_EQ(bad_o, 0) << "O mismatches, tier " << kD << " head_dim " << head_dim << " stage " << st << " warpgroup " << cw;
    }
  }
  const Fields f = decode(desc_k_major(0, C::kPanelQ, 0));
  EXPECT_EQ(f.mode, 1u) << "128-byte swizzle";
  EXPECT_EQ(f.sbo, 1024u);
}

TEST(Sm90Layout, DescriptorsReadWhatTmaWrote) {
  check_tier<64>(64);
  check_tier<64>(40);
  check_tier<96>(96);
  check_tier<128>(128);
  check_tier<128>(104);
  check_tier<192>(192);
  check_tier<256>(256);
  // The alternative key blocks (192 / 128 / 176 / 64 / 64 keys).
  check_tier<64, true>(64);
  check_tier<96, true>(96);
  check_tier<128, true>(128);
  check_tier<192, true>(192);
  check_tier<256, true>(256);
  // head_dim 192 with head_dim_v 128 (V and O of two panels).
  check_tier<192, false, 128>(192, 128);
  check_tier<192, false, 128>(184, 120);
  // Three consumer warpgroups (192-row Q tiles) at head_dim 64.
  check_tier<64, false, 64, 3>(64);
  check_tier<64, false, 64, 3>(40);
}

// The epilogue's O tile (swizzled_offset) is laid out the way a TMA store reads it: the same
// model as the loads, for every row and column of the largest tiles.
TEST(Sm90Layout, EpilogueTileMatchesTmaSwizzle) {
  for (uint32_t panel : {128u * 128u, 192u * 128u})
    for (int r = 0; r < int(panel / 128); ++r)
      for (int c = 0; c < 256; c += 2) {
        const uint32_t base = 3 * 1024;  // any 1024-byte aligned tile
        ASSERT_EQ(base + swizzled_offset(r, c, panel), swizzle(base + (c / 64) * panel + r * 128 + (c % 64) * 2))
            << "row " << r << " col " << c;
      }
  // Tiers with room for the O tile use it; the others keep the direct stores.
  EXPECT_TRUE((Fwd90ConfigFor<64>::kStoreO && Fwd90ConfigFor<128>::kStoreO && Fwd90ConfigFor<64, false, 64, 3>::kStoreO));
  EXPECT_FALSE((Fwd90ConfigFor<256>::kStoreO));
  EXPECT_EQ(Fwd90ConfigFor<128>::kOffO % 1024, 0);
}

// The forward's mask of a cut key block as a bit per column of a thread (config.h
// fwd90_visible_bits) against the columns themselves: every key-block width of the tiers (64, 80,
// 96, 128, 176, 192 keys: 16 to 48 bits), every quad lane, bounds from before to past the block.
template <int kBlockN>
void check_visible_bits() {
  constexpr int kNS = kBlockN / 2;
  int bad = 0;
  for (int tq = 0; tq < 4; ++tq)
    for (int lo = -150; lo < kBlockN + 150; lo += 3)
      for (int hi = -150; hi < kBlockN + 150; hi += 5) {
        const auto bits = fwd90_visible_bits<kNS / 2>(lo - 2 * tq, hi - 2 * tq);
        for (int j = 0; j < kNS; ++j) {
          const int c = (j / 4) * 8 + 2 * tq + (j % 2);  // accumulator element j's column (one row)
          const bool want = lo <= c && c < hi;
          const bool got = (bits >> (2 * (j / 4) + j % 2)) & 1u;
          bad += want != got;
        }
      }
  EXPECT_EQ(bad, 0) << "key block " << kBlockN;
}

TEST(Sm90Layout, MaskVisibleBits) {
  check_visible_bits<64>();
  check_visible_bits<80>();
  check_visible_bits<96>();
  check_visible_bits<128>();
  check_visible_bits<176>();
  check_visible_bits<192>();
}

TEST(Sm90Layout, SharedMemoryFitsHopper) {
  // 227 KB of opt-in shared memory per block on H100/H200.
  EXPECT_LE(Fwd90ConfigFor<64>::kSmemBytes, 232448);
  EXPECT_LE(Fwd90ConfigFor<96>::kSmemBytes, 232448);
  EXPECT_LE(Fwd90ConfigFor<128>::kSmemBytes, 232448);
  EXPECT_LE(Fwd90ConfigFor<192>::kSmemBytes, 232448);
  EXPECT_LE(Fwd90ConfigFor<256>::kSmemBytes, 232448);
  EXPECT_LE((Fwd90ConfigFor<64, true>::kSmemBytes), 232448);
  EXPECT_LE((Fwd90ConfigFor<96, true>::kSmemBytes), 232448);
  EXPECT_LE((Fwd90ConfigFor<128, true>::kSmemBytes), 232448);
  EXPECT_LE((Fwd90ConfigFor<192, true>::kSmemBytes), 232448);
  EXPECT_LE((Fwd90ConfigFor<256, true>::kSmemBytes), 232448);
  EXPECT_LE((Fwd90ConfigFor<192, false, 128>::kSmemBytes), 232448);
  EXPECT_LE((Fwd90ConfigFor<64, false, 64, 3>::kSmemBytes), 232448);
  // The static shared memory (the tile records' ring and the tile tickets' handoff: two mbarriers
  // and a slot, 32 bytes with padding) beside the dynamic bytes, and the second Q buffer kept where
  // it was (head_dim 64-128 on their default key blocks, 192/128 on 64 keys).
  constexpr int kRing = Fwd90ConfigFor<128>::kTileInfos * int(sizeof(TileInfo90));
  EXPECT_EQ(kRing, 256);
  constexpr int kStatic = kRing + 32;
  EXPECT_EQ(Fwd90ConfigFor<128>::kBudget, 232448 - kStatic);
  EXPECT_LE(Fwd90ConfigFor<128>::kSmemBytes + kStatic, 232448);
  EXPECT_LE((Fwd90ConfigFor<64, false, 64, 3>::kSmemBytes + kStatic), 232448);
  EXPECT_EQ(Fwd90ConfigFor<64>::kQBuffers, 2);
  EXPECT_EQ(Fwd90ConfigFor<96>::kQBuffers, 2);
  EXPECT_EQ(Fwd90ConfigFor<128>::kQBuffers, 2);
  EXPECT_EQ((Fwd90ConfigFor<64, false, 64, 3>::kQBuffers), 2);
  EXPECT_EQ((Fwd90ConfigFor<192, true, 128>::kQBuffers), 2);
  // The ring's depth (config.h fwd90_stages): head_dim 64 four stages on 128-key blocks, three on
  // 192, with both Q buffers and the O tile kept; the other tiers two.
  EXPECT_EQ(Fwd90ConfigFor<64>::kStages, 4);
  EXPECT_EQ((Fwd90ConfigFor<64, false, 64, 3>::kStages), 4);
  EXPECT_EQ((Fwd90ConfigFor<64, true>::kStages), 3);
  EXPECT_TRUE((Fwd90ConfigFor<64>::kRoomy && Fwd90ConfigFor<64, false, 64, 3>::kRoomy && Fwd90ConfigFor<64, true>::kRoomy));
  EXPECT_EQ(Fwd90ConfigFor<96>::kStages, 2);
  EXPECT_EQ(Fwd90ConfigFor<128>::kStages, 2);
  EXPECT_EQ((Fwd90ConfigFor<128, true>::kStages), 2);
  EXPECT_EQ(Fwd90ConfigFor<192>::kStages, 2);
  EXPECT_EQ((Fwd90ConfigFor<192, false, 128>::kStages), 2);
  EXPECT_EQ(Fwd90ConfigFor<256>::kStages, 2);
  EXPECT_EQ((Fwd90ConfigFor<256, true>::kStages), 2);
  EXPECT_LE((Fwd90ConfigFor<64, true>::kSmemBytes + kRing), 232448);
  EXPECT_LE(Fwd90ConfigFor<64>::kSmemBytes + kRing, 232448);
}

// Consumer warpgroups with a query row in a tile (config.h fwd90_live_consumers): 64 rows each
// from the first; all of them where skipping is off (packed tiles, FLASHATTN_SM90_SKIP_IDLE=0).
TEST(Sm90Layout, LiveConsumers) {
  for (int k : {2, 3})
    for (int rows = 1; rows <= 64 * k; ++rows) {
      const int live = fwd90_live_consumers(k, rows, true);
      EXPECT_GE(live * 64, rows) << k << " " << rows;      // every row has its warpgroup
      EXPECT_LT((live - 1) * 64, rows) << k << " " << rows;  // and every live one a row
      EXPECT_EQ(fwd90_live_consumers(k, rows, false), k);
    }
}

// The key blocks a warpgroup skips at the start of a tile's walk (config.h fwd90_skip_blocks, as
// the forward's producer computes them) against each element's visibility: random masks (causal,
// windows, seqlen_q above and below seqlen_k), every tier's key block widths, two and three
// consumer warpgroups, every tile of the sequence. Each skipped block has no visible key in the
// warpgroup's rows, the first block it keeps has one (unless it keeps none), the last live
// warpgroup (the tile's last row) skips none, none skips the walk's last block (rows that see no
// key compute it, masked), and the producer's arrival count agrees.
TEST(Sm90Layout, SkipMaskedBlocks) {
  std::mt19937 rng(11);
  int skipped = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int sq = 1 + int(rng() % 700), sk = 1 + int(rng() % 700);
    const int kind = int(rng() % 4);
    const bool causal = kind == 0 || kind == 3;
    const int left = kind >= 2 ? int(rng() % 300) : -1, right = kind == 2 ? int(rng() % 300) : -1;
    const semantics::Mask mask = semantics::make_mask(sq, sk, left, right, causal);
    const int bn = std::vector<int>{64, 80, 96, 128, 176, 192}[rng() % 6];
    const int k = 2 + int(rng() % 2);
    for (int m0 = 0; m0 < sq; m0 += 64 * k) {
      const int rows = std::min(64 * k, sq - m0);
      int key_lo, key_hi;
      mask.key_range(m0, m0 + rows, &key_lo, &key_hi);
      const int n_lo = key_lo / bn, n_hi = key_hi > key_lo ? (key_hi + bn - 1) / bn : n_lo, n_count = n_hi - n_lo;
      const int live = fwd90_live_consumers(k, rows, true);
      int field = 0;
      for (int w = 0; w < live; ++w) {
        const int r0 = m0 + 64 * w, r1 = std::min(r0 + 64, m0 + rows);
        int lo, hi;
        mask.key_range(r0, r1, &lo, &hi);
        const int s = fwd90_skip_blocks(n_hi, n_count, lo, hi, bn);
        ASSERT_GE(s, 0);
        ASSERT_LE(s, n_count > 0 ? n_count - 1 : 0) << "the walk's last block is never skipped";
        if (w == live - 1) EXPECT_EQ(s, 0) << "the last live warpgroup sees the walk's first block";
        if (w + 1 < live) field |= fwd90_skip_field(s, w);
        auto sees = [&](int b) {
          for (int r = r0; r < r1; ++r)
            for (int j = b * bn; j < (b + 1) * bn; ++j)
              if (mask.visible(r, j)) return true;
          return false;
        };
        for (int i = 0; i < s; ++i) ASSERT_FALSE(sees(n_hi - 1 - i)) << "skipped block " << n_hi - 1 - i << " has a visible key";
        if (hi > lo) ASSERT_TRUE(sees(n_hi - 1 - s)) << "block " << n_hi - 1 - s << " kept but not seen";
        skipped += s;
      }
      for (int i = 0; i < n_count; ++i) {
        int want = 0;
        for (int w = 0; w + 1 < live; ++w) want += fwd90_skip_of(field, w) > i ? 1 : 0;
        ASSERT_EQ(fwd90_skippers(field, i, k), want);
      }
      // With idle warpgroups computing padding rows (FLASHATTN_SM90_SKIP_IDLE=0) every warpgroup
      // but the last is asked, its 64 rows unclipped: the rows past the tile's see more keys (a
      // smaller count), and the skipped blocks stay invisible to its rows of the tile.
      for (int w = 0; w + 1 < k; ++w) {
        const int r0 = m0 + 64 * w;
        int lo, hi;
        mask.key_range(r0, r0 + 64, &lo, &hi);
        const int s = fwd90_skip_blocks(n_hi, n_count, lo, hi, bn);
        ASSERT_LE(s, n_count > 0 ? n_count - 1 : 0);
        for (int i = 0; i < s; ++i)
          for (int r = r0; r < std::min(r0 + 64, m0 + rows); ++r)
            for (int j = (n_hi - 1 - i) * bn; j < (n_hi - i) * bn; ++j)
              ASSERT_FALSE(mask.visible(r, j)) << "padding rows: skipped block " << n_hi - 1 - i;
      }
    }
  }
  EXPECT_GT(skipped, 0);
  // The field: 10 bits a warpgroup, a count past 1023 stored as none.
  EXPECT_EQ(fwd90_skip_of(fwd90_skip_field(1023, 2) | fwd90_skip_field(5, 0), 2), 1023);
  EXPECT_EQ(fwd90_skip_of(fwd90_skip_field(1024, 1), 1), 0);
  // Causal 128-row tiles on 64-key blocks: the first warpgroup skips the diagonal's second block.
  EXPECT_EQ(fwd90_skip_blocks(4, 4, 0, 192, 64), 1);
}

// FastDiv (common/fast_div.h) against the division: every divisor up to 4096 and around powers of
// two up to 2^31, numerators at the multiples' edges, random ones and the largest (2^31 - 1).
TEST(Sm90Layout, FastDivIsExact) {
  std::mt19937 rng(7);
  std::vector<uint32_t> divisors;
  for (uint32_t d = 1; d <= 4096; ++d) divisors.push_back(d);
  for (int b = 12; b <= 31; ++b)
    for (int64_t e = -3; e <= 3; ++e) {
      const int64_t d = (int64_t(1) << b) + e;
      if (d >= 1 && d <= (int64_t(1) << 31)) divisors.push_back(uint32_t(d));
    }
  for (int i = 0; i < 2000; ++i) divisors.push_back(1 + rng() % 0x7fffffffu);
  const uint32_t top = 0x7fffffffu;
  for (uint32_t d : divisors) {
    const FastDiv f(d);
    auto check = [&](uint32_t n) {
      ASSERT_EQ(f.div(n), n / d) << "n " << n << " d " << d;
      ASSERT_EQ(f.mod(n), n % d) << "n " << n << " d " << d;
    };
    check(0), check(top), check(top - 1);
    for (uint32_t k : {1u, 2u, 3u, 1000u, top / d}) {
      const uint64_t m = uint64_t(k) * d;
      for (int64_t e = -1; e <= 1; ++e)
        if (int64_t(m) + e >= 0 && int64_t(m) + e <= int64_t(top)) check(uint32_t(int64_t(m) + e));
    }
    for (int i = 0; i < 64; ++i) check(rng() & top);
  }
}

// The tile sequence as first written, by plain division (config.h TileMap90 must equal it).
Tile90 tile_by_division(int64_t t, int64_t bh_count, int num_m_blocks, bool causal, bool varlen, int group_heads) {
  if (causal && group_heads > 0 && !varlen) {
    const int64_t rounded = (bh_count + group_heads / 2) / group_heads;
    const int64_t groups = rounded > 1 ? rounded : 1;
    const int64_t g = std::min(t / (int64_t(group_heads) * num_m_blocks), groups - 1);
    const int64_t g0 = g * group_heads, in = t - g0 * num_m_blocks;
    const int64_t gsize = g < groups - 1 ? group_heads : bh_count - g0;
    return {num_m_blocks - 1 - int(in / gsize), int(g0 + in % gsize)};
  }
  if (causal || varlen) return {num_m_blocks - 1 - int(t / bh_count), int(t % bh_count)};
  return {num_m_blocks - 1 - int(t % num_m_blocks), int(t / num_m_blocks)};
}

// The forward's tile sequence (config.h TileMap90): every (query block, pair) exactly once, in
// every order; causal groups: pairs g0 .. g0 + gsize - 1 contiguous in t, longest (last) query
// blocks first within the group, groups in order; the same tiles as by plain division.
TEST(Sm90Layout, TileOrderCoversEveryTileOnce) {
  for (int64_t bh : {1, 2, 7, 24, 33, 67, 130})
    for (int m : {1, 3, 16, 43})
      for (int mode = 0; mode < 3; ++mode)  // non-causal, causal, varlen
        for (int group : {0, 1, 5, 33, 200}) {
          const bool causal = mode == 1, varlen = mode == 2;
          const TileMap90 map(bh, m, causal, varlen, group);
          std::vector<int> seen(size_t(bh * m), 0);
          int64_t last_group = -1;
          int last_m = m;
          for (int64_t t = 0; t < bh * m; ++t) {
            const Tile90 tile = map(t);
            const Tile90 want = tile_by_division(t, bh, m, causal, varlen, group);
            ASSERT_TRUE(tile.m_block == want.m_block && tile.bh == want.bh)
                << "t " << t << " bh " << bh << " m " << m << " mode " << mode << " group " << group;
            ASSERT_TRUE(tile.m_block >= 0 && tile.m_block < m && tile.bh >= 0 && tile.bh < bh)
                << "t " << t << " bh " << bh << " m " << m << " mode " << mode << " group " << group;
            ++seen[size_t(tile.bh * m + tile.m_block)];
            if (causal && group > 0) {
              const int64_t groups = std::max<int64_t>(1, (bh + group / 2) / group);  // the last takes a small remainder
              const int64_t g = std::min<int64_t>(tile.bh / group, groups - 1);  // the pair's group
              ASSERT_GE(g, last_group) << "groups in order";
              if (g == last_group) {
                ASSERT_LE(tile.m_block, last_m) << "longest first within a group";
              }
              last_group = g;
              last_m = tile.m_block;
            }
          }
          for (int v : seen) ASSERT_EQ(v, 1) << "bh " << bh << " m " << m << " mode " << mode << " group " << group;
        }
  // Causal without groups: all pairs' last query block first.
  EXPECT_EQ(TileMap90(10, 4, true, false, 0)(0).m_block, 3);
  EXPECT_EQ(TileMap90(10, 4, true, false, 0)(9).m_block, 3);
  EXPECT_EQ(TileMap90(10, 4, true, false, 0)(10).m_block, 2);
  // Non-causal: the query blocks of one pair together.
  EXPECT_EQ(TileMap90(10, 4, false, false, 0)(3).bh, 0);
  EXPECT_EQ(TileMap90(10, 4, false, false, 0)(4).bh, 1);
  // The largest tile index of a big grid (2^31 - 1 tiles at most: sm90_eligible).
  const TileMap90 big(int64_t(1) << 24, 127, true, false, 33);
  const int64_t last = (int64_t(1) << 24) * 127 - 1;
  const Tile90 a = big(last), b = tile_by_division(last, int64_t(1) << 24, 127, true, false, 33);
  EXPECT_TRUE(a.m_block == b.m_block && a.bh == b.bh);
}

// The forward's stream-K tail (config.h StreamK): every CTA's items, walked as the kernel
// walks them, cover every (tile, key-block step) exactly once; a split tile has exactly two
// pieces, the keys' first part [0, j) as the last item of CTA c (kMerge) and the rest [j, nk) as
// the first tail item of CTA c + 1 (kPartial, whose slot c + 1 the merge reads); each CTA's
// steps are within one tile's plus one step of the mean; no tail where the rounds come out even.
TEST(Sm90Layout, StreamKTailCoversEveryStepOnce) {
  for (int64_t tiles : {1, 5, 7, 131, 132, 133, 200, 2048, 2752, 1024})
    for (int grid : {1, 2, 3, 7, 132})
      for (int nk : {1, 2, 3, 16, 64, 103}) {
        const int64_t g = std::min<int64_t>(grid, tiles);
        const StreamK split(tiles, g, nk);
        const std::string where =
            "tiles " + std::to_string(tiles) + " grid " + std::to_string(g) + " nk " + std::to_string(nk);
        if (tiles % g == 0) {
          ASSERT_EQ(split.width, 0) << where;
        } else {
          ASSERT_GT(split.width, nk) << where;
        }
        ASSERT_EQ(split.dp_rounds, split.width > 0 ? tiles / g - 1 : (tiles + g - 1) / g) << where;
        std::vector<int> seen(size_t(tiles * nk), 0);
        std::vector<int64_t> merge_tile(size_t(g), -1), partial_tile(size_t(g), -1);
        std::vector<int> merge_j(size_t(g), -1), partial_j(size_t(g), -1);
        int64_t most = 0;
        for (int c = 0; c < g; ++c) {
          int cursor = 0, items = 0, tail_items = 0;
          int64_t steps = 0;
          StreamKPiece pc;
          while (split.item(c, int(g), &cursor, &pc)) {
            ASSERT_LT(items++, 4 * tiles + 8) << where;
            if (pc.tile >= tiles) continue;  // (the last whole round past the last tile)
            const bool tail = split.width > 0 && pc.tile >= split.tile0;
            if (pc.role == StreamKPiece::kWhole) {
              pc.i_lo = 0;
              pc.i_hi = nk;
            }
            ASSERT_TRUE(pc.i_lo >= 0 && pc.i_lo < pc.i_hi && pc.i_hi <= nk) << where;
            for (int i = pc.i_lo; i < pc.i_hi; ++i) ++seen[size_t(pc.tile * nk + i)];
            steps += pc.i_hi - pc.i_lo;
            if (pc.role == StreamKPiece::kPartial) {
              ASSERT_EQ(tail_items, 0) << where << ": a partial piece is its CTA's first of the tail";
              ASSERT_EQ(pc.i_hi, nk) << where;
              partial_tile[size_t(c)] = pc.tile;
              partial_j[size_t(c)] = pc.i_lo;
            }
            if (pc.role == StreamKPiece::kMerge) {
              ASSERT_EQ(pc.i_lo, 0) << where;
              merge_tile[size_t(c)] = pc.tile;
              merge_j[size_t(c)] = pc.i_hi;
            }
            if (tail) ++tail_items;
            if (pc.role == StreamKPiece::kMerge) {
              ASSERT_FALSE(split.item(c, int(g), &cursor, &pc)) << where << ": a merge piece is its CTA's last";
              break;
            }
          }
          most = std::max(most, steps);
        }
        for (size_t k = 0; k < seen.size(); ++k) ASSERT_EQ(seen[k], 1) << where << " step " << k;
        for (int c = 0; c < g; ++c) {
          if (merge_tile[size_t(c)] < 0) continue;
          ASSERT_LT(c + 1, g) << where;
          EXPECT_EQ(partial_tile[size_t(c + 1)], merge_tile[size_t(c)]) << where << " cta " << c;
          EXPECT_EQ(partial_j[size_t(c + 1)], merge_j[size_t(c)]) << where << " cta " << c;
        }
        for (int c = 0; c < g; ++c)
          if (partial_tile[size_t(c)] >= 0) {
            ASSERT_GT(c, 0) << where;
            EXPECT_GE(merge_tile[size_t(c - 1)], 0) << where << " cta " << c;
          }
        const int64_t mean = (tiles * nk + g - 1) / g;
        if (split.width > 0) EXPECT_LE(most, mean + 1) << where;
      }
  // 2048 tiles (head_dim 128, batch x seqlen 16k, 16 heads) of 64 steps on 132 SMs: 993 steps a
  // CTA at most instead of 16 rounds' 1024.
  const StreamK h200(2048, 132, 64);
  EXPECT_EQ(h200.dp_rounds, 14);
  EXPECT_EQ(h200.dp_rounds * 64 + h200.width, 993);
}

}  // namespace
}  // namespace flashattn::test
