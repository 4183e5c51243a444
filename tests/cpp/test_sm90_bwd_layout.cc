// The sm90 backward's shared-memory addressing, checked on the CPU (as test_sm90_layout.cc does
// for the forward): a model of what TMA writes (64-column boxes, 128-byte swizzle) and of how
// wgmma reads an operand through a descriptor, driven by the kernel's tile geometry
// (cuda/sm90/bwd_config.h), its descriptor calls (cuda/sm90/desc.h) and its transposed dS store
// (sds_offset). Every GEMM of the kernel, for both consumer warpgroups and both ring stages:
//   S^T = K Q^T, dP^T = V dO^T        K, V, Q, dO K-major
//   dV += P^T dO, dK += dS^T Q        dO, Q read N-major (P^T, dS^T come from registers)
//   dQ  = dS K                        dS of both warpgroups as they store it into one buffer
//                                     (K-major A, 128 keys), K read N-major, warpgroup cw's
//                                     head_dim columns cw * kDQ .. + kDQ - 1 (64-query steps)
//                                     or rows cw * 64 .. + 63 (128-query steps); both dS buffers
//   dQ^T = K^T dS^T                   80-query steps (kDqT): K's panel cw read M-major (the
//                                     transposed A), the dS buffer K-major as B
// (tiers 192 and 256: both warpgroups on the same 64 keys, warpgroup 0's dV and 1's dK over all
// columns, each warpgroup's dQ columns as wgmma pieces, Bwd90Config::dq_col0 / dq_col1; the P^T
// exchange tile, sp_offset)
// and the dQ variant's fp32 dQ buffer: the consumers' stores, the writer's rows, bank conflicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "cuda/sm90/bwd_config.h"
#include "cuda/sm90/desc.h"
#include "semantics/dropout.h"
#include "sm90_layout_model.h"

namespace flashattn::test {
namespace {

using namespace flashattn::cuda::sm90;
using namespace flashattn::test::sm90_model;

// A x^T through two K-major descriptors (the S^T and dP^T GEMMs): m64 of `a` rows from a_tile,
// n64 of `b` rows, k16 steps over kD; compared with the plain product over head_dim columns.
template <typename C>
int check_nt(Smem& s, uint32_t a_tile, uint32_t b_tile, const Matrix& a, int a_row0, const Matrix& b, int head_dim) {
  int bad = 0;
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < C::kBlockM; ++n) {
      double got = 0, want = 0;
      for (int kk = 0; kk < C::kD / 16; ++kk)
        for (int e = 0; e < 16; ++e)
          got += read_k_major(s, desc_k_major(a_tile, C::kPanelKV, kk), m, e) *
                 read_k_major(s, desc_k_major(b_tile, C::kPanelQ, kk), n, e);
      for (int c = 0; c < head_dim; ++c) want += a[a_row0 + m][c] * b[n][c];
      bad += !(got == want);
    }
  return bad;
}

// A column's address in a tile of 64-column panels (the kernel's panel_col).
uint32_t panel_col(uint32_t tile, int col, uint32_t panel_bytes) {
  return tile + uint32_t(col / 64) * panel_bytes + uint32_t(col % 64) * 2u;
}

// X^T Y with X (kBlockM queries x 64 keys, from registers) and Y = Q or dO read N-major (the dK and
// dV GEMMs): k16 steps over the kBlockM queries, N = n_cols columns from col0 (the kernel's: all
// kD columns from 0).
template <typename C>
int check_tn(Smem& s, uint32_t y_tile, const Matrix& x, const Matrix& y, int head_dim, int col0, int n_cols) {
  int bad = 0;
  const uint32_t tile = panel_col(y_tile, col0, C::kPanelQ);
  for (int m = 0; m < 64; ++m)  // key
    for (int n = 0; n < n_cols; ++n) {
      double got = 0, want = 0;
      for (int kk = 0; kk < C::kBlockM / 16; ++kk)
        for (int e = 0; e < 16; ++e)
          got += x[kk * 16 + e][m] * read_mn_major(s, desc_mn_major(tile, C::kPanelQ, kk), e, n);
      for (int q = 0; q < C::kBlockM; ++q) want += x[q][m] * (col0 + n < head_dim ? y[q][col0 + n] : 0.0);
      bad += !(got == want);
    }
  return bad;
}

template <typename C>
void check_tier(int head_dim) {
  constexpr int kD = C::kD;
  std::mt19937 rng(kD * 13 + head_dim + C::kBlockM);
  Smem s(C::kSmemBytes);
  const Matrix k = random_matrix(C::kBlockN, head_dim, head_dim, rng);
  const Matrix v = random_matrix(C::kBlockN, head_dim, head_dim, rng);
  ASSERT_EQ(C::kOffK % 1024, 0);
  ASSERT_EQ(C::kOffV % 1024, 0);
  tma_store(s, C::kOffK, k, C::kPanels, C::kPanelKV);
  tma_store(s, C::kOffV, v, C::kPanels, C::kPanelKV);
  for (int st = 0; st < C::kStages; ++st) {
    const Matrix q = random_matrix(C::kBlockM, head_dim, head_dim, rng);
    const Matrix dO = random_matrix(C::kBlockM, head_dim, head_dim, rng);
    const uint32_t sQ = C::kOffQ + st * C::kBytesQ, sdO = C::kOffdO + st * C::kBytesQ;
    ASSERT_EQ(sQ % 1024, 0u);
    ASSERT_EQ(sdO % 1024, 0u);
    tma_store(s, sQ, q, C::kPanels, C::kPanelQ);
    tma_store(s, sdO, dO, C::kPanels, C::kPanelQ);
    for (int cw = 0; cw < 2; ++cw) {
      const uint32_t key0 = C::kSplitD ? 0u : uint32_t(cw) * 64;  // the kernel's sK, sV: + key0 * 128
      const uint32_t sK = C::kOffK + key0 * 128, sV = C::kOffV + key0 * 128;
      EXPECT_EQ(check_nt<C>(s, sK, sQ, k, key0, q, head_dim), 0) << "S^T, tier " << kD << " hd " << head_dim << " st " << st << " wg " << cw;
      EXPECT_EQ(check_nt<C>(s, sV, sdO, v, key0, dO, head_dim), 0) << "dP^T, tier " << kD << " hd " << head_dim << " st " << st << " wg " << cw;
      const Matrix pt = random_matrix(C::kBlockM, 64, 64, rng);  // kBlockM x 64  // P[query][key], dS likewise
      EXPECT_EQ(check_tn<C>(s, sdO, pt, dO, head_dim, 0, kD), 0)
          << "dV, tier " << kD << " hd " << head_dim << " st " << st << " wg " << cw;
      EXPECT_EQ(check_tn<C>(s, sQ, pt, q, head_dim, 0, kD), 0)
          << "dK, tier " << kD << " hd " << head_dim << " st " << st << " wg " << cw;
    }
  }
  // dS as the consumers store it (warpgroup cw: element (query, key0 + kr) at panel cw +
  // sds_offset(query, kr)), then dQ[:, cw kDQ ..) = dS K over the 128 keys, for each warpgroup
  // and dS buffer: A K-major (panels of kPaneldS), B = K N-major from the kernel's sKdq.
  for (int buf = 0; buf < C::kBuffersdS; ++buf) {
    const Matrix ds = random_matrix(C::kBlockM, C::kBlockN, C::kBlockN, rng);
    const uint32_t sdS = C::kOffdS + uint32_t(buf) * C::kBytesdS;
    ASSERT_EQ(sdS % 1024, 0u);
    ASSERT_LE(sdS + C::kBytesdS, uint32_t(C::kOffLse));
    for (int cw = 0; cw < C::kBlockN / 64; ++cw)  // (kSplitD: warpgroup 1 alone stores dS, into panel 0)
      for (int qr = 0; qr < C::kBlockM; ++qr)
        for (int kr = 0; kr < 64; ++kr) {
          const uint32_t o = uint32_t(cw) * C::kPaneldS + sds_offset<C>(qr, kr);
          ASSERT_EQ(o, sds_offset<C>(qr, cw * 64 + kr));
          s.at(sdS + o) = ds[qr][cw * 64 + kr];
        }
    if constexpr (C::kDqT) {
      // dQ^T[dq_col0 .. + 64, all kBlockM queries] = K^T dS^T: A(m, e) = K[16 kk + e][dq_col0 + m]
      // through the kernel's M-major descriptor (the model reads it as an MN-major operand's
      // (k, mn) element), B(e, n) = dS[n][16 kk + e] through the whole buffer's K-major one.
      for (int cw = 0; cw < 2; ++cw) {
        const int dq_col0 = C::dq_col0(cw);
        const uint32_t sKdq = panel_col(C::kOffK, dq_col0, C::kPanelKV);
        int bad = 0;
        for (int m = 0; m < 64; ++m)
          for (int n = 0; n < C::kBlockM; ++n) {
            double got = 0, want = 0;
            for (int kk = 0; kk < C::kBlockN / 16; ++kk)
              for (int e = 0; e < 16; ++e)
                got += read_mn_major(s, desc_mn_major(sKdq, C::kPanelKV, kk), e, m) *
                       read_k_major(s, desc_k_major(sdS, C::kPaneldS, kk), n, e);
            const int col = dq_col0 + m;
            for (int j = 0; j < C::kBlockN; ++j) want += ds[n][j] * (col < head_dim ? k[j][col] : 0.0);
            bad += !(got == want);
          }
        EXPECT_EQ(bad, 0) << "dQ^T, tier " << kD << " hd " << head_dim << " buffer " << buf << " wg " << cw;
      }
      continue;
    }
    for (int cw = 0; cw < 2; ++cw)
     for (int piece = 0; piece < (C::kDQ1 > 0 ? 2 : 1); ++piece) {
      // The kernel's dq_row0, dq_col0 (or piece 1's column), sKdq and dS tile of warpgroup cw.
      const int dq_row0 = C::kDqRows ? cw * 64 : 0, dq_col0 = piece == 0 ? C::dq_col0(cw) : C::dq_col1(cw);
      const int n_cols = piece == 0 ? C::kDQ0 : C::kDQ1;
      const uint32_t sKdq = panel_col(C::kOffK, dq_col0, C::kPanelKV);
      const uint32_t sdS_wg = sdS + uint32_t(dq_row0) * 128u;
      int bad = 0;
      for (int m = 0; m < 64; ++m)
        for (int n = 0; n < n_cols; ++n) {
          double got = 0, want = 0;
          for (int kk = 0; kk < C::kBlockN / 16; ++kk)
            for (int e = 0; e < 16; ++e)
              got += read_k_major(s, desc_k_major(sdS_wg, C::kPaneldS, kk), m, e) *
                     read_mn_major(s, desc_mn_major(sKdq, C::kPanelKV, kk), e, n);
          const int col = dq_col0 + n;
          for (int j = 0; j < C::kBlockN; ++j) want += ds[dq_row0 + m][j] * (col < head_dim ? k[j][col] : 0.0);
          bad += !(got == want);
        }
      EXPECT_EQ(bad, 0) << "dQ, tier " << kD << " hd " << head_dim << " buffer " << buf << " wg " << cw << " piece "
                        << piece;
    }
  }
}

TEST(Sm90BwdLayout, DescriptorsReadWhatTmaWrote) {
  check_tier<Bwd90Config<64>>(64);
  check_tier<Bwd90Config<64>>(40);
  check_tier<Bwd90Config<64, false, 128>>(64);
  check_tier<Bwd90Config<64, false, 128>>(40);
  check_tier<Bwd90Config<128>>(128);
  check_tier<Bwd90Config<128>>(104);
  check_tier<Bwd90Config<128, true, 80>>(128);
  check_tier<Bwd90Config<128, true, 80>>(104);
  check_tier<Bwd90Config<192>>(192);
  check_tier<Bwd90Config<192>>(152);
  check_tier<Bwd90Config<256>>(256);
  check_tier<Bwd90Config<256>>(232);
}

// The split tiers' dQ pieces: the two warpgroups' pieces cover the head dim exactly once, each
// inside one 64-column panel or whole panels (an MN-major operand).
template <typename C>
void check_pieces() {
  std::vector<int> dq(C::kD, 0);
  for (int cw = 0; cw < 2; ++cw) {
    const int dq_pieces[2][2] = {{C::dq_col0(cw), C::kDQ0}, {C::dq_col1(cw), C::kDQ1}};
    for (int i = 0; i < 2; ++i) {
      const int col = dq_pieces[i][0], n = dq_pieces[i][1];
      if (n == 0) continue;
      EXPECT_TRUE(n % 64 == 0 ? col % 64 == 0 : col / 64 == (col + n - 1) / 64) << C::kD << " wg " << cw;
      for (int c = col; c < col + n; ++c) ++dq.at(c);
    }
  }
  for (int c = 0; c < C::kD; ++c) EXPECT_EQ(dq[c], 1) << "tier " << C::kD << " dQ column " << c;
}

TEST(Sm90BwdLayout, SplitHeadDimPieces) {
  check_pieces<Bwd90Config<192>>();
  check_pieces<Bwd90Config<256>>();
  EXPECT_EQ(Bwd90Config<192>::kDQ0 + Bwd90Config<192>::kDQ1, 96);
  EXPECT_LE((Bwd90Config<192, true>::kSmemBytes), 232448);
  EXPECT_LE((Bwd90Config<256, true>::kSmemBytes), 232448);
  EXPECT_EQ(Bwd90Config<192>::kBlockN, 64);
}

// The split tiers' P^T exchange tile (sp_offset): every (thread, float4) of a warpgroup's S^T
// accumulators at its own 16 bytes inside the tile, the tile inside its region, and each warp's
// 32 float4 stores one 512-byte contiguous run (conflict-free).
template <typename C>
void check_p_exchange() {
  std::vector<int> hit(C::kBytesP / 16, 0);
  for (int t = 0; t < 128; ++t)
    for (int i = 0; i < C::kBlockM / 8; ++i) {  // kNS / 4 float4 a thread (kNS = kBlockM / 2)
      const uint32_t o = sp_offset<C>(t, i);
      ASSERT_GE(o, uint32_t(C::kOffP));
      ASSERT_LT(o + 16, uint32_t(C::kOffP + C::kBytesP) + 1);
      ++hit[(o - C::kOffP) / 16];
      if (t % 32 != 0) EXPECT_EQ(o, sp_offset<C>(t - 1, i) + 16u);
    }
  for (int h : hit) EXPECT_EQ(h, 1);
  EXPECT_EQ(C::kOffdQ, C::kOffP + C::kBytesP);
  EXPECT_GE(C::kOffP, C::kOffdS + C::kBuffersdS * C::kBytesdS);
}

// Where tier 256 stages dQ in the ring stage (padded batch only): the kernel's kDqStage, the
// launcher's choice and the selector's deterministic-varlen rule read one helper.
TEST(Sm90BwdLayout, DqStagedTiers) {
  EXPECT_TRUE((Bwd90Config<256, true>::kDqStage));
  EXPECT_FALSE((Bwd90Config<256, false>::kDqStage));
  EXPECT_FALSE((Bwd90Config<192, true>::kDqStage));
  EXPECT_FALSE((Bwd90Config<128, true>::kDqStage));
  for (int d = 8; d <= 256; d += 8) EXPECT_EQ(bwd90_dq_staged_head_dim(d), d > 192) << d;
}

TEST(Sm90BwdLayout, SplitPExchange) {
  check_p_exchange<Bwd90Config<192>>();
  check_p_exchange<Bwd90Config<192, true>>();
  check_p_exchange<Bwd90Config<256>>();
  check_p_exchange<Bwd90Config<256, true>>();
}

TEST(Sm90BwdLayout, RegionsDisjointAndFitHopper) {
  for (int d : {64, 128}) {
    const int off[] = {d == 64 ? Bwd90Config<64>::kOffK : Bwd90Config<128>::kOffK,
                       d == 64 ? Bwd90Config<64>::kOffV : Bwd90Config<128>::kOffV,
                       d == 64 ? Bwd90Config<64>::kOffQ : Bwd90Config<128>::kOffQ,
                       d == 64 ? Bwd90Config<64>::kOffdO : Bwd90Config<128>::kOffdO,
                       d == 64 ? Bwd90Config<64>::kOffdS : Bwd90Config<128>::kOffdS,
                       d == 64 ? Bwd90Config<64>::kOffKeep : Bwd90Config<128>::kOffKeep,
                       d == 64 ? Bwd90Config<64>::kOffLse : Bwd90Config<128>::kOffLse,
                       d == 64 ? Bwd90Config<64>::kOffDsum : Bwd90Config<128>::kOffDsum,
                       d == 64 ? Bwd90Config<64>::kOffBar : Bwd90Config<128>::kOffBar};
    for (int i = 1; i < 9; ++i) EXPECT_LT(off[i - 1], off[i]) << "region " << i << " tier " << d;
  }
  EXPECT_EQ(Bwd90Config<128>::kOffV - Bwd90Config<128>::kOffK, 2 * 128 * 128);
  EXPECT_EQ(Bwd90Config<128>::kOffdS - Bwd90Config<128>::kOffdO, 2 * 2 * 64 * 128);
  EXPECT_EQ(Bwd90Config<128>::kOffKeep - Bwd90Config<128>::kOffdS, 2 * 64 * 128 * 2);  // two 64 x 128 dS buffers
  EXPECT_EQ(Bwd90Config<128>::kOffLse - Bwd90Config<128>::kOffKeep, 2 * 2 * 64 * 2 * 4);  // keep bits
  EXPECT_LE((Bwd90Config<128, true>::kSmemBytes), 232448);
  EXPECT_EQ((Bwd90Config<128, true>::kBuffersdQ), 1);
  // The dQ variant's regions: dS, the dQ buffer(s), the keep bits (none at 128-query steps), LSE.
  EXPECT_EQ((Bwd90Config<128, true>::kOffdQ), (Bwd90Config<128, true>::kOffdS + 2 * Bwd90Config<128, true>::kBytesdS));
  EXPECT_EQ((Bwd90Config<128, true>::kOffKeep), (Bwd90Config<128, true>::kOffdQ + Bwd90Config<128, true>::kBytesdQ));
  EXPECT_EQ((Bwd90Config<128, true>::kOffLse), (Bwd90Config<128, true>::kOffKeep + Bwd90Config<128, true>::kBytesKeep));
  EXPECT_EQ((Bwd90Config<64, true>::kOffKeep), (Bwd90Config<64, true>::kOffdQ + 2 * Bwd90Config<64, true>::kBytesdQ));
  EXPECT_EQ((Bwd90Config<64, true, 128>::kBytesKeep), 2 * 2 * 64 * 4 * 4);  // kDrop: four query words a key
  // Head_dim 256 (kSplitD): 64 keys, one dS buffer of one panel, the P^T exchange tile (fp32),
  // red.global dQ (no buffer), in 227 KB.
  using S = Bwd90Config<256>;
  EXPECT_EQ(S::kBlockN, 64);
  EXPECT_EQ(S::kDQ, 128);
  EXPECT_EQ(S::kOffV - S::kOffK, 4 * 64 * 128);
  EXPECT_EQ(S::kOffdS - S::kOffdO, 2 * 4 * 64 * 128);
  EXPECT_EQ(S::kBuffersdS, 1);
  EXPECT_EQ(S::kOffKeep - S::kOffdS, 64 * 128 + 64 * 64 * 4);
  EXPECT_EQ(S::kOffLse - S::kOffKeep, S::kBytesKeep);
  EXPECT_LT(S::kOffLse, S::kOffDsum);
  EXPECT_LT(S::kOffDsum, S::kOffBar);
  EXPECT_LE(S::kSmemBytes, 232448);
  // Keep words: both buffers of both warpgroups, each a bijection of (64 keys, kBlockM / 32 query
  // words); each warp draws kKeepDraws words, together each of them once per key group.
  for (int bm : {64, 128}) {
    const int qws = bm / 32, draws = bm == 64 ? Bwd90Config<128>::kKeepDraws : Bwd90Config<64, true, 128>::kKeepDraws;
    EXPECT_EQ(draws * 2, qws);
    std::vector<int> words(64 * qws, 0), drawn(2 * qws, 0);
    for (int key = 0; key < 64; ++key)
      for (int qw = 0; qw < qws; ++qw) ++words.at(Bwd90Config<128>::keep_word(key, qw));
    for (int n : words) EXPECT_EQ(n, 1);
    for (int warp = 0; warp < 4; ++warp)
      for (int i = 0; i < draws; ++i) ++drawn.at((warp % 2) * qws + Bwd90Config<128>::keep_draw_qw(warp, i));
    for (int n : drawn) EXPECT_EQ(n, 1);
  }
  EXPECT_EQ(Bwd90Config<128>::kBytesKeep, 2 * 2 * Bwd90Config<128>::kKeepWordsWG * 4);
  EXPECT_EQ(Bwd90Config<64>::kDQ * 2, 64);
  EXPECT_EQ(Bwd90Config<128>::kDQ * 2, 128);
  EXPECT_LE(Bwd90Config<64>::kSmemBytes, 232448);
  EXPECT_LE((Bwd90Config<64, true, 128>::kSmemBytes), 232448);
  EXPECT_EQ((Bwd90Config<64, true, 128>::kBuffersdQ), 1);  // 128 x 288 bytes: one buffer fits
  EXPECT_EQ((Bwd90Config<64, true, 128>::kDQ), 64);       // rows split, all head_dim columns
  EXPECT_LE(Bwd90Config<128>::kSmemBytes, 232448);
  // dS's transposed store: a bijection of (64 queries, 128 keys) onto the buffer's 16 KB.
  std::vector<int> hit(64 * 128, 0);
  for (int q = 0; q < 64; ++q)
    for (int k = 0; k < 128; ++k) {
      const uint32_t o = sds_offset<Bwd90Config<128>>(q, k);
      ASSERT_LT(o, 16384u);
      ASSERT_EQ(o % 2, 0u);
      ++hit[o / 2];
    }
  for (int h : hit) EXPECT_EQ(h, 1);
}

// The dQ variant (Bwd90Config<kD, true>): the consumers' float2 stores of their wgmma
// accumulators (thread (warp, lane) of warpgroup cw: rows warp * 16 + lane / 4 (+ 8), columns
// dq_col0(cw) + 8 t + 2 (lane % 4) (+ 1), and at tier 192 dq_col1(cw) + ... for its second piece)
// cover every (row, column) of the buffer once, and row r's
// kD floats lie in column order at [r * kRowdQ, + kD * 4): what the writer's one bulk reduction
// per row reads (varlen), and the buffer is the TMA box the tensor form reads (padded batch). Each store instruction is conflict-free per half warp (a 64-bit access is
// served 16 lanes at a time: the 16 lanes' 8-byte words fall into distinct 8-byte bank pairs).
template <typename C>
void check_dq_buffer() {
  constexpr int kD = C::kD;
  std::vector<int> hit(C::kBlockM * kD, 0);
  for (int cw = 0; cw < 2; ++cw)
    for (int piece = 0; piece < (C::kDQ1 > 0 ? 2 : 1); ++piece)  // (tier 192: two pieces)
    for (int warp = 0; warp < 4; ++warp)
      for (int hf = 0; hf < 2; ++hf)
        for (int t = 0; t < (piece == 0 ? C::kDQ0 : C::kDQ1) / 8; ++t) {
          std::vector<int> pair_used(16, 0);  // per half warp: 8-byte bank pairs of 128 bytes
          for (int lane = 0; lane < 32; ++lane) {
            const int dq_row0 = C::kDqRows ? cw * 64 : 0, dq_col0 = piece == 0 ? C::dq_col0(cw) : C::dq_col1(cw);
            const int row = dq_row0 + warp * 16 + lane / 4 + hf * 8, col = dq_col0 + t * 8 + 2 * (lane % 4);
            const uint32_t o = sdq_offset<C>(row, col);
            ASSERT_EQ(o % 8, 0u);
            ASSERT_GE(o, uint32_t(row * C::kRowdQ));
            ASSERT_LT(o + 8, uint32_t(row * C::kRowdQ + kD * 4 + 1));
            ASSERT_EQ(o - row * C::kRowdQ, uint32_t(col * 4)) << "row's columns in order";
            hit[row * kD + col] += 1;
            hit[row * kD + col + 1] += 1;
            if (lane % 16 == 0) std::fill(pair_used.begin(), pair_used.end(), 0);
            EXPECT_EQ(pair_used[(o % 128) / 8]++, 0) << "bank conflict, tier " << kD << " lane " << lane;
          }
        }
  for (int h : hit) EXPECT_EQ(h, 1);
  // The tensor form reads the buffer as one unswizzled TMA box of (kD + kPadColsdQ) columns x
  // kBlockM rows: element (r, c) at (r * box columns + c) * 4, 128-byte aligned.
  for (int r = 0; r < C::kBlockM; ++r)
    for (int c = 0; c < kD; ++c) ASSERT_EQ(sdq_offset<C>(r, c), uint32_t((r * (kD + C::kPadColsdQ) + c) * 4));
  EXPECT_EQ(C::kOffdQ % 128, 0);
  EXPECT_EQ(C::kBytesdQ % 128, 0);
  EXPECT_LE(kD + C::kPadColsdQ, 256);
  EXPECT_EQ(C::kRowdQ % 16, 0);  // bulk copy source: 16-byte aligned rows
  EXPECT_EQ(C::kOffdQ % 16, 0);
  EXPECT_EQ((kD * 4) % 16, 0);
}

// The dQ variant's regions: dQ buffers between dS and LSE, the other regions as in the plain
// kernel's layout up to dS, two more barriers per dQ buffer, within Hopper's 227 KB.
template <int kD>
void check_dq_regions(int want_buffers) {
  using C = Bwd90Config<kD, true>;
  using C0 = Bwd90Config<kD>;
  EXPECT_EQ(C::kBuffersdQ, want_buffers) << kD;
  EXPECT_EQ(C0::kBuffersdQ, 0) << kD;
  EXPECT_EQ(C::kOffdS, C0::kOffdS) << kD;
  EXPECT_EQ(C::kOffdQ, C::kOffdS + C::kBuffersdS * C::kBytesdS + C::kBytesP) << kD;
  EXPECT_LE(C::kOffdQ + C::kBuffersdQ * C::kBytesdQ, C::kOffLse) << kD;
  EXPECT_LT(C::kOffLse, C::kOffBar) << kD;
  EXPECT_EQ(C::kOffBar % 8, 0) << kD;
  // Barriers: K/V full, Q/dO full and empty per stage, dQ full and empty per buffer; slack.
  EXPECT_LE(C::kOffBar + (1 + 2 * C::kStages + 2 * C::kBuffersdQ) * 8 + 1024, C::kSmemBytes) << kD;
  EXPECT_LE(C::kSmemBytes, 232448) << kD;
}

// Head_dim 256's dQ variant (kDqStage): no dQ buffer; warpgroup cw's 64 x 128 fp32 dQ goes into
// stage st's Q tile (cw 0) or dO tile (cw 1) as four TMA boxes of 32 columns x 64 rows, 128-byte
// swizzled (TMA's pattern: 16-byte chunk ^ row % 8 within each 128-byte row of a 1024-byte aligned
// box). Every element once, inside the tile; each float2 store (store t of a thread: its column
// tile dq_stage_tile(t, gr)) conflict-free per half warp.
TEST(Sm90BwdLayout, DqStagedInTheRing) {
  using C = Bwd90Config<256, true>;
  using C0 = Bwd90Config<256>;
  static_assert(C::kDqStage && !C0::kDqStage && !Bwd90Config<192, true>::kDqStage, "kDqStage: tier 256's dQ variant");
  EXPECT_EQ(C::kBuffersdQ, 0);
  EXPECT_EQ(C::kBarsdQFull, C::kStages);
  EXPECT_EQ(C::kBarsdQEmpty, 0);
  EXPECT_EQ(C::kOffLse, C0::kOffLse);  // the same operand layout as the red.global kernel
  EXPECT_LE(C::kSmemBytes, 232448);
  EXPECT_EQ(C::kDQ, 128);
  for (int st = 0; st < C::kStages; ++st)
    for (int cw = 0; cw < 2; ++cw) {
      const int base = (cw == 0 ? C::kOffQ : C::kOffdO) + st * C::kBytesQ;
      EXPECT_EQ(base % 1024, 0);
      EXPECT_LE(base + C::kBytesQ, C::kOffdS);
    }
  std::vector<int> hit(64 * 128, 0);
  for (int warp = 0; warp < 4; ++warp)
    for (int hf = 0; hf < 2; ++hf)
      for (int t = 0; t < C::kDQ / 8; ++t) {
        std::vector<int> pair_used(16, 0);
        for (int lane = 0; lane < 32; ++lane) {
          const int gr = lane / 4, tq = lane % 4;
          const int row = warp * 16 + gr + hf * 8, u = dq_stage_tile(t, gr), col = u * 8 + 2 * tq;
          ASSERT_GE(u, 0);
          ASSERT_LT(u, C::kDQ / 8);
          const uint32_t o = sdq_stage_offset<C>(row, col);
          const uint32_t a = uint32_t(row) * 128u + uint32_t(col % 32) * 4u;
          ASSERT_EQ(o, uint32_t(col / 32) * 8192u + (a ^ (((a >> 7) & 7u) << 4))) << "TMA's 128-byte swizzle";
          ASSERT_EQ(sdq_stage_offset<C>(row, col + 1), o + 4) << "a float2's two columns";
          ASSERT_LT(o + 8, uint32_t(C::kBytesQ) + 1);
          ++hit[row * 128 + col];
          ++hit[row * 128 + col + 1];
          if (lane % 16 == 0) std::fill(pair_used.begin(), pair_used.end(), 0);
          EXPECT_EQ(pair_used[(o % 128) / 8]++, 0) << "bank conflict: warp " << warp << " t " << t << " lane " << lane;
        }
      }
  for (int h : hit) EXPECT_EQ(h, 1);
}

// 80-query steps at head_dim 128 (kDqT, FLASHATTN_SM90_BWD_BLOCK_M=80): the regions in 227 KB
// without keep bits, one dQ buffer of four 32-column swizzled boxes; when a call may take them
// (bwd90_steps80_ok); and the consumers' dQ^T stores: thread (cw, warp, lane)'s accumulator
// 4 g + 2 hf + e, dQ element (query 8 g + 2 tq + e, column 64 cw + warp * 16 + gr + 8 hf), at
// row0(hf, e) + 1024 g as the kernel computes it (the same as sdq_stage_offset of the element:
// the swizzle reads the row within its 8-row atom), where TMA's box reads it, every element
// once, each 32-bit store of a warp on 32 distinct banks.
TEST(Sm90BwdLayout, DqTransposedStores) {
  using C = Bwd90Config<128, true, 80>;
  static_assert(C::kDqT && !Bwd90Config<128, true>::kDqT && !Bwd90Config<64, true, 128>::kDqT, "kDqT: 80-query steps");
  EXPECT_EQ(C::kBlockM, 80);
  EXPECT_EQ(C::kDqAcc, 40);
  EXPECT_EQ(C::kBytesKeep, 0);
  EXPECT_EQ(C::kBuffersdQ, 1);
  EXPECT_EQ(C::kBytesdQ, 80 * 128 * 4);
  EXPECT_EQ(C::kOffdQ % 1024, 0);
  EXPECT_EQ(C::kOffdQ, C::kOffdS + 2 * C::kBytesdS);
  EXPECT_EQ(C::kOffLse, C::kOffdQ + C::kBytesdQ);
  EXPECT_LE(C::kSmemBytes, 232448);
  EXPECT_EQ(C::dq_col0(0), 0);
  EXPECT_EQ(C::dq_col0(1), 64);
  EXPECT_TRUE(bwd90_steps80_ok(128, false, false, false, true));
  EXPECT_FALSE(bwd90_steps80_ok(64, false, false, false, true));
  EXPECT_FALSE(bwd90_steps80_ok(192, false, false, false, true));
  EXPECT_FALSE(bwd90_steps80_ok(128, true, false, false, true));   // a score modifier
  EXPECT_FALSE(bwd90_steps80_ok(128, false, true, false, true));   // dropout
  EXPECT_FALSE(bwd90_steps80_ok(128, false, false, true, true));   // deterministic
  EXPECT_FALSE(bwd90_steps80_ok(128, false, false, false, false));  // varlen or red.global
  std::vector<int> hit(C::kBlockM * 128, 0);
  for (int cw = 0; cw < 2; ++cw)
    for (int warp = 0; warp < 4; ++warp)
      for (int hf = 0; hf < 2; ++hf)
        for (int e = 0; e < 2; ++e)
          for (int g = 0; g < C::kBlockM / 8; ++g) {
            std::vector<int> bank_used(32, 0);
            for (int lane = 0; lane < 32; ++lane) {
              const int gr = lane / 4, tq = lane % 4;
              const int q = 8 * g + 2 * tq + e, c = C::dq_col0(cw) + warp * 16 + gr + 8 * hf;
              const uint32_t o = sdq_stage_offset<C>(2 * tq + e, c) + 1024u * uint32_t(g);
              ASSERT_EQ(o, sdq_stage_offset<C>(q, c)) << "query 8 g + r is 1024 g bytes past query r";
              const uint32_t a = uint32_t(q) * 128u + uint32_t(c % 32) * 4u;  // in box c / 32 before the swizzle
              ASSERT_EQ(o, uint32_t(c / 32) * uint32_t(C::kBlockM * 128) + (a ^ (((a >> 7) & 7u) << 4)))
                  << "TMA's 128-byte swizzle, box " << c / 32;
              ASSERT_LT(o + 4, uint32_t(C::kBytesdQ) + 1);
              ++hit[q * 128 + c];
              EXPECT_EQ(bank_used[(o / 4) % 32]++, 0) << "bank conflict: wg " << cw << " warp " << warp << " g " << g;
            }
          }
  for (int h : hit) EXPECT_EQ(h, 1);
}

TEST(Sm90BwdLayout, DqVariantBuffer) {
  check_dq_buffer<Bwd90Config<64, true>>();
  check_dq_buffer<Bwd90Config<64, true, 128>>();
  check_dq_buffer<Bwd90Config<128, true>>();
  check_dq_buffer<Bwd90Config<192, true>>();
  check_dq_regions<64>(2);   // two buffers at d64
  check_dq_regions<128>(1);  // one at d128 (two would pass 227 KB)
  check_dq_regions<192>(1);
}

// The dS store by stmatrix .x4 .trans (bwd_kernel.h). Register i of k16 block kk of thread t in
// warp w is dsa[kk][i] = pack2(acc_dp[8 kk + 2 i], acc_dp[8 kk + 2 i + 1]) (low half first), and
// accumulator element j of S^T's wgmma layout is key w * 16 + t / 4 + 8 ((j % 4) / 2), query
// (j / 4) * 8 + 2 (t % 4) + j % 2. stmatrix reads half h of thread t's register i as element
// (row t / 4, column 2 (t % 4) + h) of matrix i and, with .trans, writes element (row c, column r)
// to the address lane 8 i + r gave plus 2 c bytes. Every element must land at
// sds_offset(query, key), each once.
template <typename C>
void check_ds_stmatrix() {
  std::vector<int> hit(C::kBlockM * 64, 0);
  for (int w = 0; w < 4; ++w)
    for (int kk = 0; kk < C::kBlockM / 16; ++kk)
      for (int i = 0; i < 4; ++i)
        for (int t = 0; t < 32; ++t)
          for (int h = 0; h < 2; ++h) {
            const int j = 8 * kk + 2 * i + h;  // the accumulator element packed there
            const int key = w * 16 + t / 4 + 8 * ((j % 4) / 2), query = (j / 4) * 8 + 2 * (t % 4) + j % 2;
            const int c = t / 4, r = 2 * (t % 4) + h;  // the element's place in matrix i
            const uint32_t addr = sds_stmatrix_offset<C>(w, 8 * i + r) + uint32_t(kk) * 16u * 128u + 2u * uint32_t(c);
            ASSERT_EQ(addr, sds_offset<C>(query, key)) << "warp " << w << " kk " << kk << " block " << i << " thread " << t;
            ASSERT_EQ(sds_stmatrix_offset<C>(w, 8 * i + r) % 16, 0u) << "stmatrix rows are 16-byte aligned";
            ++hit[query * 64 + key];
          }
  for (int x : hit) EXPECT_EQ(x, 1);
}

// Dropout's keep bits in the kernel with extras (64-query steps): warp w of a consumer warpgroup
// draws Philox units 2 (w % 2) and 2 (w % 2) + 1 of the warpgroup's 64-key stretch for query
// m0 + (w / 2) * 32 + lane, the warp's ballots transpose them (one per byte: bit l = lane l's
// test), lane 4 (k / 2) + 2 u + k % 2 keeps unit u's byte-k ballot and stores it at
// keep_word(key 8 (lane / 4) + 4 (w % 2) + lane % 4, w / 2); a consumer thread then reads the
// words of its keys kr0, kr0 + 8 and tests bit (g % 4) * 8 + 2 tq + e % 2 of word g / 4 for its
// element (key kr0 + 8 (e / 2), query 8 g + 2 tq + e % 2). Checked against Dropout::keep for every
// element of both warpgroups, on steps and key blocks away from the origin.
template <typename C>
void check_keep_bits() {
  const semantics::Dropout drop = semantics::make_dropout(0.3, 0x1234abcd9876ull, 77);
  for (const auto& [bh, m0, n0] : std::vector<std::tuple<uint64_t, int, int>>{{0, 0, 0}, {5, 192, 384}, {37, 960, 1664}}) {
    for (int cw = 0; cw < 2; ++cw) {
      const int key0 = C::kSplitD ? 0 : cw * 64;  // the kernel's key0
      std::vector<uint32_t> words(C::kKeepWordsWG, 0xdeadbeefu);
      std::vector<int> written(C::kKeepWordsWG, 0);
      for (int warp = 0; warp < 4; ++warp)
        for (int i = 0; i < C::kKeepDraws; ++i) {
          // As the kernel: per Philox unit u of the warp's two and byte k, a ballot of the
          // lanes' (query rows') keep tests; lane 4 (k / 2) + 2 u + k % 2 keeps it.
          const int kg = warp % 2, qw = C::keep_draw_qw(warp, i);
          const int unit0 = ((n0 + key0) >> 6) * 4 + 2 * kg;
          uint32_t mine[32] = {};
          for (int u = 0; u < 2; ++u) {
            semantics::Philox4 w[32];
            for (int lane = 0; lane < 32; ++lane) w[lane] = drop.words(bh, m0 + qw * 32 + lane, unit0 + u);
            for (int k = 0; k < 16; ++k) {
              uint32_t ballot = 0;
              for (int l = 0; l < 32; ++l)
                ballot |= uint32_t(semantics::Dropout::byte_kept(w[l], k, drop.threshold_hi())) << l;
              const int lane = 4 * (k >> 1) + 2 * u + (k & 1);
              ASSERT_EQ(8 * (lane >> 2) + 4 * kg + (lane & 3), semantics::Dropout::column_of(2 * kg + u, k));
              mine[lane] = ballot;
            }
          }
          for (int lane = 0; lane < 32; ++lane) {
            const int wi = C::keep_word(8 * (lane >> 2) + 4 * kg + (lane & 3), qw);
            ASSERT_LT(wi, C::kKeepWordsWG);
            words[wi] = mine[lane];
            ++written[wi];
          }
        }
      for (int n : written) EXPECT_EQ(n, 1);
      int bad = 0, dropped = 0;
      for (int warp = 0; warp < 4; ++warp)
        for (int lane = 0; lane < 32; ++lane) {
          const int gr = lane / 4, tq = lane % 4, kr0 = warp * 16 + gr;
          for (int g = 0; g < C::kBlockM / 8; ++g)
            for (int e = 0; e < 4; ++e) {
              const int hf = e / 2;
              const uint32_t word = words[C::keep_word(kr0 + 8 * hf, g / 4)];
              const bool kept = (word >> C::keep_shift(g, e, tq)) & 1u;
              ASSERT_EQ(C::keep_shift(g, e, tq), (g * 8 + 2 * tq + e % 2) % 32);  // query offset mod 32
              const int query = m0 + g * 8 + 2 * tq + e % 2, key = n0 + key0 + kr0 + 8 * hf;
              bad += kept != drop.keep(bh, query, key);
              dropped += !kept;
            }
        }
      EXPECT_EQ(bad, 0) << "bh " << bh << " m0 " << m0 << " n0 " << n0 << " warpgroup " << cw;
      EXPECT_GT(dropped, 64 * C::kBlockM / 5);  // p = 0.3: about 1229 of 4096 (64-query steps)
    }
  }
}

TEST(Sm90BwdLayout, DropoutKeepBits) {
  check_keep_bits<Bwd90Config<128>>();
  check_keep_bits<Bwd90Config<64>>();
  check_keep_bits<Bwd90Config<192>>();  // kSplitD: warpgroup 0 draws (the model's cw = 1 is the same words)
  check_keep_bits<Bwd90Config<256>>();
  check_keep_bits<Bwd90Config<64, true, 128>>();  // kDrop at 128-query steps: two words a warp
}

// kKRegs: K's wgmma A fragments by ldmatrix .x4 from the K tile as TMA wrote it (k_frag_offset).
// ldmatrix: lane 8 i + r gives the address of row r of matrix i; lane l receives in register i
// the pair at row l / 4, columns 2 (l % 4), + 1 of matrix i. Each register must hold the mma A
// fragment's pair: a_i = row (i % 2) * 8 + l / 4, columns (i / 2) * 8 + 2 (l % 4), + 1 of the
// warp's 16 keys and the k16 block.
TEST(Sm90BwdLayout, KFragmentsLoad) {
  using C = Bwd90Config<64, false, 128>;
  std::mt19937 rng(77);
  Smem s(C::kSmemBytes);
  const Matrix k = random_matrix(C::kBlockN, C::kD, C::kD, rng);
  tma_store(s, C::kOffK, k, C::kPanels, C::kPanelKV);
  int bad = 0;
  for (int cw = 0; cw < 2; ++cw)
    for (int warp = 0; warp < 4; ++warp) {
      const int key_row0 = cw * 64 + warp * 16;
      for (int kk = 0; kk < C::kD / 16; ++kk)
        for (int l = 0; l < 32; ++l)
          for (int i = 0; i < 4; ++i) {
            const uint32_t row_addr = C::kOffK + k_frag_offset<C>(key_row0, 8 * i + l / 4, kk);
            ASSERT_EQ(row_addr % 16, 0u) << "ldmatrix rows are 16-byte aligned";
            for (int h = 0; h < 2; ++h) {
              const double got = s.at(row_addr + 2u * uint32_t(2 * (l % 4) + h));
              const double want = k[key_row0 + (i % 2) * 8 + l / 4][kk * 16 + (i / 2) * 8 + 2 * (l % 4) + h];
              bad += !(got == want);
            }
          }
    }
  EXPECT_EQ(bad, 0);
}

TEST(Sm90BwdLayout, DsStmatrixStore) {
  check_ds_stmatrix<Bwd90Config<64>>();
  check_ds_stmatrix<Bwd90Config<64, true, 128>>();
  check_ds_stmatrix<Bwd90Config<128>>();
  check_ds_stmatrix<Bwd90Config<128, true, 80>>();
  check_ds_stmatrix<Bwd90Config<192>>();
  check_ds_stmatrix<Bwd90Config<256>>();
}

}  // namespace
}  // namespace flashattn::test
