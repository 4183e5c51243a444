// The sm90 (Hopper) backward (default for head_dim 33-256; the tests force it with
// FLASHATTN_EXPERIMENTAL_SM90_BWD=1): a grid of
// dtypes, head_dim tiers 64, 128, 192 and 256 (padded head_dims included), odd and unequal sequence
// lengths, causal; then the options it takes (GQA/MQA, windows, softcap, ALiBi, varlen,
// deterministic, dropout) and the ones it leaves to the sm80 path on request (dropout with
// FLASHATTN_SM90_BWD_DROPOUT=0; deterministic with FLASHATTN_SM90_BWD_DETERMINISTIC=0); for both dQ schemes
// (FLASHATTN_SM90_BWD_DQ_TMA=0: red.global from the consumers; 1, the default: shared memory and
// bulk reductions). Every result is checked against the
// double-precision reference with the tolerance rule (check_backward_results). Skips with a
// message without an sm_90 GPU or when the build has no sm90 backward.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <tuple>

#include "cuda/backend.h"
#include "gpu_harness.h"

namespace flashattn::test {
namespace {

// Runs `f` with the sm90 backward forced on or off (FLASHATTN_EXPERIMENTAL_SM90_BWD=1/0),
// restoring the environment afterwards.
template <typename F>
void with_sm90_bwd(bool on, F&& f) {
  with_env("FLASHATTN_EXPERIMENTAL_SM90_BWD", on ? "1" : "0", f);
}

// Forward (whichever path), then the backward with the sm90 backward requested; the path taken
// must be want_path, the gradients within the tolerance rule.
void check_backward_sm90(const Spec& spec, const char* want_path) {
  Case c(spec);
  GpuCase g(c);
  g.run_forward();
  RunInfo info;
  with_sm90_bwd(true, [&] { info = g.run_backward(); });
  EXPECT_EQ(info.path, want_path) << spec.str();
  check_backward_results(c);
}

#define REQUIRE_SM90_BWD() REQUIRE_SM90_PATH(true)

// The sm90 backward's kernel tier of a head_dim (72-96 run tier 128, 129-160 tier 192, 193-224
// tier 256, padded).
inline int bwd90_tier(int head_dim) {
  return head_dim <= 64 ? 64 : head_dim <= 128 ? 128 : head_dim <= 192 ? 192 : 256;
}

// Whether a tier (64, 128, 192, 256) of the sm90 backward is in this build (FLASHATTN_HEAD_DIMS
// may leave any out): its cases are skipped otherwise.
inline bool tier_built(int tier) {
  auto probe = [](int t) {
    std::string why;
    return sm90_path_built(true, &why, t);
  };
  static const bool built[4] = {probe(64), probe(128), probe(192), probe(256)};
  return tier == 64 ? built[0] : tier == 128 ? built[1] : tier == 192 ? built[2] : tier == 256 && built[3];
}
#define REQUIRE_BWD_TIER(t) \
  if (!tier_built(t)) GTEST_SKIP() << "head_dim tier " << (t) << " of the sm90 backward not built"

std::vector<GridParam> bwd_grid() {
  std::vector<GridParam> v;
  const std::pair<int, int> lens[] = {{1, 1}, {17, 97}, {113, 203}, {128, 128}, {64, 300}, {1000, 999}, {257, 2048}};
  for (DType dt : {DType::Float16, DType::BFloat16})
    for (int d : {40, 64, 96, 104, 128, 152, 192, 200, 232, 256})  // 40, 96, 104, 152, 200, 232: padded up to a kernel tier
      for (auto [sq, sk] : lens)
        for (bool causal : {false, true}) v.push_back({dt, d, sq, sk, causal});
  return v;
}

// The red.global dQ scheme (FLASHATTN_SM90_BWD_DQ_TMA=0: each consumer adds its dQ partials to
// the fp32 workspace); the default scheme (dQ through shared memory and bulk reductions) below.
template <typename F>
void with_red_global(F&& f) {
  with_env("FLASHATTN_SM90_BWD_DQ_TMA", "0", f);
}

class Sm90BwdGrid : public testing::TestWithParam<GridParam> {};

TEST_P(Sm90BwdGrid, Backward) {
  REQUIRE_SM90_BWD();
  const int tier = bwd90_tier(GetParam().head_dim);
  if (!tier_built(tier)) GTEST_SKIP() << "head_dim tier " << tier << " not built";
  REQUIRE_TIER_BUILT(grid_spec(GetParam(), 5), true);  // (the forward's tier: d96's own, d200's sm80)
  with_red_global([&] { check_backward_sm90(grid_spec(GetParam(), 5), "cuda-sm90"); });
}

INSTANTIATE_TEST_SUITE_P(All, Sm90BwdGrid, testing::ValuesIn(bwd_grid()), grid_name);

// The options of the shared semantics through the sm90 backward, one test per tier.
class Sm90BwdOptions : public testing::TestWithParam<int> {};

TEST_P(Sm90BwdOptions, Backward) {
  REQUIRE_SM90_BWD();
  const int d = GetParam();
  if (!tier_built(d)) GTEST_SKIP() << "head_dim tier " << d << " not built";
  std::vector<Spec> specs = option_specs(d, /*dropout=*/false);  // (dropout: Sm90BwdDropout)
  for (Spec& x : specs) {
    x.seed = uint64_t(d) * 37 + uint64_t(&x - specs.data());
    with_red_global([&] { check_backward_sm90(x, "cuda-sm90"); });
  }
}

INSTANTIATE_TEST_SUITE_P(Tiers, Sm90BwdOptions, testing::Values(64, 128, 192, 256));

// What goes to the sm80 path, even with the sm90 backward requested.
TEST(Sm90Bwd, FallsBackToSm80) {
  REQUIRE_SM90_BWD();
  if (!cuda_tier_built(64)) GTEST_SKIP() << "head_dim tier 64 not built";
  Spec base;
  base.dtype = DType::Float16;
  base.head_dim = 64;
  base.seqlen_q = 200;
  base.seqlen_k = 300;
  base.backend = Backend::Cuda;
  Spec s = base;
  s.dropout = 0.17f;
  with_env("FLASHATTN_SM90_BWD_DROPOUT", "0", [&] { check_backward_sm90(s, "cuda-sm80"); });
  s = base;
  s.deterministic = true;
  with_env("FLASHATTN_SM90_BWD_DETERMINISTIC", "0", [&] { check_backward_sm90(s, "cuda-sm80"); });
  s = base;
  s.head_dim = 60;  // tier 64, but not a multiple of 8 (no TMA)
  check_backward_sm90(s, "cuda-sm80");
  // (Head_dims whose tier this build has: FLASHATTN_HEAD_DIMS may leave some out.)
  if (cuda_tier_built(256)) {  // deterministic varlen at head_dim 256: its kernel adds dQ by red.global there
    s = base;
    s.head_dim = 256;
    s.deterministic = true;
    s.batch = 2;
    s.lens_q = {200, 77};
    s.lens_k = {300, 5};
    check_backward_sm90(s, "cuda-sm80");
  }
  // Not requested: the sm80 path.
  Case c(base);
  GpuCase g(c);
  g.run_forward();
  RunInfo info;
  with_sm90_bwd(false, [&] { info = g.run_backward(); });
  EXPECT_EQ(info.path, "cuda-sm80");
  check_backward_results(c);
  // Not requested, by default: head_dim 240 and 200 (tier 256) and 176 (tier 192) on the sm90
  // backward where the build has the tier (200: the sm80 path's tier 224 and the sm90 tier 256).
  for (int d : {240, 200, 176}) {
    if (!cuda_tier_built(d)) continue;
    Spec sd = base;
    sd.head_dim = d;
    Case cd(sd);
    GpuCase gd(cd);
    gd.run_forward();
    with_env("FLASHATTN_EXPERIMENTAL_SM90_BWD", nullptr, [&] { info = gd.run_backward(); });
    const bool sm90 = (d != 176 && tier_built(256)) || (d == 176 && tier_built(192));
    EXPECT_EQ(info.path, sm90 ? "cuda-sm90" : "cuda-sm80") << "head_dim " << d;
    check_backward_results(cd);
  }
}

// deterministic = true on the sm90 backward (the default; the test sets
// FLASHATTN_SM90_BWD_DETERMINISTIC=1 all the same): the dQ writer warps add in key-block order, so three runs are bitwise equal; GQA,
// causal, unequal lengths, tiers 64, 128, 192, 256 (dQ staged in the ring stage); varlen (the flat
// per-row reductions; at 256 the sm80 path, its kernel adds dQ by red.global there); a sliding window
// (query blocks whose first key block is not 0) with a softcap (kCap at tiers 64 and 128, the
// kernel with extras at 192 and 256); dropout
// (kDrop's keep bits).
// (One test per tier and variant: ctest runs them in parallel; one per tier took 92 s, session 9.)
class Sm90BwdDeterministic : public testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(Sm90BwdDeterministic, ThreeRunsBitwiseEqual) {
  REQUIRE_SM90_BWD();
  const int d = std::get<0>(GetParam()), variant = std::get<1>(GetParam());
  if (!tier_built(d)) GTEST_SKIP() << "head_dim tier " << d << " not built";
  with_env("FLASHATTN_SM90_BWD_DETERMINISTIC", "1", [&] {
    Spec s;
    s.dtype = variant ? DType::Float16 : DType::BFloat16;
    s.head_dim = d;
    s.seqlen_q = 1025;
    s.seqlen_k = 777;
    s.heads = 8;
    s.heads_kv = 2;
    s.causal = variant == 0;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(d * 3 + variant);
    if (variant == 1) {
      s.batch = 3;
      s.lens_q = {1025, 0, 300};
      s.lens_k = {777, 500, 1};
    }
    if (variant == 2) {
      s.seqlen_q = s.seqlen_k = 1500;
      s.window_left = 300;
      s.window_right = 0;
      s.softcap = 20.0f;
    }
    if (variant == 3) s.dropout = 0.2f;  // dropout (kDrop; at 192 the kernel with extras)
    SCOPED_TRACE("head_dim " + std::to_string(d) + " variant " + std::to_string(variant));
    const char* want = d == 256 && variant == 1 ? "cuda-sm80" : "cuda-sm90";
    with_env("FLASHATTN_SM90_BWD_DROPOUT", nullptr,
             [&] { with_sm90_bwd(true, [&] { check_backward_deterministic(s, want); }); });
  });
}

INSTANTIATE_TEST_SUITE_P(Tiers, Sm90BwdDeterministic,
                         testing::Combine(testing::Values(64, 128, 192, 256), testing::Range(0, 4)));

// backward_agree (gpu_harness.h) on a GQA, causal problem of unequal lengths.
template <typename A, typename B>
void backward_agree(int d, uint64_t seed, const char* path_a, A&& first, const char* path_b, B&& second) {
  Spec s;
  s.dtype = DType::BFloat16;
  s.head_dim = d;
  s.seqlen_q = 777;
  s.seqlen_k = 1031;
  s.heads = 4;
  s.heads_kv = 2;
  s.causal = true;
  s.backend = Backend::Cuda;
  s.seed = seed;
  backward_agree(s, path_a, first, path_b, second);
}

// The sm90 backward against the sm80 backward on the same inputs.
TEST(Sm90Bwd, AgreesWithSm80) {
  REQUIRE_SM90_BWD();
  for (int d : {64, 128, 192, 256})
    if (tier_built(d))
      backward_agree(
        d, uint64_t(d) + 4242, "cuda-sm80", [](auto&& run) { with_sm90_bwd(false, run); }, "cuda-sm90",
        [](auto&& run) { with_sm90_bwd(true, run); });
}

// dK and dV out through shared memory and TMA stores (the default on padded batches at tiers 64
// and 128) against the 16-byte stores from registers (FLASHATTN_SM90_BWD_DKDV_TMA=0): the same
// bytes of dk and dv, guard bands included, and both within the tolerance rule. Keys past the
// sequence inside a block (517: the TMA boxes clip them), head_dims inside a tier (112, 40: the
// columns past head_dim clipped; forward tiers 128 and 64, in a tiers-64;128 build too), GQA (each kv head's sum over its query heads), causal (keys no
// query sees: zeros), a block of fewer than 64 keys (50: one warpgroup's rows only), fp16.
TEST(Sm90Bwd, DkDvTmaSameBytes) {
  REQUIRE_SM90_BWD();
  int ran = 0;
  for (auto [d, seqlen_k, causal] : {std::tuple{128, 517, true}, std::tuple{112, 300, false}, std::tuple{64, 517, false},
                                     std::tuple{40, 50, true}, std::tuple{128, 50, false}}) {
    if (!tier_built(bwd90_tier(d))) continue;
    Spec s;
    s.dtype = d == 112 ? DType::Float16 : DType::BFloat16;
    s.head_dim = d;
    s.batch = 2;
    s.seqlen_q = 333;
    s.seqlen_k = seqlen_k;
    s.heads = 4;
    s.heads_kv = 2;
    s.causal = causal;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(5100 + d + seqlen_k);
    SCOPED_TRACE(s.str());
    Case c(s);
    GpuCase g(c);
    g.run_forward();
    RunInfo info;
    with_env("FLASHATTN_SM90_BWD_DKDV_TMA", "0", [&] { with_sm90_bwd(true, [&] { info = g.run_backward(); }); });
    EXPECT_EQ(info.path, "cuda-sm90");
    check_backward_results(c);
    const HostTensor dk0 = c.dk, dv0 = c.dv;
    with_env("FLASHATTN_SM90_BWD_DKDV_TMA", "1", [&] { with_sm90_bwd(true, [&] { info = g.run_backward(); }); });
    EXPECT_EQ(info.path, "cuda-sm90");
    check_backward_results(c);
    EXPECT_TRUE(c.dk.bytes == dk0.bytes) << "dk differs between the TMA stores and the stores from registers";
    EXPECT_TRUE(c.dv.bytes == dv0.bytes) << "dv differs between the TMA stores and the stores from registers";
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << "tiers 64 and 128 not built";
}

// The writer warp stores each query block's first dQ into an uncleared workspace (BwdParams::
// dq_tickets, padded batches): query blocks that no key block reaches (more queries than keys,
// causal or a window: rows 0-299 see no key) come out as zeros, after a call that left the
// stream's pool memory full of values; a batch of several heads over many key blocks (tickets
// taken in every order), and the same with FLASHATTN_SM90_BWD_DQ_STORE=0 (the workspace cleared).
TEST(Sm90Bwd, UnclearedWorkspace) {
  REQUIRE_SM90_BWD();
  for (int d : {64, 128, 192, 256}) {
    if (!tier_built(d)) continue;
    for (const char* store : {"2", "0"}) {  // (2: the default mode, forced at any length)
      with_env("FLASHATTN_SM90_BWD_DQ_STORE", store, [&] {
        Spec s;
        s.dtype = DType::BFloat16;
        s.head_dim = d;
        s.batch = 2;
        s.heads = 3;
        s.heads_kv = 3;
        s.seqlen_q = 700;
        s.seqlen_k = 1500;
        s.backend = Backend::Cuda;
        s.seed = uint64_t(d) * 7 + 3;
        check_backward_sm90(s, "cuda-sm90");
        s.seqlen_q = 400;
        s.seqlen_k = 100;
        s.causal = true;
        s.seed += 1;
        check_backward_sm90(s, "cuda-sm90");
        s.causal = false;
        s.window_left = 30;
        s.window_right = 7;
        s.seed += 1;
        check_backward_sm90(s, "cuda-sm90");
      });
    }
  }
}

// The default dQ scheme (FLASHATTN_SM90_BWD_DQ_TMA=1 forces it: dQ through shared memory, added to the workspace
// by the producer's writer warp with bulk reductions): the grid (odd, unequal and long
// lengths, padded head_dims, causal), the options (GQA/MQA, windows, softcap, ALiBi, varlen,
// whose tiles end inside the next sequence's rows), and agreement with the red.global scheme.
template <typename F>
void with_dq_tma(F&& f) {
  with_env("FLASHATTN_SM90_BWD_DQ_TMA", "1", f);
}

class Sm90BwdDqTmaGrid : public testing::TestWithParam<GridParam> {};

TEST_P(Sm90BwdDqTmaGrid, Backward) {
  REQUIRE_SM90_BWD();
  const int tier = bwd90_tier(GetParam().head_dim);
  if (!tier_built(tier)) GTEST_SKIP() << "head_dim tier " << tier << " not built";
  REQUIRE_TIER_BUILT(grid_spec(GetParam(), 5), true);
  with_dq_tma([&] { check_backward_sm90(grid_spec(GetParam(), 5), "cuda-sm90"); });
}

INSTANTIATE_TEST_SUITE_P(All, Sm90BwdDqTmaGrid, testing::ValuesIn(bwd_grid()), grid_name);

class Sm90BwdDqTmaOptions : public testing::TestWithParam<int> {};

TEST_P(Sm90BwdDqTmaOptions, Backward) {
  REQUIRE_SM90_BWD();
  const int d = GetParam();
  if (!tier_built(d)) GTEST_SKIP() << "head_dim tier " << d << " not built";
  with_dq_tma([&] {
    std::vector<Spec> specs = option_specs(d, /*dropout=*/false);
    for (Spec& x : specs) {
      x.seed = uint64_t(d) * 41 + uint64_t(&x - specs.data());
      check_backward_sm90(x, "cuda-sm90");
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Tiers, Sm90BwdDqTmaOptions, testing::Values(64, 128, 192, 256));

// Both dQ schemes on the same inputs (GQA, causal, unequal lengths): within the reference's
// tolerance, and close to each other (the sums differ only in the order of fp32 additions).
TEST(Sm90Bwd, DqTmaAgreesWithRedGlobal) {
  REQUIRE_SM90_BWD();
  for (int d : {64, 128, 192, 256})
    if (tier_built(d))
      backward_agree(
        d, uint64_t(d) + 5151, "cuda-sm90", [](auto&& run) { with_red_global([&] { with_sm90_bwd(true, run); }); }, "cuda-sm90",
        [](auto&& run) { with_dq_tma([&] { with_sm90_bwd(true, run); }); });
}

// Dropout through the sm90 backward (the default; FLASHATTN_SM90_BWD_DROPOUT=0 sends it to the
// sm80 path): every option with dropout 0.17 on top (softcap, ALiBi: the kernel with extras;
// windows, MQA, GQA, large logits, varlen: kDrop, the plain-score schedule), both dQ schemes,
// every tier; odd lengths of the grid, causal and not; deterministic; head_dim 64 in 64-query
// steps (the kernel with extras). The reference draws the same keep bits (src/semantics/dropout.h).
// (One test per tier and part: ctest runs them in parallel; as one test it took 305 s, session 8.)
class Sm90BwdDropout : public testing::TestWithParam<int> {};

TEST_P(Sm90BwdDropout, Options) {
  REQUIRE_SM90_BWD();
  const int d = GetParam();
  if (!tier_built(d)) GTEST_SKIP() << "head_dim tier " << d << " not built";
  with_env("FLASHATTN_SM90_BWD_DROPOUT", nullptr, [&] {
    std::vector<Spec> specs = option_specs(d, /*dropout=*/true);
    for (Spec& x : specs) {
      const int i = int(&x - specs.data());
      x.seed = uint64_t(d) * 53 + uint64_t(i);
      x.dropout = 0.17f;
      if (i % 2) with_red_global([&] { check_backward_sm90(x, "cuda-sm90"); });
      else check_backward_sm90(x, "cuda-sm90");
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Tiers, Sm90BwdDropout, testing::Values(64, 128, 192, 256));

// The grid's odd lengths with dropout, one test per tier and dtype (as one per tier the longest
// took 130 s, session 9).
class Sm90BwdDropoutGrid : public testing::TestWithParam<std::tuple<int, DType>> {};

TEST_P(Sm90BwdDropoutGrid, Backward) {
  REQUIRE_SM90_BWD();
  const int tier = std::get<0>(GetParam());
  const DType dtype = std::get<1>(GetParam());
  if (!tier_built(tier)) GTEST_SKIP() << "head_dim tier " << tier << " not built";
  with_env("FLASHATTN_SM90_BWD_DROPOUT", nullptr, [&] {
    for (GridParam g : bwd_grid())
      if ((g.seqlen_q == 17 || g.seqlen_q == 1000 || g.seqlen_q == 257) && g.dtype == dtype &&
          bwd90_tier(g.head_dim) == tier && tier_in_build(grid_spec(g, 9), true)) {
        Spec x = grid_spec(g, 9);
        x.dropout = 0.3f;
        check_backward_sm90(x, "cuda-sm90");
      }
  });
}

INSTANTIATE_TEST_SUITE_P(Tiers, Sm90BwdDropoutGrid,
                         testing::Combine(testing::Values(64, 128, 192, 256),
                                          testing::Values(DType::Float16, DType::BFloat16)));

// Causal GQA (4 query heads, 2 kv heads), bf16, dropout 0.1, deterministic, seqlen_k 517.
Spec deterministic_dropout_spec(int head_dim, int seqlen_q) {
  Spec x;
  x.dtype = DType::BFloat16;
  x.head_dim = head_dim;
  x.seqlen_q = seqlen_q;
  x.seqlen_k = 517;
  x.heads = 4;
  x.heads_kv = 2;
  x.causal = true;
  x.dropout = 0.1f;
  x.deterministic = true;
  x.backend = Backend::Cuda;
  return x;
}

TEST(Sm90Bwd, DropoutDeterministicAndBlock64) {
  REQUIRE_SM90_BWD();
  REQUIRE_BWD_TIER(128);
  REQUIRE_BWD_TIER(64);
  with_env("FLASHATTN_SM90_BWD_DROPOUT", nullptr, [&] {
    Spec x = deterministic_dropout_spec(128, 333);
    check_backward_sm90(x, "cuda-sm90");
    x.deterministic = false;
    x.head_dim = 64;
    x.seqlen_q = 1000;
    x.window_left = 200;
    x.window_right = 70;
    x.causal = false;
    with_env("FLASHATTN_SM90_BWD_BLOCK_M", "64", [&] { check_backward_sm90(x, "cuda-sm90"); });
    with_red_global([&] { check_backward_sm90(x, "cuda-sm90"); });
  });
}

// K's A fragments in shared memory (FLASHATTN_SM90_BWD_K_REGS=0; the default at head_dim 64,
// 128-query steps, plain scores, holds them in registers, which the grid tests run): the grid's
// head_dim 40 and 64 cases in both dQ schemes, GQA and varlen.
TEST(Sm90Bwd, KInSharedMemory) {
  REQUIRE_SM90_BWD();
  REQUIRE_BWD_TIER(64);
  with_env("FLASHATTN_SM90_BWD_K_REGS", "0", [&] {
    for (GridParam g : bwd_grid())
      if (g.head_dim <= 64) {
        const Spec x = grid_spec(g, 11);
        if (g.seqlen_q % 2) with_red_global([&] { check_backward_sm90(x, "cuda-sm90"); });
        else check_backward_sm90(x, "cuda-sm90");
      }
    std::vector<Spec> specs = option_specs(64, /*dropout=*/false);
    for (Spec& x : specs) {
      x.seed = 4700 + uint64_t(&x - specs.data());
      check_backward_sm90(x, "cuda-sm90");
    }
  });
}

// The query walks in plain order (FLASHATTN_SM90_BWD_ROTATE=0; the default rotates each key
// block's walk, which the grid tests run): the grid's multi-block lengths at head_dim 64, 128 and
// 256, the options at 128, and agreement with the rotated walks.
TEST(Sm90Bwd, UnrotatedWalk) {
  REQUIRE_SM90_BWD();
  REQUIRE_BWD_TIER(128);
  int ran = 0;
  with_env("FLASHATTN_SM90_BWD_ROTATE", "0", [&] {
    for (GridParam g : bwd_grid())
      if ((g.head_dim == 64 || g.head_dim == 128 || g.head_dim == 256) && (g.seqlen_q == 1000 || g.seqlen_q == 257) &&
          tier_built(g.head_dim)) {
        check_backward_sm90(grid_spec(g, 13), "cuda-sm90");
        ++ran;
      }
    std::vector<Spec> specs = option_specs(128, /*dropout=*/false);
    for (Spec& x : specs) {
      x.seed = 4900 + uint64_t(&x - specs.data());
      check_backward_sm90(x, "cuda-sm90");
    }
  });
  EXPECT_GT(ran, 0);
  backward_agree(
      128, 6262, "cuda-sm90",
      [](auto&& run) { with_env("FLASHATTN_SM90_BWD_ROTATE", "0", [&] { with_sm90_bwd(true, run); }); }, "cuda-sm90",
      [](auto&& run) { with_sm90_bwd(true, run); });
}

// Head_dim 64 in 64-query steps (FLASHATTN_SM90_BWD_BLOCK_M=64; the default there is 128, which
// the grid tests run): the grid's odd lengths and the options in both dQ schemes, and agreement
// with the 128-query steps.
template <typename F>
void with_block64(F&& f) {
  with_env("FLASHATTN_SM90_BWD_BLOCK_M", "64", f);
}

TEST(Sm90Bwd, Block64) {
  REQUIRE_SM90_BWD();
  REQUIRE_BWD_TIER(64);
  with_block64([&] {
    for (GridParam g : bwd_grid())
      if (g.head_dim <= 64 && (g.seqlen_q == 17 || g.seqlen_q == 1000 || g.seqlen_q == 257))
        with_dq_tma([&] { check_backward_sm90(grid_spec(g, 5), "cuda-sm90"); });
    std::vector<Spec> specs = option_specs(64, /*dropout=*/false);
    for (Spec& x : specs) {
      x.seed = 4100 + uint64_t(&x - specs.data());
      const bool red = (&x - specs.data()) % 2;
      if (red) with_red_global([&] { check_backward_sm90(x, "cuda-sm90"); });
      else check_backward_sm90(x, "cuda-sm90");
    }
  });
  backward_agree(
      64, 6161, "cuda-sm90", [](auto&& run) { with_block64([&] { with_sm90_bwd(true, run); }); }, "cuda-sm90",
      [](auto&& run) { with_sm90_bwd(true, run); });
}

// Head_dim 128 in 80-query steps (the default where bwd90_steps80_ok allows; here
// FLASHATTN_SM90_BWD_BLOCK_M=80, which any value but 64 means: bwd_config.h kDqT, dQ transposed
// through a swizzled buffer): the grid's head_dim 96, 104 and 128 cases (padded head_dims, odd
// lengths, causal: the mask cuts 80-row steps; the last step partial), the options (dropout,
// varlen: 64-query steps, bwd90_steps80_ok; softcap or ALiBi alone: 80-query steps with kCap /
// kAlibi), the stream-K tail on 3 and 11 CTAs,
// deterministic (64-query steps), and agreement with the 64-query steps, causal and not. Each call
// must have taken the steps the rule gives it (the launch counter).
template <typename F>
void with_block80(F&& f) {
  with_env("FLASHATTN_SM90_BWD_BLOCK_M", "80", f);
}
long long steps80_launches() { return cuda::launch_counters().sm90_bwd_steps80.load(); }

TEST(Sm90Bwd, Block80) {
  REQUIRE_SM90_BWD();
  REQUIRE_BWD_TIER(128);
  int ran80 = 0;
  auto check = [&](const Spec& x, bool want80) {
    const long long before = steps80_launches();
    check_backward_sm90(x, "cuda-sm90");
    const bool took80 = steps80_launches() > before;
    EXPECT_EQ(took80, want80) << "80-query steps taken: " << took80 << ", " << x.str();
    ran80 += took80;
  };
  with_block80([&] {
    for (GridParam g : bwd_grid())
      if (g.head_dim > 64 && g.head_dim <= 128 && tier_in_build(grid_spec(g, 19), true))  // d96: its forward tier
        check(grid_spec(g, 19), true);  // padded batch, plain scores
    std::vector<Spec> specs = option_specs(128, /*dropout=*/true);
    for (Spec& x : specs) {
      x.seed = 4300 + uint64_t(&x - specs.data());
      check(x, x.dropout == 0 && !x.varlen());  // (softcap or ALiBi alone: kCap, kAlibi)
    }
    with_env("FLASHATTN_SM90_BWD_STREAMK", "1", [&] {
      for (const char* grid : {"3", "11"})
        with_env("FLASHATTN_SM90_BWD_PERSISTENT", grid, [&] {
          SCOPED_TRACE(std::string("stream-K, grid ") + grid);
          check(streamk_spec(128, 0, 2, 4, 200, 500, 8500), true);
          check(streamk_spec(104, 0, 2, 4, 333, 700, 8501), true);
          check(streamk_spec(128, 1, 2, 4, 200, 500, 8502), false);  // softcap, ALiBi, dropout
        });
    });
    const long long before = steps80_launches();  // deterministic: 64-query steps (per-64-row semaphores)
    with_sm90_bwd(true, [&] { check_backward_deterministic(streamk_spec(128, 0, 2, 4, 300, 500, 8503), "cuda-sm90"); });
    EXPECT_EQ(steps80_launches(), before);
  });
  EXPECT_GT(ran80, 40);
  auto block80 = [](auto&& run) { with_block80([&] { with_sm90_bwd(true, run); }); };
  auto block64 = [](auto&& run) { with_block64([&] { with_sm90_bwd(true, run); }); };
  const long long before = steps80_launches();
  backward_agree(128, 6464, "cuda-sm90", block80, "cuda-sm90", block64);  // causal, GQA
  backward_agree(streamk_spec(128, 0, 2, 4, 1000, 1200, 6465), "cuda-sm90", block80, "cuda-sm90", block64);
  EXPECT_EQ(steps80_launches(), before + 2) << "one 80-query launch per agreement";
}

// Head_dim 128's 64-query steps, the opt-out (FLASHATTN_SM90_BWD_BLOCK_M=64) and the kernel of
// every call the 80-query rule refuses: the grid's head_dim 96-128 cases with it, none of which may
// take 80-query steps; the unset variable must take them.
TEST(Sm90Bwd, Block64AtTier128) {
  REQUIRE_SM90_BWD();
  REQUIRE_BWD_TIER(128);
  const long long before = steps80_launches();
  int ran = 0;
  with_block64([&] {
    for (GridParam g : bwd_grid())
      if (g.head_dim > 64 && g.head_dim <= 128 && tier_in_build(grid_spec(g, 23), true)) {
        check_backward_sm90(grid_spec(g, 23), "cuda-sm90");
        ++ran;
      }
  });
  EXPECT_GT(ran, 20);
  EXPECT_EQ(steps80_launches(), before) << "FLASHATTN_SM90_BWD_BLOCK_M=64 took 80-query steps";
  with_env("FLASHATTN_SM90_BWD_BLOCK_M", nullptr,
           [&] { check_backward_sm90(streamk_spec(128, 0, 2, 4, 200, 500, 8510), "cuda-sm90"); });
  EXPECT_EQ(steps80_launches(), before + 1) << "the default took 64-query steps at head_dim 128";
}

// The plain kernel with one modifier (bwd_kernel.h kCap, kAlibi) where bwd90_has_mod builds it:
// tier 64's 128-query steps, tier 128's 80-query steps (padded batches) and 64-query steps
// (varlen). specs(d): the forward test's problems (gpu_harness.h softcap_specs / alibi_specs) on
// it and on the kernel with extras (`env`=0; tier 256: the split schedule's); a stream-K tail on
// a persistent grid and the two kernels' agreement on `modified(spec)`. The launch counter tells
// which kernel ran: every call at tiers 64 and 128 whose scale `takes` accepts.
template <typename Specs, typename Modify, typename Takes>
void check_one_mod_kernel(const char* env, const std::atomic<long long>& counter, Specs&& specs, Modify&& modified,
                          Takes&& takes) {
  int ran = 0;
  auto check = [&](const Spec& x, bool want) {
    const long long before = counter.load();
    check_backward_sm90(x, "cuda-sm90");
    const bool took = counter.load() > before;
    EXPECT_EQ(took, want) << "the plain kernel with the modifier taken: " << took << ", " << x.str();
    ++ran;
  };
  for (const char* on : {"1", "0"})
    with_env(env, on, [&] {
      for (int d : {64, 96, 128, 256}) {
        const int tier = bwd90_tier(d);
        if (!tier_built(tier) || (tier == 256 && on[0] == '0')) continue;
        std::vector<Spec> v = specs(d);
        for (Spec& x : v) {
          x.seed = uint64_t(d) * 171 + uint64_t(&x - v.data()) + (on[0] == '0' ? 9000 : 0);
          if (!tier_in_build(x, true)) continue;  // (head_dim 96: its forward tier)
          SCOPED_TRACE(std::string(env) + "=" + on);
          check(x, on[0] == '1' && tier <= 128 && takes(x));
        }
      }
    });
  auto with_mod = [env](const char* on) {
    return [env, on](auto&& run) { with_env(env, on, [&] { with_sm90_bwd(true, run); }); };
  };
  for (int d : {64, 128}) {
    if (!tier_built(d)) continue;
    Spec s = modified(streamk_spec(d, 0, 2, 4, 200, 500, 8600 + uint64_t(d)));
    s.dtype = DType::Float16;
    with_env("FLASHATTN_SM90_BWD_STREAMK", "1", [&] {
      with_env("FLASHATTN_SM90_BWD_PERSISTENT", "3", [&] {
        SCOPED_TRACE("stream-K, grid 3");
        check(s, true);
      });
    });
    Spec a = specs(d)[1];  // fp16, causal
    a.heads = 8;
    a.heads_kv = 2;
    a.seed = 8700 + uint64_t(d);
    backward_agree(a, "cuda-sm90", with_mod("1"), "cuda-sm90", with_mod("0"));
  }
  SKIP_IF_NONE_RAN(ran);
}

// Softcap alone (kCap: P from tanh(dot softcap_in), d(score)/d(dot) = 1 - t^2 folded into P^T for
// dS^T or taken with dS; FLASHATTN_SM90_BWD_CAP=0: the kernel with extras): every scale.
TEST(Sm90Bwd, SoftcapKernel) {
  REQUIRE_SM90_BWD();
  check_one_mod_kernel(
    "FLASHATTN_SM90_BWD_CAP", cuda::launch_counters().sm90_bwd_cap, softcap_specs,
    [](Spec s) {
      s.softcap = 25.0f;
      return s;
    },
    [](const Spec&) { return true; });
}

// ALiBi alone (kAlibi: the bias joined to the raw dot as the forward's kAlibi does;
// FLASHATTN_SM90_BWD_ALIBI=0: the kernel with extras): scales of 2^-20 and more (a negative one
// takes the kernel with extras).
TEST(Sm90Bwd, AlibiKernel) {
  REQUIRE_SM90_BWD();
  check_one_mod_kernel(
    "FLASHATTN_SM90_BWD_ALIBI", cuda::launch_counters().sm90_bwd_alibi, alibi_specs,
    [](Spec s) {
      s.alibi = 2;
      return s;
    },
    [](const Spec& x) { return !(x.softmax_scale && *x.softmax_scale < 0x1p-20f); });
}

// The split tiers with warpgroup 1's dP^T issued after warpgroup 0's S^T has completed
// (FLASHATTN_SM90_BWD_SERIAL_SDP=1, off: session 12 measured no gain): the grid's odd lengths at
// head_dim 152-256 (both dQ schemes), the options with and without dropout, agreement with the
// default order. One test per tier and dtype or option set (as one test it ran past 200 s, session 15).
class Sm90BwdSerialSdpGrid : public testing::TestWithParam<std::tuple<int, DType>> {};

TEST_P(Sm90BwdSerialSdpGrid, Backward) {
  REQUIRE_SM90_BWD();
  const int tier = std::get<0>(GetParam());
  const DType dtype = std::get<1>(GetParam());
  if (!tier_built(tier)) GTEST_SKIP() << "head_dim tier " << tier << " not built";
  with_env("FLASHATTN_SM90_BWD_SERIAL_SDP", "1", [&] {
    for (GridParam g : bwd_grid())
      if ((g.seqlen_q == 17 || g.seqlen_q == 1000 || g.seqlen_q == 257) && g.dtype == dtype &&
          bwd90_tier(g.head_dim) == tier && tier_in_build(grid_spec(g, 13), true)) {
        const Spec x = grid_spec(g, 13);
        if (g.causal) with_red_global([&] { check_backward_sm90(x, "cuda-sm90"); });
        else check_backward_sm90(x, "cuda-sm90");
      }
  });
}

INSTANTIATE_TEST_SUITE_P(Tiers, Sm90BwdSerialSdpGrid,
                         testing::Combine(testing::Values(192, 256),
                                          testing::Values(DType::Float16, DType::BFloat16)));

class Sm90BwdSerialSdpOptions : public testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(Sm90BwdSerialSdpOptions, Backward) {
  REQUIRE_SM90_BWD();
  const int d = std::get<0>(GetParam());
  const bool dropout = std::get<1>(GetParam());
  if (!tier_built(d)) GTEST_SKIP() << "head_dim tier " << d << " not built";
  with_env("FLASHATTN_SM90_BWD_SERIAL_SDP", "1", [&] {
    std::vector<Spec> specs = option_specs(d, dropout);
    for (Spec& x : specs) {
      x.seed = 5300 + uint64_t(d) + 100 * dropout + uint64_t(&x - specs.data());
      check_backward_sm90(x, "cuda-sm90");
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Tiers, Sm90BwdSerialSdpOptions,
                         testing::Combine(testing::Values(192, 256), testing::Values(false, true)));

TEST(Sm90Bwd, SerialSdpAgrees) {
  REQUIRE_SM90_BWD();
  if (!tier_built(256)) GTEST_SKIP() << "head_dim tier 256 not built";
  backward_agree(
      256, 6262, "cuda-sm90",
      [](auto&& run) { with_env("FLASHATTN_SM90_BWD_SERIAL_SDP", "1", [&] { with_sm90_bwd(true, run); }); },
      "cuda-sm90", [](auto&& run) { with_sm90_bwd(true, run); });
}

// The stream-K tail (bwd_kernel.h, config.h StreamK; no causal mask, window or varlen):
// FLASHATTN_SM90_BWD_STREAMK=1 with grids of 3 and 11 CTAs over 16 or 32 tiles (which do not come
// out even) cuts walks into a merged and a partial piece at many steps (each CTA's range starts
// elsewhere; the query blocks end in a partial one). Per head_dim (96: tier 128 padded): plain
// bf16 (the dQ variant), fp16 with a softcap, ALiBi and dropout (the kernel with extras, or
// kDrop), GQA with short queries (two query heads a walk), and red.global dQ (streamk_spec,
// gpu_harness.h).
class Sm90BwdStreamK : public testing::TestWithParam<int> {};

TEST_P(Sm90BwdStreamK, Backward) {
  REQUIRE_SM90_BWD();
  const int d = GetParam();
  if (!tier_built(bwd90_tier(d))) GTEST_SKIP() << "head_dim tier " << bwd90_tier(d) << " not built";
  REQUIRE_TIER_BUILT(streamk_spec(d, 0, 2, 4, 200, 500, 0), true);  // (d96: the forward's own tier)
  with_env("FLASHATTN_SM90_BWD_STREAMK", "1", [&] {
    for (const char* grid : {"3", "11"})
      for (int variant = 0; variant < 4; ++variant)
        with_env("FLASHATTN_SM90_BWD_PERSISTENT", grid, [&] {
          SCOPED_TRACE(std::string("grid ") + grid + ", variant " + std::to_string(variant));
          const Spec x = streamk_spec(d, variant, 2, 4, 200, 500, uint64_t(d * 10 + variant + 8000));
          if (variant == 3) with_red_global([&] { check_backward_sm90(x, "cuda-sm90"); });
          else check_backward_sm90(x, "cuda-sm90");
        });
  });
}

INSTANTIATE_TEST_SUITE_P(HeadDims, Sm90BwdStreamK, testing::Values(64, 96, 128, 192, 256));

// The default grid (one CTA an SM) over more tiles than SMs with STREAMK=1 and =0; a
// deterministic call with STREAMK=1 (never split: dQ's order is fixed) bitwise equal over three
// runs; split (a grid of 7) against whole tiles on the same inputs.
TEST(Sm90Bwd, StreamKDefaultsAndAgreement) {
  REQUIRE_SM90_BWD();
  REQUIRE_BWD_TIER(128);
  for (const char* streamk : {"1", "0"})
    with_env("FLASHATTN_SM90_BWD_STREAMK", streamk, [&] {
      SCOPED_TRACE(std::string("default grid, FLASHATTN_SM90_BWD_STREAMK=") + streamk);
      check_backward_sm90(streamk_spec(128, 0, 2, 16, 400, 1200, 8100), "cuda-sm90");  // 160 tiles of 7 steps
    });
  with_env("FLASHATTN_SM90_BWD_STREAMK", "1", [&] {
    with_env("FLASHATTN_SM90_BWD_PERSISTENT", "5", [&] {
      const Spec x = streamk_spec(128, 0, 2, 4, 300, 500, 8200);
      with_sm90_bwd(true, [&] { check_backward_deterministic(x, "cuda-sm90"); });
    });
  });
  backward_agree(
      streamk_spec(128, 0, 2, 4, 333, 777, 8300), "cuda-sm90",
      [](auto&& run) {
        with_env("FLASHATTN_SM90_BWD_STREAMK", "1",
                 [&] { with_env("FLASHATTN_SM90_BWD_PERSISTENT", "7", [&] { with_sm90_bwd(true, run); }); });
      },
      "cuda-sm90", [](auto&& run) { with_env("FLASHATTN_SM90_BWD_STREAMK", "0", [&] { with_sm90_bwd(true, run); }); });
}

// The persistent grids' test items (DynamicTiles): variant 0 causal, 1 a window
// (fp16; query i sees keys i + 850 .. i + 900: keys 0-849 none), 2 softcap 30, 3 varlen causal
// (an empty sequence), 4 deterministic causal; head_dim d, GQA, 333 queries, 777 keys.
Spec item_spec(int d, int variant, uint64_t seed0) {
  Spec s;
  s.dtype = variant == 1 ? DType::Float16 : DType::BFloat16;
  s.head_dim = d;
  s.batch = 2;
  s.heads = 4;
  s.heads_kv = 2;
  s.seqlen_q = 333;
  s.seqlen_k = 777;
  s.causal = variant != 1 && variant != 2;
  if (variant == 1) {
    s.seqlen_q = 100;
    s.seqlen_k = 1000;
    s.window_left = 50;
    s.window_right = 0;
  }
  if (variant == 2) s.softcap = 30.0f;
  if (variant == 3) {
    s.batch = 3;
    s.lens_q = {333, 0, 200};
    s.lens_k = {777, 500, 1};
  }
  s.deterministic = variant == 4;
  s.backend = Backend::Cuda;
  s.seed = seed0 + uint64_t(d * 5 + variant);
  return s;
}

// The dynamic persistent grid (BwdParams90::tile_counter: wherever no stream-K plan runs) on
// grids of 3 and 7 CTAs over 28-78 tiles, each CTA many items: causal (the head groups' order), a
// window that leaves most keys to no query (items without steps: dK and dV zeros; the producer's
// kv_full arrivals without loads), non-causal with stream-K off and a softcap (the kernel with
// extras at tiers 64 and 128), varlen (key blocks past a
// sequence skipped by the producer; an empty sequence; causal), deterministic (causal: tiles wait
// for the key blocks after theirs); fp16 and bf16, GQA, keys past the sequence in the last block
// (777); tiers 64, 128, 192 and 256. Every result within the tolerance rule, and dk, dv
// (deterministic: dq too) the same bytes as one CTA a tile (FLASHATTN_SM90_BWD_DYNAMIC=0: every
// key block's sums in the same order); the launch counter tells the dynamic grid ran. And on the
// grid of 3, dV stored after the warpgroups' barrier (FLASHATTN_SM90_BWD_DV_EARLY=0): the same bytes.
TEST(Sm90Bwd, DynamicTiles) {
  REQUIRE_SM90_BWD();
  int ran = 0;
  for (int d : {64, 128, 192, 256}) {
    if (!tier_built(d)) continue;
    for (int variant = 0; variant < 5; ++variant) {
      const Spec s = item_spec(d, variant, 5300);
      SCOPED_TRACE(s.str());
      Case c(s);
      GpuCase g(c);
      g.run_forward();
      with_env("FLASHATTN_SM90_BWD_STREAMK", "0", [&] {
        RunInfo info;
        with_env("FLASHATTN_SM90_BWD_DYNAMIC", "0", [&] { with_sm90_bwd(true, [&] { info = g.run_backward(); }); });
        EXPECT_EQ(info.path, "cuda-sm90");
        check_backward_results(c);
        const HostTensor dq0 = c.dq, dk0 = c.dk, dv0 = c.dv;
        for (const char* grid : {"3", "7"}) {
          SCOPED_TRACE(std::string("grid ") + grid);
          const long long before = cuda::launch_counters().sm90_bwd_dynamic.load();
          with_env("FLASHATTN_SM90_BWD_DYNAMIC", "1", [&] {
            with_env("FLASHATTN_SM90_BWD_PERSISTENT", grid, [&] { with_sm90_bwd(true, [&] { info = g.run_backward(); }); });
          });
          EXPECT_EQ(info.path, "cuda-sm90");
          EXPECT_EQ(cuda::launch_counters().sm90_bwd_dynamic.load(), before + 1) << "the dynamic grid did not run";
          check_backward_results(c);
          EXPECT_TRUE(c.dk.bytes == dk0.bytes) << "dk differs between the dynamic grid and one CTA a tile";
          EXPECT_TRUE(c.dv.bytes == dv0.bytes) << "dv differs between the dynamic grid and one CTA a tile";
          if (s.deterministic) EXPECT_TRUE(c.dq.bytes == dq0.bytes) << "deterministic dq differs between the grids";
        }
        // dV stored after the barrier with dK's (FLASHATTN_SM90_BWD_DV_EARLY=0; V then released
        // with K's stores read): the same bytes.
        with_env("FLASHATTN_SM90_BWD_DV_EARLY", "0", [&] {
          with_env("FLASHATTN_SM90_BWD_PERSISTENT", "3", [&] { with_sm90_bwd(true, [&] { info = g.run_backward(); }); });
        });
        EXPECT_EQ(info.path, "cuda-sm90");
        check_backward_results(c);
        EXPECT_TRUE(c.dk.bytes == dk0.bytes) << "dk differs with FLASHATTN_SM90_BWD_DV_EARLY=0";
        EXPECT_TRUE(c.dv.bytes == dv0.bytes) << "dv differs with FLASHATTN_SM90_BWD_DV_EARLY=0";
      });
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << "no tier of the sm90 backward built";
}

// Causal tile orders (BwdParams90::head_group): groups of 3 (batch, kv head) pairs of 8 (the last
// group smaller), of 1, and the (batch, kv head) order (0); the default grid tests run the
// launcher's rule.
TEST(Sm90Bwd, CausalHeadGroups) {
  REQUIRE_SM90_BWD();
  for (const char* hg : {"3", "1", "0"})
    with_env("FLASHATTN_SM90_BWD_HEAD_GROUP", hg, [&] {
      for (int d : {64, 128, 256}) {
        if (!tier_built(d)) continue;
        SCOPED_TRACE(std::string("head group ") + hg + ", head_dim " + std::to_string(d));
        Spec x = streamk_spec(d, 0, 2, 8, 300, 500, uint64_t(8400 + d));
        x.causal = true;
        check_backward_sm90(x, "cuda-sm90");
      }
    });
}

}  // namespace
}  // namespace flashattn::test
