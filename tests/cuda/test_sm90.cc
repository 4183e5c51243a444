// The sm90 (Hopper) forward path: the foundation grid and options on the path (the default on
// sm_90; FLASHATTN_DISABLE_SM90=1 turns it off for the agreement test), each result checked
// against the double-precision reference with the tolerance rule,
// and sm90 against sm80 on the same inputs. Skips with a message without an sm_90 GPU or when
// the build has no sm90 path.
#include <cuda_runtime.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <utility>

#include "cuda/sm90/config.h"
#include "gpu_harness.h"

namespace flashattn::test {
namespace {

// Runs `f` with the sm90 forward on (the default) or off (FLASHATTN_DISABLE_SM90=1).
template <typename F>
void with_sm90(bool on, F&& f) {
  with_env("FLASHATTN_DISABLE_SM90", on ? nullptr : "1", f);
}

// Skips unless the device is sm_90 and this build routes an eligible problem to the sm90 path.
#define REQUIRE_SM90() REQUIRE_SM90_PATH(false)

std::vector<GridParam> sm90_grid() {
  std::vector<GridParam> v;
  const std::pair<int, int> lens[] = {{1, 1}, {1, 513}, {113, 203}, {128, 128}, {1000, 999}, {257, 2048}};
  for (DType dt : {DType::Float16, DType::BFloat16})
    for (int d : {40, 64, 96, 128, 176, 200, 256})  // 40, 176: padded up to the 64/192 kernels; 200: sm80
      for (auto [sq, sk] : lens)
        for (bool causal : {false, true}) v.push_back({dt, d, sq, sk, causal});
  return v;
}

// Which path a head_dim takes on an sm_90 device with the sm90 path requested.
const char* expected_path(int head_dim) {
  const int tier = head_dim <= 32 ? 32 : head_dim <= 64 ? 64 : head_dim <= 96 ? 96 : head_dim <= 128 ? 128
                   : head_dim <= 160 ? 160 : head_dim <= 192 ? 192 : head_dim <= 224 ? 224 : 256;
  return tier == 64 || tier == 96 || tier == 128 || tier == 192 || tier == 256 ? "cuda-sm90" : "cuda-sm80";
}

// The sm90 forward's check of s where the build has its tier; a tier the build leaves out
// (FLASHATTN_HEAD_DIMS, a development build) is skipped, not failed. Returns whether it ran.
bool check_sm90_if_built(const Spec& s) {
  if (!tier_in_build(s, false)) return false;
  with_sm90(true, [&] { check_forward_gpu(s, "cuda-sm90"); });
  return true;
}

class Sm90Grid : public testing::TestWithParam<GridParam> {};

TEST_P(Sm90Grid, Forward) {
  REQUIRE_SM90();
  const Spec s = grid_spec(GetParam());
  const char* want = expected_path(s.head_dim);
  REQUIRE_TIER_BUILT(s, false);  // (either path's tier: a head_dim the sm90 path leaves to sm80 needs sm80's)
  with_sm90(true, [&] { check_forward_gpu(s, want); });
}

INSTANTIATE_TEST_SUITE_P(All, Sm90Grid, testing::ValuesIn(sm90_grid()), grid_name);

// Every option of the shared semantics through the sm90 kernel.
TEST(Sm90, Options) {
  REQUIRE_SM90();
  int ran = 0;
  for (int d : {64, 96, 128, 192, 256}) {
    std::vector<Spec> specs = option_specs(d, /*dropout=*/true);
    for (Spec& x : specs) {
      x.seed = uint64_t(d) * 31 + uint64_t(&x - specs.data());
      ran += check_sm90_if_built(x);
    }
  }
  SKIP_IF_NONE_RAN(ran);
}

// The kernel variants (environment knobs of src/cuda/sm90/launch.cu: FLASHATTN_SM90_PINGPONG=0,
// _BLOCKN=alt, _PERSISTENT=0/1, _CONSUMERS=2/3, _TMA_STORE=0/1, _PACK_GQA=0/1): every one must be
// right, the defaults (the grid's) and what the knobs force either way. Returns the cases run.
int check_variant(std::initializer_list<std::pair<const char*, const char*>> env) {
  int ran = 0;
  std::string trace;
  for (auto [k, v] : env) {
    setenv(k, v, 1);
    trace += std::string(k) + "=" + v + " ";
  }
  for (int d : {64, 96, 128, 192, 256})
    for (int variant = 0; variant < 4; ++variant) {
      Spec s;
      s.dtype = variant % 2 ? DType::Float16 : DType::BFloat16;
      s.head_dim = d;
      s.seqlen_q = 700;
      s.seqlen_k = 1100;
      s.heads = 4;
      s.heads_kv = 2;
      s.causal = variant >= 2;
      s.dropout = variant == 3 ? 0.1f : 0.0f;
      s.backend = Backend::Cuda;
      s.seed = uint64_t(d * 10 + variant);
      if (variant == 1) {
        s.batch = 3;
        s.lens_q = {1, 700, 333};
        s.lens_k = {1100, 5, 640};
      }
      SCOPED_TRACE(trace);
      ran += check_sm90_if_built(s);
    }
  for (auto [k, v] : env) unsetenv(k);
  return ran;
}

// Without ping-pong, also on three persistent CTAs (many tiles each; the 700-query shapes' last
// tiles have warpgroups without a query row, which skip tiles only with ping-pong).
TEST(Sm90, VariantWithoutPingpong) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_PINGPONG", "0"}}));
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_PINGPONG", "0"}, {"FLASHATTN_SM90_PERSISTENT", "3"}}));
}

TEST(Sm90, VariantAlternativeKeyBlocks) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_BLOCKN", "alt"}}));
}

TEST(Sm90, VariantPersistent) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_PERSISTENT", "1"}}));
}

// O's rescale skipped where no row of a warp got a new maximum (bit-identical by construction).
TEST(Sm90, VariantSkipRescale) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_SKIP_RESCALE", "1"}}));
  for (int d : {64, 128, 256}) {
    Spec s;
    s.dtype = DType::BFloat16;
    s.head_dim = d;
    s.seqlen_q = 700;
    s.seqlen_k = 2000;
    s.causal = d == 128;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(d + 77);
    if (!tier_in_build(s, false)) continue;
    Case c(s);
    GpuCase g(c);
    with_env("FLASHATTN_SM90_SKIP_RESCALE", "0", [&] { g.run_forward(); });
    const std::vector<uint8_t> out = c.out.bytes, lse = c.lse.bytes;
    with_env("FLASHATTN_SM90_SKIP_RESCALE", "1", [&] { g.run_forward(); });
    EXPECT_TRUE(c.out.bytes == out && c.lse.bytes == lse) << "not bit-identical: " << s.str();
  }
}

// Every measured default turned off: one CTA a tile, two consumers, direct 4-byte stores, no
// packing, dropout on the kernel with extras, one Q buffer, no stream-K tail, the tiers' default
// key blocks, idle warpgroups computing padding rows, masked key blocks computed, the epilogue's
// IEEE normalizer and logf.
TEST(Sm90, VariantDefaultsOff) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_PERSISTENT", "0"}, {"FLASHATTN_SM90_CONSUMERS", "2"},
                                  {"FLASHATTN_SM90_TMA_STORE", "0"}, {"FLASHATTN_SM90_PACK_GQA", "0"},
                                  {"FLASHATTN_SM90_FWD_DROP", "0"}, {"FLASHATTN_SM90_OUT_VEC16", "0"},
                                  {"FLASHATTN_SM90_Q_PREFETCH", "0"}, {"FLASHATTN_SM90_STREAMK", "0"},
                                  {"FLASHATTN_SM90_BLOCKN", "default"}, {"FLASHATTN_SM90_SKIP_IDLE", "0"},
                                  {"FLASHATTN_SM90_SKIP_MASKED", "0"}, {"FLASHATTN_SM90_FAST_FINISH", "0"}}));
}

// s's forward with the knob `env` at 0 and at 1 (FLASHATTN_SM90_CONSUMERS and _BLOCKN set as
// given; nullptr leaves them): the same bytes of O and LSE.
void expect_same_bytes_of(const Spec& s, const char* env, const char* consumers = nullptr, const char* blockn = nullptr) {
  SCOPED_TRACE(s.str() + " " + env + (consumers != nullptr ? std::string(", consumers ") + consumers : "") +
               (blockn != nullptr ? std::string(", blockn ") + blockn : ""));
  Case c(s);
  GpuCase g(c);
  auto compare = [&] {
    with_env(env, "0", [&] { g.run_forward(); });
    const std::vector<uint8_t> out = c.out.bytes, lse = c.lse.bytes;
    with_env(env, "1", [&] { g.run_forward(); });
    EXPECT_TRUE(c.out.bytes == out) << "out differs";
    EXPECT_TRUE(c.lse.bytes == lse) << "lse differs";
  };
  auto with_blockn = [&] {
    if (blockn != nullptr) with_env("FLASHATTN_SM90_BLOCKN", blockn, compare);
    else compare();
  };
  if (consumers != nullptr) with_env("FLASHATTN_SM90_CONSUMERS", consumers, with_blockn);
  else with_blockn();
}

// Two ways of writing O must give the same bytes of out and LSE, guard bands included: the knob
// `env` at 0 and at 1, for each (head_dim, varlen) case (GQA, odd lengths, seqlen_q query rows;
// causal at 256 and 128; varlen: batch 3 with a one-row and a five-key sequence).
void expect_same_bytes(const char* env, std::initializer_list<std::pair<int, bool>> cases, int seqlen_q = 333) {
  int ran = 0;
  for (auto [d, varlen] : cases) {
    Spec s;
    s.dtype = d == 192 || d == 96 ? DType::Float16 : DType::BFloat16;
    s.head_dim = d;
    s.seqlen_q = seqlen_q;
    s.seqlen_k = 517;
    s.heads = 4;
    s.heads_kv = 2;
    s.causal = d == 256 || d == 128;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(4000 + d);
    if (varlen) {
      s.batch = 3;
      s.lens_q = {1, seqlen_q, 100};
      s.lens_k = {517, 5, 300};
    }
    if (!tier_in_build(s, false)) continue;
    expect_same_bytes_of(s, env);
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << "none of the cases' tiers in this build";
}

// The forward in clusters of two with K/V multicast (FLASHATTN_SM90_CLUSTER=require: the call
// fails where it cannot take that kernel) against the kernel of one CTA (=0), stream-K off in both
// (its pieces round differently), with tile tickets (the default) and static rounds
// (FLASHATTN_SM90_DYNAMIC=0: head_dim 128's default up to 1024 keys), each CTA loading half of each K/V
// block's rows: the same bytes of O and the LSE, and within the tolerance rule of the reference. Head_dim 128, 120, 256 and 200 (padded), fp16 and bf16, the tiers' two key blocks, keys
// that end inside a block (the half boxes past the extent read zeros), GQA, one cluster walking
// every tile (FLASHATTN_SM90_PERSISTENT=2: the ring's phases over many tiles, an odd count
// rounded to pairs; the tickets' handoff between the pair every tile), two and three clusters
// taking tickets (4, 6) and the default grid. Causal pairs (the pair walks the union of its tiles'
// key blocks, rank 0 skipping the extra ones): seqlen_k equal to seqlen_q, past it by a part of a
// block, and short of it (rank 0's rows seeing no key in some pairs: a whole walk of one block,
// and at head_dim 256 of two, skipped, one cluster walking every tile in the last), on the 128-,
// 176-, 80- and 64-key blocks; by ticket in head groups of two (the default's groups on a full
// GPU). Partial last tiles, causal and not: of 65-127 rows (both warpgroups live), and of 64 rows
// or fewer (rank 1's warpgroup 1 idle: it waits on and releases every block of the walk in both
// CTAs). Windows (rank 0 passing over the extra blocks at the walk's start, rank 1 those at its
// end). Ineligible calls (an odd count of query blocks, softcap) fail with =require.
TEST(Sm90, ClusterSameBytes) {
  REQUIRE_SM90();
  struct Shape {
    DType dt;
    int d, sq, sk, heads, heads_kv, batch;
    bool causal;
    const char* blockn;
    const char* persistent;
    int window_left = -1, window_right = -1;
  };
  const Shape shapes[] = {
      {DType::BFloat16, 128, 512, 517, 4, 2, 2, false, "default", nullptr},
      {DType::Float16, 128, 256, 1000, 2, 2, 3, false, "default", "3"},
      {DType::BFloat16, 120, 768, 700, 3, 1, 1, false, "alt", nullptr},
      {DType::Float16, 128, 1024, 1100, 2, 1, 1, false, "alt", "2"},
      {DType::BFloat16, 128, 768, 300, 5, 1, 2, false, "default", "4"},
      {DType::Float16, 128, 1280, 640, 3, 3, 1, false, "alt", "6"},
      {DType::BFloat16, 256, 512, 517, 4, 2, 2, false, "default", nullptr},
      {DType::Float16, 200, 768, 300, 5, 1, 2, false, "alt", "4"},
      {DType::BFloat16, 128, 1024, 1024, 3, 1, 2, true, "default", nullptr},
      {DType::Float16, 128, 512, 700, 2, 2, 1, true, "default", "2"},
      {DType::BFloat16, 128, 768, 300, 5, 1, 1, true, "default", "4"},
      {DType::Float16, 128, 1280, 1400, 3, 1, 1, true, "alt", "6"},
      {DType::BFloat16, 256, 512, 517, 2, 1, 2, true, "default", nullptr},
      {DType::Float16, 200, 768, 1000, 3, 3, 1, true, "alt", "4"},
      {DType::BFloat16, 256, 512, 100, 2, 1, 1, true, "default", nullptr},
      {DType::Float16, 256, 512, 100, 3, 1, 2, true, "alt", "2"},
      // Partial last tiles: 1000 = 7 x 128 + 104, 449 = 3 x 128 + 65 (warpgroup 1's one live row
      // the causal walk's last), 480 = 3 x 128 + 96; of 64 rows or fewer, rank 1's warpgroup 1
      // idle (passing over the walk's blocks): 1700 = 13 x 128 + 36, 960 = 7 x 128 + 64, 385 = 3 x
      // 128 + 1, 420 = 3 x 128 + 36.
      {DType::BFloat16, 128, 1000, 1000, 2, 1, 2, false, "default", "2"},
      {DType::Float16, 128, 449, 600, 2, 1, 1, true, "default", "2"},
      {DType::Float16, 128, 1000, 1100, 3, 1, 1, true, "alt", "2"},
      {DType::BFloat16, 128, 480, 300, 3, 3, 2, true, "default", "4"},
      {DType::Float16, 256, 480, 517, 2, 1, 2, false, "default", nullptr},
      {DType::BFloat16, 256, 1000, 900, 2, 1, 1, true, "alt", nullptr},
      {DType::BFloat16, 128, 1700, 1800, 2, 1, 1, true, "default", "4"},
      {DType::Float16, 128, 960, 960, 3, 1, 1, false, "alt", "2"},
      {DType::BFloat16, 128, 385, 400, 2, 2, 1, true, "default", nullptr},
      {DType::Float16, 256, 420, 517, 2, 1, 2, true, "default", "2"},
      {DType::BFloat16, 256, 960, 700, 2, 1, 1, false, "alt", nullptr},
      // Windows: the pair walks the union of its tiles' key blocks, rank 0 passing over the
      // extra ones at the walk's start, rank 1 those at its end (trailing passes: one block at
      // 128 keys, none or one at head_dim 128's alternative of 176, one or two at head_dim 256's
      // 80 and 64; causal with a left window; both sides bounded; one side open either way; rows
      // that see no key (300 keys for 512 queries, a window of 50 / 20; 600 keys for 1024 queries
      // causal: a pair with none, one whose rank 0 sees none, trails in the last); an idle
      // warpgroup in rank 1's last tile (960, 420); 1000 with a partial last tile).
      {DType::BFloat16, 128, 1024, 1024, 2, 1, 1, true, "default", "2", 300, -1},
      {DType::Float16, 128, 1024, 1100, 3, 1, 1, true, "alt", "4", 200, -1},
      {DType::BFloat16, 128, 1000, 1100, 2, 2, 1, false, "default", "2", 200, 150},
      {DType::Float16, 128, 768, 768, 2, 1, 2, false, "alt", nullptr, 300, -1},
      {DType::BFloat16, 128, 768, 900, 2, 1, 1, false, "default", "2", -1, 100},
      {DType::Float16, 128, 512, 300, 2, 1, 1, false, "default", nullptr, 50, 20},
      {DType::BFloat16, 128, 960, 960, 2, 1, 1, true, "default", "2", 250, -1},
      {DType::BFloat16, 256, 960, 1000, 2, 1, 1, true, "default", "2", 400, -1},
      {DType::Float16, 256, 420, 517, 2, 1, 2, false, "alt", nullptr, 100, 60},
      {DType::BFloat16, 128, 1024, 600, 2, 1, 1, true, "default", "2", 150, -1},
  };
  int ran = 0;
  for (const Shape& sh : shapes) {
    Spec s;
    s.dtype = sh.dt;
    s.head_dim = sh.d;
    s.seqlen_q = sh.sq;
    s.seqlen_k = sh.sk;
    s.heads = sh.heads;
    s.heads_kv = sh.heads_kv;
    s.batch = sh.batch;
    s.causal = sh.causal;
    s.window_left = sh.window_left;
    s.window_right = sh.window_right;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(6000 + sh.sq + sh.sk + (sh.causal ? 1 : 0));
    if (sh.window_left >= 0 || sh.window_right >= 0) s.seed += uint64_t(7 * (sh.window_left + sh.window_right + 2));
    if (!tier_in_build(s, false)) continue;
    for (const char* dynamic : {"1", "0"}) {
      SCOPED_TRACE(s.str() + " blockn " + sh.blockn + " persistent " + (sh.persistent ? sh.persistent : "default") +
                   " dynamic " + dynamic);
      // (Causal tiles by ticket in head groups of 2, as the default's groups of 8 on a full GPU.)
      ScopedEnv env({{"FLASHATTN_SM90_STREAMK", "0"},
                     {"FLASHATTN_SM90_DYNAMIC", dynamic},
                     {"FLASHATTN_SM90_PERSISTENT", sh.persistent},
                     {"FLASHATTN_SM90_BLOCKN", sh.blockn},
                     {"FLASHATTN_SM90_CAUSAL_GROUPS", sh.causal && dynamic[0] == '1' ? "2" : nullptr}});
      Case c(s);
      GpuCase g(c);
      with_env("FLASHATTN_SM90_CLUSTER", "0", [&] { g.run_forward(); });
      const std::vector<uint8_t> out = c.out.bytes, lse = c.lse.bytes;
      with_env("FLASHATTN_SM90_CLUSTER", "require", [&] { g.run_forward(); });
      EXPECT_TRUE(c.out.bytes == out) << "out differs";
      EXPECT_TRUE(c.lse.bytes == lse) << "lse differs";
      check_forward_results(c, 1e-4);
    }
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << "tiers 128 and 256 not in this build";
  // Ineligible calls fail with =require: an odd count of query blocks (640 = 5 x 128, 1100 = 8 x
  // 128 + 76); a score modifier (softcap).
  for (int variant = 0; variant < 3; ++variant) {
    Spec s;
    s.dtype = DType::BFloat16;
    s.head_dim = 128;
    s.seqlen_q = s.seqlen_k = 512;
    if (variant == 0) s.softcap = 30.0f;
    if (variant == 1) s.seqlen_q = 640;
    if (variant == 2) s.seqlen_q = 1100;
    s.backend = Backend::Cuda;
    SCOPED_TRACE(s.str());
    Case c(s);
    GpuCase g(c);
    with_env("FLASHATTN_SM90_CLUSTER", "require", [&] { EXPECT_THROW(g.run_forward(), std::runtime_error); });
  }
}

// The cluster's stream-K tail (FLASHATTN_SM90_STREAMK=1): the last rounds' pairs split into
// pieces of key blocks between clusters, each rank merging its tile's partial from the same rank
// of the next cluster, after whole pairs by ticket (the default) or static rounds. Grids of two,
// three and four clusters over 9, 10 and 15 pairs, and three over 20, 10 and 14 pairs whose last
// tiles are partial (a tail in every case), against the reference within the tolerance rule (the
// pieces round unlike whole tiles).
TEST(Sm90, ClusterStreamK) {
  REQUIRE_SM90();
  struct Shape {
    DType dt;
    int sq, sk, heads, batch;
    const char* blockn;
    const char* persistent;
  };
  const Shape shapes[] = {
      {DType::BFloat16, 768, 1000, 3, 1, "default", "4"},
      {DType::Float16, 512, 777, 5, 1, "alt", "6"},
      {DType::BFloat16, 1280, 1500, 3, 1, "default", "8"},
      // Partial last tiles (104, 96 and 36 rows): 20, 10 and 14 pairs on three clusters.
      {DType::BFloat16, 1000, 1000, 5, 1, "default", "6"},
      {DType::Float16, 480, 777, 5, 1, "alt", "6"},
      {DType::BFloat16, 1700, 1000, 2, 1, "default", "6"},
  };
  for (const Shape& sh : shapes) {
    Spec s;
    s.dtype = sh.dt;
    s.head_dim = 128;
    s.seqlen_q = sh.sq;
    s.seqlen_k = sh.sk;
    s.heads = sh.heads;
    s.heads_kv = 1;
    s.batch = sh.batch;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(6100 + sh.sq + sh.sk);
    if (!tier_in_build(s, false)) GTEST_SKIP() << "tier 128 not in this build";
    for (const char* dynamic : {"1", "0"}) {
      SCOPED_TRACE(s.str() + " blockn " + sh.blockn + " persistent " + sh.persistent + " dynamic " + dynamic);
      ScopedEnv env({{"FLASHATTN_SM90_STREAMK", "1"},
                     {"FLASHATTN_SM90_DYNAMIC", dynamic},
                     {"FLASHATTN_SM90_PERSISTENT", sh.persistent},
                     {"FLASHATTN_SM90_BLOCKN", sh.blockn}});
      Case c(s);
      GpuCase g(c);
      with_env("FLASHATTN_SM90_CLUSTER", "require", [&] { g.run_forward(); });
      check_forward_results(c, 1e-4);
    }
  }
}

// O's rows out of registers by 16-byte stores (a quad transpose; the default where O does not go
// by TMA: head_dim_v above 128, varlen, packed GQA) against 4-byte stores
// (FLASHATTN_SM90_OUT_VEC16=0). Head_dim 232 ends inside a group of four 8-column tiles; varlen
// rows end inside a warp's quads.
TEST(Sm90, OutVec16SameBytes) {
  REQUIRE_SM90();
  expect_same_bytes("FLASHATTN_SM90_OUT_VEC16", {{256, false}, {232, false}, {192, true}, {128, true}, {64, true}});
}

// O into the TMA store's shared tile by stmatrix (the default) against 4-byte stores
// (FLASHATTN_SM90_OUT_STSM=0), where O goes by TMA (head_dim_v up to 128, padded batch): tiers
// 64, 96 and 128, head_dim 120 padded (TMA clips the columns past it), 333 query rows (the last
// tile's rows past the sequence are clipped too).
TEST(Sm90, OutStsmSameBytes) {
  REQUIRE_SM90();
  expect_same_bytes("FLASHATTN_SM90_OUT_STSM", {{64, false}, {96, false}, {120, false}, {128, false}});
}

// Consumer warpgroups without a query row in a tile skip it (the default) against computing its
// padding rows (FLASHATTN_SM90_SKIP_IDLE=0): 320 query rows (head_dim 64, three consumers: the
// second 192-row tile has 128 rows, one warpgroup idle; 128 and 256, two: the third 128-row tile
// has 64), 200 (head_dim 64: 8 rows, two idle), varlen (a one-row sequence; 100 rows), and on a
// grid of three persistent CTAs (the K/V ring's phases turning over, the producer's arrivals for
// the idle ones among them). StreamKTail has idle warpgroups in pieces (500 rows, three consumers).
TEST(Sm90, SkipIdleSameBytes) {
  REQUIRE_SM90();
  const char* env = "FLASHATTN_SM90_SKIP_IDLE";
  expect_same_bytes(env, {{64, false}, {128, false}, {256, false}, {64, true}, {128, true}}, 320);
  expect_same_bytes(env, {{64, false}, {64, true}}, 200);
  with_env("FLASHATTN_SM90_PERSISTENT", "3", [&] { expect_same_bytes(env, {{64, false}, {256, false}}, 320); });
}

// Live warpgroups skip the key blocks at the start of a tile's walk that their rows do not see
// (FLASHATTN_SM90_SKIP_MASKED=1) against computing them masked (=0): the same bytes of O and the
// LSE. Causal with seqlen_q = seqlen_k (head_dim 256 on 64- and 80-key blocks: the first
// warpgroup skips the diagonal's second block or most tiles' first; head_dim 64 on three
// consumers: 192-row tiles on 128-key blocks, one or two warpgroups skip; 192 on 96 keys);
// seqlen_q > seqlen_k (rows that see no key: warpgroups skip all of a walk but its last block);
// a sliding window; varlen; dropout, softcap with ALiBi (the extras kernel); a window on both
// sides; on three persistent CTAs and on one (the ring's phases turning over under the producer's
// arrivals for the skippers), with one Q buffer, and with idle warpgroups computing padding rows.
// The grid against the reference: Sm90.VariantSkipMasked. expect_same_bytes_walks(env): the same
// shapes and settings with another knob at 0 and 1 (Sm90.EarlyS0SameBytes).
int expect_same_bytes_walks(const char* env) {
  int ran = 0;
  auto same = [&](Spec s, const char* consumers, const char* blockn) {
    s.heads = 4;
    s.heads_kv = 2;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(5000 + s.head_dim + s.seqlen_q);
    if (!tier_in_build(s, false)) return;
    expect_same_bytes_of(s, env, consumers, blockn);
    ++ran;
  };
  auto spec = [](int d, int sq, int sk) {
    Spec s;
    s.dtype = d == 192 ? DType::Float16 : DType::BFloat16;
    s.head_dim = d;
    s.seqlen_q = sq;
    s.seqlen_k = sk;
    s.causal = true;
    return s;
  };
  auto all = [&] {
    for (const char* bn : {"alt", "default"}) {
      same(spec(256, 700, 700), "2", bn);
      same(spec(256, 517, 187), "2", bn);  // rows from 330 see keys: the first warpgroup of rows 256-383 none
    }
    same(spec(64, 1000, 1000), "3", "default");
    same(spec(64, 700, 333), "3", "default");  // rows from 367: two warpgroups of rows 192-383 see none
    same(spec(64, 333, 700), "2", "default");
    same(spec(192, 640, 640), "2", "default");
    Spec w = spec(128, 600, 600);
    w.causal = false;
    w.window_left = 100;
    w.window_right = 0;
    same(w, "2", "default");
    Spec v = spec(64, 400, 400);
    v.batch = 3;
    v.lens_q = {1, 400, 250};
    v.lens_k = {300, 400, 100};
    same(v, "3", "default");
    Spec dr = spec(256, 400, 400);
    dr.dropout = 0.1f;
    same(dr, "2", "alt");
    Spec ex = spec(256, 500, 500);
    ex.softcap = 30.0f;
    ex.alibi = 1;
    same(ex, "2", "alt");
    Spec w2 = spec(256, 600, 300);  // rows before 280 see no key; the others a window of 71
    w2.causal = false;
    w2.window_left = 50;
    w2.window_right = 20;
    same(w2, "2", "alt");
  };
  all();
  // Three persistent CTAs and one (every tile on one CTA: tiles whose first warpgroup sees no key
  // followed by short ones without turns), one Q buffer, and idle warpgroups computing padding rows.
  with_env("FLASHATTN_SM90_PERSISTENT", "3", all);
  with_env("FLASHATTN_SM90_PERSISTENT", "1", all);
  with_env("FLASHATTN_SM90_Q_PREFETCH", "0", all);
  with_env("FLASHATTN_SM90_SKIP_IDLE", "0", all);
  return ran;
}

TEST(Sm90, SkipMaskedSameBytes) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(expect_same_bytes_walks("FLASHATTN_SM90_SKIP_MASKED"));
}

// The build that reads the measured switches at run time, with every switch at its default
// (FLASHATTN_SM90_SWITCHED=1), against the default build with the defaults compiled in
// (fwd_kernel.h FA_SM90_FWD_SWITCHES), on every tier built: the same bytes of O and LSE on every
// kernel - the plain kernel on two and three consumers with skipping and idle warpgroups, a window,
// varlen, GQA packed onto one tile, the stream-K tail, the plain kernel with dropout and the kernel
// with extras - on the default grid and on one and three persistent CTAs.
TEST(Sm90, SwitchedSameBytes) {
  REQUIRE_SM90();
  int ran = 0;
  auto same = [&](Spec s, const char* consumers) {
    s.backend = Backend::Cuda;
    s.seed = uint64_t(6000 + s.head_dim + s.seqlen_q + s.seqlen_k);
    if (!tier_in_build(s, false)) return;
    expect_same_bytes_of(s, "FLASHATTN_SM90_SWITCHED", consumers);
    ++ran;
  };
  auto spec = [](int d, int sq, int sk, bool causal) {
    Spec s;
    s.dtype = d == 64 ? DType::BFloat16 : DType::Float16;
    s.head_dim = d;
    s.seqlen_q = sq;
    s.seqlen_k = sk;
    s.heads = 4;
    s.heads_kv = 2;
    s.causal = causal;
    return s;
  };
  auto all = [&] {
    same(spec(64, 1000, 1000, true), "3");
    same(spec(64, 700, 333, true), "3");  // rows from 367 see keys: idle and skipping warpgroups
    same(spec(64, 333, 700, true), "2");
    same(spec(128, 600, 600, true), "2");
    Spec w = spec(128, 600, 600, false);
    w.window_left = 100;
    w.window_right = 0;
    same(w, "2");
    Spec v = spec(64, 400, 400, true);
    v.batch = 3;
    v.lens_q = {1, 400, 250};
    v.lens_k = {300, 400, 100};
    same(v, "3");
    Spec gqa = spec(128, 40, 1100, false);  // two query heads a tile
    gqa.heads = 8;
    same(gqa, "2");
    with_env("FLASHATTN_SM90_STREAMK", "1", [&] { same(streamk_spec(64, 0, 3, 4, 500, 700, 0), "3"); });
    Spec dr = spec(128, 500, 500, true);  // the plain kernel with dropout
    dr.dropout = 0.1f;
    same(dr, "2");
    Spec ex = spec(64, 500, 500, true);  // the kernel with extras
    ex.softcap = 30.0f;
    ex.alibi = 1;
    same(ex, "2");
  };
  all();
  with_env("FLASHATTN_SM90_PERSISTENT", "1", all);
  with_env("FLASHATTN_SM90_PERSISTENT", "3", all);
  SKIP_IF_NONE_RAN(ran);
}

// A tile's S_0 and its softmax before the warpgroup's turn where safe (FLASHATTN_SM90_EARLY_S0=1):
// the same bytes as in the turn, over the walks above (skipping and idle warpgroups, whose runs
// the rule breaks, on one and three persistent CTAs), and the variants' grid against the reference.
TEST(Sm90, EarlyS0SameBytes) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(expect_same_bytes_walks("FLASHATTN_SM90_EARLY_S0"));
}
TEST(Sm90, VariantEarlyS0) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_EARLY_S0", "1"}}));
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_EARLY_S0", "1"}, {"FLASHATTN_SM90_PERSISTENT", "3"}}));
}

// Three consumer warpgroups (head_dim 64; other tiers keep two) with three-way ping-pong, on a
// persistent grid.
TEST(Sm90, VariantThreeConsumers) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_CONSUMERS", "3"}, {"FLASHATTN_SM90_PERSISTENT", "1"}}));
}

// The epilogue's normalizer and LSE by rcp.approx / lg2.approx (FLASHATTN_SM90_FAST_FINISH=1, the
// default: the build with the defaults compiled in where the tier has it) over
// the variants' problems against the reference (the GPU's LSE rule: 1e-4 relative), rows that see
// no key included (SkipMaskedSameBytes' shapes through Options' windows).
TEST(Sm90, VariantFastFinish) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_FAST_FINISH", "1"}}));
  int ran = 0;
  with_env("FLASHATTN_SM90_FAST_FINISH", "1", [&] {
    for (int d : {64, 256}) {
      Spec s;
      s.dtype = d == 64 ? DType::BFloat16 : DType::Float16;
      s.head_dim = d;
      s.seqlen_q = 517;
      s.seqlen_k = 187;  // rows before 330 see no key
      s.heads = 4;
      s.heads_kv = 2;
      s.causal = true;
      s.backend = Backend::Cuda;
      s.seed = uint64_t(6100 + d);
      ran += check_sm90_if_built(s);
    }
  });
  SKIP_IF_NONE_RAN(ran);
}

// The skip of masked key blocks (FLASHATTN_SM90_SKIP_MASKED=1, the default: the build that reads
// the switches only with another knob set) over the variants' problems against the reference,
// also with three consumers and on three persistent CTAs.
TEST(Sm90, VariantSkipMasked) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_SKIP_MASKED", "1"}}));
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_SKIP_MASKED", "1"}, {"FLASHATTN_SM90_CONSUMERS", "3"},
                                  {"FLASHATTN_SM90_PERSISTENT", "3"}}));
}

// head_dim 192 with head_dim_v 128 (the DeepSeek-style pair): its own instantiation, also with
// padded dims, GQA, causal, varlen, softcap and a negative softmax scale (the extras kernel).
TEST(Sm90, HeadDim192WithValue128) {
  REQUIRE_SM90();
  int ran = 0;
  for (int variant = 0; variant < 6; ++variant) {
    Spec s;
    s.dtype = variant % 2 ? DType::Float16 : DType::BFloat16;
    s.head_dim = variant == 1 ? 184 : 192;
    s.head_dim_v = variant == 1 ? 120 : 128;
    s.batch = 2;
    s.seqlen_q = 333;
    s.seqlen_k = 517;
    s.heads = 4;
    s.heads_kv = variant == 2 ? 1 : 4;
    s.causal = variant == 2 || variant == 3;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(1920 + variant);
    if (variant == 3) {
      s.lens_q = {300, 33};
      s.lens_k = {17, 500};
    }
    if (variant == 4) s.softcap = 20.0f;
    if (variant == 5) s.softmax_scale = -0.05f;
    SCOPED_TRACE("variant " + std::to_string(variant));
    ran += check_sm90_if_built(s);
  }
  SKIP_IF_NONE_RAN(ran);
}

// O through shared memory and TMA stores (tiers with room for the O tile; varlen batches and the
// other tiers keep the direct stores), on a persistent grid (the O tile reused across tiles).
TEST(Sm90, VariantTmaStore) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_variant({{"FLASHATTN_SM90_TMA_STORE", "1"}, {"FLASHATTN_SM90_PERSISTENT", "1"}}));
}

// GQA packing (the default; FLASHATTN_SM90_PACK_GQA=1 forces it): short queries with 2, 4 and 8 query heads per KV head
// share a tile (rows of several heads stacked by one TMA box); decoding (seqlen_q 1), chunks,
// causal, varlen, a softcap (kCap packs too), three consumers and a persistent grid.
TEST(Sm90, PackedGqa) {
  REQUIRE_SM90();
  setenv("FLASHATTN_SM90_PACK_GQA", "1", 1);
  int n = 0, ran = 0;
  for (int d : {64, 128, 256})
    for (int heads_kv : {1, 2, 4})
      for (auto [sq, sk] : {std::pair{1, 1}, {1, 700}, {5, 257}, {33, 1000}, {64, 64}, {100, 300}}) {
        Spec s;
        s.dtype = n % 2 ? DType::Float16 : DType::BFloat16;
        s.head_dim = d;
        s.batch = 2;
        s.heads = 8;
        s.heads_kv = heads_kv;
        s.seqlen_q = sq;
        s.seqlen_k = sk;
        s.causal = n % 3 == 1;
        if (n % 5 == 2) s.softcap = 30.0f;
        if (n % 7 == 3) {
          s.lens_q = {sq, sq > 1 ? sq - 1 : 1};
          s.lens_k = {sk, sk / 2 + 1};
        }
        s.backend = Backend::Cuda;
        s.seed = uint64_t(5000 + n);
        const bool three = d == 64 && n % 2 == 0, persistent = n % 4 == 0;
        setenv("FLASHATTN_SM90_CONSUMERS", three ? "3" : "2", 1);
        setenv("FLASHATTN_SM90_PERSISTENT", persistent ? "1" : "0", 1);
        SCOPED_TRACE("case " + std::to_string(n) + (three ? " three consumers" : "") + (persistent ? " persistent" : ""));
        ran += check_sm90_if_built(s);
        unsetenv("FLASHATTN_SM90_CONSUMERS");
        unsetenv("FLASHATTN_SM90_PERSISTENT");
        ++n;
      }
  unsetenv("FLASHATTN_SM90_PACK_GQA");
  SKIP_IF_NONE_RAN(ran);
}

// The forward's kernel with one modifier (kCap, kAlibi) and the kernel with extras (`env`=0) on
// specs(d) at every tier; then the persistent grid's turnover with it: many tiles a CTA (three
// CTAs), a stream-K tail (forced), three and two consumers at head_dim 64, `modify` setting the
// modifier. Returns how many ran.
template <typename Specs, typename Modify>
int check_one_mod_forward(const char* env, Specs&& specs, Modify&& modify) {
  int ran = 0;
  for (const char* on : {"1", "0"})
    with_env(env, on, [&] {
      for (int d : {64, 96, 128, 192, 256}) {
        std::vector<Spec> v = specs(d);
        for (Spec& x : v) {
          x.seed = uint64_t(d) * 131 + uint64_t(&x - v.data()) + (on[0] == '0' ? 7000 : 0);
          SCOPED_TRACE(std::string(env) + "=" + on);
          ran += check_sm90_if_built(x);
        }
      }
    });
  with_env(env, "1", [&] {
    for (int d : {64, 128, 256})
      for (int variant = 0; variant < 3; ++variant) {
        Spec s;
        s.dtype = variant == 1 ? DType::Float16 : DType::BFloat16;
        s.head_dim = d;
        s.batch = 2;
        s.heads = 6;
        s.heads_kv = 3;
        s.seqlen_q = 1000;
        s.seqlen_k = 700;
        modify(s);
        s.causal = variant == 2;
        s.backend = Backend::Cuda;
        s.seed = uint64_t(9100 + d + variant);
        with_env("FLASHATTN_SM90_PERSISTENT", "3", [&] {
          with_env("FLASHATTN_SM90_STREAMK", variant == 0 ? "1" : nullptr, [&] {
            with_env("FLASHATTN_SM90_CONSUMERS", d == 64 ? (variant == 1 ? "2" : "3") : nullptr, [&] {
              SCOPED_TRACE("persistent 3, variant " + std::to_string(variant));
              ran += check_sm90_if_built(s);
            });
          });
        });
      }
  });
  return ran;
}

// Softcap alone runs on the plain kernel with softcap (fwd_kernel.h kCap: tanh of the scaled dot,
// the row maximum over the tanh values, softcap log2(e) in the exponent) at every tier's default
// key block: masks, GQA packed and not, varlen, a negative and a zero scale, caps from 0.5 to
// 2^100 (the largest validation takes), large logits (tanh saturates), three consumers at
// head_dim 64, persistent grids with a stream-K tail; and the same problems on the kernel with
// extras (FLASHATTN_SM90_FWD_CAP=0), each against the reference (the problems: gpu_harness.h
// softcap_specs).
TEST(Sm90, SoftcapKernel) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_one_mod_forward("FLASHATTN_SM90_FWD_CAP", softcap_specs, [](Spec& s) { s.softcap = 20.0f; }));
}

// ALiBi alone runs on the plain kernel with ALiBi (fwd_kernel.h kAlibi: the bias joined to the raw
// dot, -slope / scale |i + diag - j|) at tiers 64 and 128's default key block with a scale of at
// least 2^-20, one head a tile; the problems of gpu_harness.h alibi_specs and the same on the kernel with
// extras (FLASHATTN_SM90_FWD_ALIBI=0), each against the reference (the other tiers, and a negative
// scale, run the kernel with extras both times).
TEST(Sm90, AlibiKernel) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_one_mod_forward("FLASHATTN_SM90_FWD_ALIBI", alibi_specs, [](Spec& s) { s.alibi = 2; }));
}

// Many tiles a CTA: 4 x 8 query heads (GQA 2:1) of 1000 queries over 300 keys; variant 1 causal
// (longest first), 2 varlen with empty and short sequences among long ones, 3 causal with dropout
// and a softcap (the kernel with extras, whose per-tile state turns over too), fp16.
Spec many_tiles_spec(int d, int variant, uint64_t seed) {
  Spec s;
  s.dtype = variant == 3 ? DType::Float16 : DType::BFloat16;
  s.head_dim = d;
  s.batch = 4;
  s.heads = 8;
  s.heads_kv = 4;
  s.seqlen_q = 1000;
  s.seqlen_k = 300;
  s.causal = variant == 1 || variant == 3;
  s.backend = Backend::Cuda;
  s.seed = seed;
  if (variant == 2) {
    s.lens_q = {1000, 0, 77, 900};
    s.lens_k = {300, 20, 0, 280};
  }
  if (variant == 3) {
    s.dropout = 0.1f;
    s.softcap = 20.0f;
  }
  return s;
}

// A persistent grid with more tiles than SMs: each CTA walks several tiles (Q reloaded, the K/V
// ring and the ping-pong turns carried over).
TEST(Sm90, PersistentManyTiles) {
  REQUIRE_SM90();
  int ran = 0;
  with_env("FLASHATTN_SM90_PERSISTENT", "1", [&] {
    for (int d : {64, 128, 256})
      for (int variant = 0; variant < 3; ++variant) {
        SCOPED_TRACE("persistent, variant " + std::to_string(variant));
        ran += check_sm90_if_built(many_tiles_spec(d, variant, uint64_t(d * 100 + variant)));
      }
  });
  SKIP_IF_NONE_RAN(ran);
}

// A persistent grid of three CTAs (FLASHATTN_SM90_PERSISTENT=3: dozens of tiles each, the Q
// buffers' and the K/V ring's barrier phases turning over many times), the shapes above and the
// kernel with extras, at the tiers `dims` (seeds d * 100 + variant + seed). Returns the cases run.
int check_three_ctas(std::initializer_list<int> dims, int seed, const std::string& what) {
  int ran = 0;
  with_env("FLASHATTN_SM90_PERSISTENT", "3", [&] {
    for (int d : dims)
      for (int variant = 0; variant < 4; ++variant) {
        SCOPED_TRACE(what + ", variant " + std::to_string(variant));
        ran += check_sm90_if_built(many_tiles_spec(d, variant, uint64_t(d * 100 + variant + seed)));
      }
  });
  return ran;
}

TEST(Sm90, PersistentThreeCtas) {
  REQUIRE_SM90();
  SKIP_IF_NONE_RAN(check_three_ctas({64, 96, 128, 256}, 50, "three CTAs"));
}

// The same grid with one Q buffer (FLASHATTN_SM90_Q_PREFETCH=0): the next tile's Q waits for this
// one's last S (with two, the default at head_dim 64-128, it loads a tile ahead).
TEST(Sm90, PersistentThreeCtasOneQBuffer) {
  REQUIRE_SM90();
  int ran = 0;
  with_env("FLASHATTN_SM90_Q_PREFETCH", "0", [&] { ran = check_three_ctas({64, 128}, 70, "three CTAs, one Q buffer"); });
  SKIP_IF_NONE_RAN(ran);
}

// The stream-K tail (config.h StreamK, no causal mask): grids of 5 and 11 CTAs over tiles
// that do not come out even cut tiles into a merged and a partial piece at many key positions
// (each CTA's range starts at another step; the key blocks end in a partial one). Per tier: plain
// bf16; fp16 with a softcap, ALiBi and dropout (the kernel with extras; head_dim 256's plain
// kernel defers its epilogue, the extras kernel does not); GQA with short queries (two query heads
// a tile). Then the default grid (one CTA an SM) over more tiles than SMs at head_dim 64 (three
// consumer warpgroups) and 128, FLASHATTN_SM90_STREAMK=1 (split) and =0 (whole rounds).
TEST(Sm90, StreamKTail) {
  REQUIRE_SM90();
  int ran = 0;
  with_env("FLASHATTN_SM90_STREAMK", "1", [&] {  // (wherever it can: the default rule would skip some)
    for (int d : {64, 96, 128, 192, 256})
      for (const char* grid : {"5", "11"})
        for (int variant = 0; variant < 3; ++variant)
          with_env("FLASHATTN_SM90_PERSISTENT", grid, [&] {
            SCOPED_TRACE(std::string("grid ") + grid + ", variant " + std::to_string(variant));
            ran += check_sm90_if_built(streamk_spec(d, variant, 3, 4, 500, 700, uint64_t(d * 10 + variant + 7000)));
          });
  });
  for (const char* streamk : {"1", "0"})
    with_env("FLASHATTN_SM90_STREAMK", streamk, [&] {
      for (int d : {64, 128}) {
        SCOPED_TRACE(std::string("default grid, FLASHATTN_SM90_STREAMK=") + streamk);
        ran += check_sm90_if_built(streamk_spec(d, 0, 2, 16, 1100, 1000, uint64_t(d + 7100)));  // 192 / 288 tiles
      }
    });
  // The defaults from 8192 keys at head_dim 128: 176-key blocks (launch.cu) and the stream-K tail
  // (a grid of 7 CTAs over 12 tiles of 47 key blocks, the last one partial).
  with_env("FLASHATTN_SM90_PERSISTENT", "7", [&] {
    SCOPED_TRACE("head_dim 128, 8192 keys, defaults");
    ran += check_sm90_if_built(streamk_spec(128, 0, 1, 4, 300, 8192, 7200));
  });
  SKIP_IF_NONE_RAN(ran);
}

// Whole tiles taken by tickets on a persistent grid with more tiles than CTAs
// (FwdParams90::tile_tickets, FLASHATTN_SM90_DYNAMIC=1: the default, launch.cu) against the static
// rounds (=0): the same bytes of O and the LSE (a tile's result does not depend on the CTA that
// computes it). The walks of expect_same_bytes_walks (causal, windows, varlen, dropout, extras) on
// three CTAs and on one (tickets by the dozen), the many-tiles shapes on three CTAs (empty
// sequences, the extras kernel), the stream-K tail after the ticketed rounds (grids of 5 and 11
// CTAs), and a tail with no whole round before it (7 CTAs, 8-12 tiles: no CTA takes a ticket;
// session 50's late-claims patch hung there, its ticket server waiting for a request). The same
// grids with the static rounds against the reference: PersistentManyTiles, PersistentThreeCtas,
// StreamKTail.
TEST(Sm90, DynamicTilesSameBytes) {
  REQUIRE_SM90();
  const char* env = "FLASHATTN_SM90_DYNAMIC";
  int ran = expect_same_bytes_walks(env);
  auto same = [&](const Spec& s) {
    if (!tier_in_build(s, false)) return;
    expect_same_bytes_of(s, env);
    ++ran;
  };
  with_env("FLASHATTN_SM90_PERSISTENT", "3", [&] {
    for (int d : {64, 128, 256})
      for (int variant = 0; variant < 4; ++variant) same(many_tiles_spec(d, variant, uint64_t(d * 100 + variant + 90)));
  });
  with_env("FLASHATTN_SM90_STREAMK", "1", [&] {
    for (const char* grid : {"5", "11"})
      with_env("FLASHATTN_SM90_PERSISTENT", grid, [&] {
        for (int d : {64, 128})
          for (int variant = 0; variant < 3; ++variant)
            same(streamk_spec(d, variant, 3, 4, 500, 700, uint64_t(d * 10 + variant + 7300)));
      });
    with_env("FLASHATTN_SM90_PERSISTENT", "7", [&] {
      for (int d : {64, 128}) same(streamk_spec(d, 0, 1, 4, 300, 8192, uint64_t(d + 7400)));
    });
  });
  SKIP_IF_NONE_RAN(ran);
}

// Causal tiles in head groups (config.h TileMap90, launch.cu): more (batch, head) pairs than
// half the SMs take groups of a quarter of the SMs (72 pairs: 33 and 39 with the remainder),
// between a quarter and half the SMs groups of a sixth where the tiles have 128 rows (48 pairs);
// FLASHATTN_SM90_CAUSAL_GROUPS forces small groups with a short last one; GQA (four query heads a
// K/V head) and a padded last query block on top. Four query blocks a head keep the CPU reference
// cheap (session 14's 700 x 900 version took 142 s of the GPU machine's ctest).
TEST(Sm90, CausalHeadGroups) {
  REQUIRE_SM90();
  setenv("FLASHATTN_SM90_PERSISTENT", "1", 1);
  int ran = 0;
  struct GroupCase {
    const char* groups;
    int batch;  // x 8 heads = the (batch, head) pairs
  };
  for (int d : {64, 128, 256})
    for (const GroupCase c : {GroupCase{"", 9}, GroupCase{"", 6}, GroupCase{"5", 3}, GroupCase{"1", 3}}) {
      Spec s;
      s.dtype = DType::BFloat16;
      s.head_dim = d;
      s.batch = c.batch;
      s.heads = 8;
      s.heads_kv = 2;
      s.seqlen_q = 400;
      s.seqlen_k = 520;
      s.causal = true;
      s.backend = Backend::Cuda;
      s.seed = uint64_t(d * 100 + c.batch * 10 + c.groups[0]);
      if (c.groups[0] != '\0') setenv("FLASHATTN_SM90_CAUSAL_GROUPS", c.groups, 1);
      SCOPED_TRACE(std::string("causal head groups '") + c.groups + "', batch " + std::to_string(c.batch) +
                   ", head_dim " + std::to_string(d));
      ran += check_sm90_if_built(s);
      unsetenv("FLASHATTN_SM90_CAUSAL_GROUPS");
    }
  unsetenv("FLASHATTN_SM90_PERSISTENT");
  SKIP_IF_NONE_RAN(ran);
}

// sm90 and sm80 on the same inputs: both within the tolerance rule of the reference and of
// each other (allowing both paths' errors).
TEST(Sm90, AgreesWithSm80) {
  REQUIRE_SM90();
  int ran = 0;
  for (int d : {64, 128, 256}) {
    Spec s;
    s.dtype = DType::BFloat16;
    s.head_dim = d;
    s.seqlen_q = 1031;
    s.seqlen_k = 777;
    s.heads = 4;
    s.heads_kv = 2;
    s.causal = true;
    s.backend = Backend::Cuda;
    bool built = true;  // both paths' tier (sm90 on, then off)
    with_sm90(true, [&] { built = built && tier_in_build(s, false); });
    with_sm90(false, [&] { built = built && tier_in_build(s, false); });
    if (!built) continue;
    ++ran;
    Case a(s), b(s);
    GpuCase ga(a), gb(b);
    RunInfo ia, ib;
    with_sm90(true, [&] { ia = ga.run_forward(); });
    with_sm90(false, [&] { ib = gb.run_forward(); });
    EXPECT_EQ(ia.path, "cuda-sm90");
    EXPECT_EQ(ib.path, "cuda-sm80");
    const auto exact = reference::forward(a.forward_args(), reference::Rounding::Exact);
    const auto lowp = reference::forward(a.forward_args(), reference::Rounding::LowPrecision);
    const Comparison vs_ref = compare(s.dtype, a.out.to_double(), exact.out, lowp.out);
    const Comparison agree = compare(s.dtype, a.out.to_double(), b.out.to_double(), lowp.out);
    EXPECT_TRUE(vs_ref.ok) << vs_ref.describe("sm90 out") << "; " << s.str();
    EXPECT_TRUE(agree.nan_count == 0 && agree.max_err <= 2 * vs_ref.bound)
        << agree.describe("sm90 vs sm80 out") << "; " << s.str();
  }
  SKIP_IF_NONE_RAN(ran);
}

// A long sequence: no seqlen^2 buffer, finite output, guard bands intact.
TEST(Sm90, LongSequence) {
  REQUIRE_SM90();
  Spec s;
  s.dtype = DType::BFloat16;
  s.head_dim = 128;
  s.seqlen_q = 16384;
  s.seqlen_k = 16384;
  s.heads = 2;
  s.heads_kv = 1;
  s.causal = true;
  s.backend = Backend::Cuda;
  REQUIRE_TIER_BUILT(s, false);
  Case c(s);
  GpuCase g(c);
  RunInfo info;
  with_sm90(true, [&] { info = g.run_forward(); });
  EXPECT_EQ(info.path, "cuda-sm90");
  EXPECT_TRUE(c.out.guards_intact());
  EXPECT_TRUE(c.lse.guards_intact());
  int64_t bad = 0;
  for (int64_t i = 0; i < c.out.numel(); ++i) bad += !std::isfinite(c.out.get(i));
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace flashattn::test
