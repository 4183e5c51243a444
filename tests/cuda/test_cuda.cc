// CUDA backend tests: the foundation grid on the GPU (tolerance rule, poisoned outputs, guard
// bands), GPU vs CPU agreement, dropout's dropped set, deterministic backward, odd shapes, and
// the selector's refusals. Every test skips with a message where no GPU is present.
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

#include "cuda/sm80/host.h"
#include "gpu_harness.h"
#include "semantics/dropout.h"

namespace flashattn::test {
namespace {

struct GridParam {
  DType dtype;
  int head_dim, head_dim_v;
  int seqlen_q, seqlen_k;
  bool causal;
};

std::string grid_name(const testing::TestParamInfo<GridParam>& info) {
  const GridParam& g = info.param;
  return std::string(g.dtype == DType::Float16 ? "fp16" : "bf16") + "_d" + std::to_string(g.head_dim) + "x" +
         std::to_string(g.head_dim_v) + "_q" + std::to_string(g.seqlen_q) + "_k" + std::to_string(g.seqlen_k) +
         (g.causal ? "_causal" : "");
}

Spec spec_of(const GridParam& g) {
  Spec s;
  s.dtype = g.dtype;
  s.head_dim = g.head_dim;
  s.head_dim_v = g.head_dim_v;
  s.seqlen_q = g.seqlen_q;
  s.seqlen_k = g.seqlen_k;
  s.causal = g.causal;
  s.heads = 2;
  s.heads_kv = 2;
  s.seed = uint64_t(g.head_dim * 131 + g.seqlen_q * 7 + g.seqlen_k + g.causal);
  return s;
}

std::vector<GridParam> forward_grid() {
  std::vector<GridParam> v;
  const std::pair<int, int> dims[] = {{32, 32}, {59, 59}, {64, 64}, {96, 96}, {111, 111}, {128, 128},
                                      {160, 160}, {192, 192}, {192, 128}, {224, 224}, {256, 256}, {64, 40}};
  const std::pair<int, int> lens[] = {{1, 1}, {1, 513}, {113, 203}, {1000, 999}};
  for (DType dt : {DType::Float16, DType::BFloat16})
    for (auto [d, dv] : dims)
      for (auto [sq, sk] : lens)
        for (bool causal : {false, true}) v.push_back({dt, d, dv, sq, sk, causal});
  return v;
}

std::vector<GridParam> backward_grid() {
  std::vector<GridParam> v;
  // (every tier: the sm80 backward's tiers differ in step order and stores, bwd_kernel.h)
  const std::pair<int, int> dims[] = {{32, 32}, {59, 59}, {64, 64}, {96, 96}, {128, 128},
                                      {160, 160}, {192, 192}, {192, 128}, {224, 224}, {256, 256}};
  const std::pair<int, int> lens[] = {{1, 1}, {1, 513}, {113, 203}, {300, 257}};
  for (DType dt : {DType::Float16, DType::BFloat16})
    for (auto [d, dv] : dims)
      for (auto [sq, sk] : lens)
        for (bool causal : {false, true}) v.push_back({dt, d, dv, sq, sk, causal});
  return v;
}

class ForwardGrid : public testing::TestWithParam<GridParam> {};
TEST_P(ForwardGrid, MatchesReference) {
  REQUIRE_GPU();
  REQUIRE_TIER_BUILT(spec_of(GetParam()), false);
  check_forward_gpu(spec_of(GetParam()));
}
INSTANTIATE_TEST_SUITE_P(Cuda, ForwardGrid, testing::ValuesIn(forward_grid()), grid_name);

class BackwardGrid : public testing::TestWithParam<GridParam> {};
TEST_P(BackwardGrid, MatchesReference) {
  REQUIRE_GPU();
  REQUIRE_TIER_BUILT(spec_of(GetParam()), true);
  check_backward_gpu(spec_of(GetParam()));
}
INSTANTIATE_TEST_SUITE_P(Cuda, BackwardGrid, testing::ValuesIn(backward_grid()), grid_name);

// Options one at a time and together, forward and backward.
struct OptionParam {
  const char* name;
  void (*apply)(Spec&);
};
const OptionParam kOptions[] = {
    {"plain", [](Spec&) {}},
    {"causal", [](Spec& s) { s.causal = true; }},
    {"window", [](Spec& s) { s.window_left = 20; s.window_right = 5; }},
    {"window_left_only", [](Spec& s) { s.window_left = 33; }},
    {"softcap", [](Spec& s) { s.softcap = 5.0f; }},
    {"alibi_heads", [](Spec& s) { s.alibi = 1; }},
    {"alibi_batch", [](Spec& s) { s.alibi = 2; }},
    {"dropout", [](Spec& s) { s.dropout = 0.17f; }},
    {"scale_negative", [](Spec& s) { s.softmax_scale = -0.07f; s.causal = true; }},
    {"scale_zero", [](Spec& s) { s.softmax_scale = 0.0f; s.window_left = 30; }},
    {"gqa_8_1", [](Spec& s) { s.heads = 8; s.heads_kv = 1; }},
    {"gqa_4_2", [](Spec& s) { s.heads = 4; s.heads_kv = 2; }},
    {"varlen_zero_lengths", [](Spec& s) { s.batch = 4; s.lens_q = {5, 0, 77, 130}; s.lens_k = {9, 4, 0, 150}; }},
    {"varlen_causal", [](Spec& s) { s.batch = 3; s.lens_q = {65, 1, 129}; s.lens_k = {64, 70, 200}; s.causal = true; }},
    {"all", [](Spec& s) {
       s.heads = 4; s.heads_kv = 2; s.window_left = 40; s.window_right = 7; s.softcap = 4.0f; s.alibi = 2;
       s.dropout = 0.2f; s.causal = false; }},
    {"all_varlen_causal", [](Spec& s) {
       s.batch = 3; s.lens_q = {70, 0, 100}; s.lens_k = {90, 30, 64}; s.heads = 4; s.heads_kv = 1; s.causal = true;
       s.softcap = 3.0f; s.alibi = 1; s.dropout = 0.1f; }},
};

struct OptionCase {
  int option;
  DType dtype;
  int head_dim;
};
std::vector<OptionCase> option_cases() {
  std::vector<OptionCase> v;
  for (int o = 0; o < int(sizeof(kOptions) / sizeof(kOptions[0])); ++o)
    for (DType dt : {DType::Float16, DType::BFloat16})
      for (int d : {64, 128, 256}) v.push_back({o, dt, d});
  return v;
}
std::string option_name(const testing::TestParamInfo<OptionCase>& info) {
  return std::string(kOptions[info.param.option].name) + (info.param.dtype == DType::Float16 ? "_fp16" : "_bf16") +
         "_d" + std::to_string(info.param.head_dim);
}
Spec option_spec(const OptionCase& oc) {
  Spec s;
  s.dtype = oc.dtype;
  s.head_dim = oc.head_dim;
  s.seqlen_q = 113;
  s.seqlen_k = 203;
  s.seed = uint64_t(oc.option * 17 + oc.head_dim);
  kOptions[oc.option].apply(s);
  return s;
}

class Options : public testing::TestWithParam<OptionCase> {};
TEST_P(Options, ForwardAndBackward) {
  REQUIRE_GPU();
  const Spec s = option_spec(GetParam());
  REQUIRE_TIER_BUILT(s, true);
  check_forward_gpu(s);
  check_backward_gpu(s);
}
INSTANTIATE_TEST_SUITE_P(Cuda, Options, testing::ValuesIn(option_cases()), option_name);

TEST(CudaShapes, Long2048Causal) {
  REQUIRE_GPU();
  Spec s;
  s.dtype = DType::BFloat16;
  s.seqlen_q = s.seqlen_k = 2048;
  s.head_dim = 128;
  s.heads = 2;
  s.heads_kv = 1;
  s.causal = true;
  REQUIRE_TIER_BUILT(s, true);
  check_forward_gpu(s);
  check_backward_gpu(s);
}

TEST(CudaShapes, OddSeqlens) {
  REQUIRE_GPU();
  for (int sq : {1, 17, 1025})
    for (int sk : {1, 17, 1025}) {
      Spec s;
      s.dtype = DType::Float16;
      s.seqlen_q = sq;
      s.seqlen_k = sk;
      s.head_dim = 59;
      s.causal = (sq + sk) % 2 == 0;
      REQUIRE_TIER_BUILT(s, true);
      check_forward_gpu(s);
      check_backward_gpu(s);
    }
}

// batch * heads * query blocks far beyond 65535: the grid is one-dimensional in x.
TEST(CudaShapes, ManyBatchHeads) {
  REQUIRE_GPU();
  Spec s;
  s.dtype = DType::BFloat16;
  s.batch = 700;
  s.heads = 100;
  s.heads_kv = 100;
  s.seqlen_q = 3;
  s.seqlen_k = 5;
  s.head_dim = 32;
  REQUIRE_TIER_BUILT(s, true);
  check_forward_gpu(s);
  check_backward_gpu(s);
}

// seqlen 32768: no seqlen^2 buffer anywhere. Forward checked on sampled rows
// against the double reference; backward must finish with finite gradients and
// intact guards. Head_dim 64 and 128: on Hopper both directions of both run the
// sm90 path by default.
TEST(CudaShapes, Seqlen32768) {
  REQUIRE_GPU();
  int ran = 0;
  for (int d : {64, 128}) {
    SCOPED_TRACE("head_dim " + std::to_string(d));
    Spec s;
    s.dtype = DType::BFloat16;
    s.seqlen_q = s.seqlen_k = 32768;
    s.heads = 1;
    s.heads_kv = 1;
    s.head_dim = d;
    s.causal = true;
    if (!tier_in_build(s, true)) continue;
    ++ran;
    Case c(s);
    GpuCase g(c);
    g.run_forward();
    const Problem p = make_problem(c.forward_args(), Backend::Cpu);
    double worst = 0;
    for (int i : {0, 1, 4095, 16384, 32767}) {
      std::vector<double> ref(d);
      double lse;
      reference::forward_row(p, 0, 0, i, ref.data(), &lse);
      for (int col = 0; col < d; ++col)
        worst = std::max(worst,
                         std::fabs(c.out.get(int64_t(i) * d + col) - ref[col]));
      EXPECT_NEAR(c.lse.get(i), lse, 1e-3) << "row " << i;
    }
    EXPECT_LT(worst, 2e-2) << "sampled rows of out";
    EXPECT_TRUE(c.out.guards_intact());
    g.run_backward();
    for (HostTensor *t : {&c.dq, &c.dk, &c.dv}) {
      EXPECT_TRUE(t->guards_intact());
      int64_t bad = 0;
      for (int64_t i = 0; i < t->numel(); ++i)
        bad += !std::isfinite(t->get(i));
      EXPECT_EQ(bad, 0) << "non-finite gradients";
    }
  }
  if (ran == 0) GTEST_SKIP() << "head_dim tiers 64 and 128 not in this build";
}

// A shape for the tile-plan tests below: GQA, unequal lengths, partial blocks.
Spec plan_spec(int head_dim, bool causal, uint64_t seed) {
  Spec s;
  s.dtype = DType::BFloat16;
  s.head_dim = head_dim;
  s.seqlen_q = 300;
  s.seqlen_k = 257;
  s.heads = 4;
  s.heads_kv = 2;
  s.causal = causal;
  s.seed = seed;
  return s;
}

// The backward's tile plans for GPUs with less shared memory than the H100/H200
// (launch.h: BwdPlan, one or two Q/dO stages): an A100's 163 KB and a 99 KB
// GPU's (RTX 30xx/40xx, L4), simulated with FLASHATTN_SM80_SMEM_LIMIT. Every
// plan must meet the tolerance rule.
TEST(Cuda, BackwardOnSmallerSharedMemory) {
  REQUIRE_GPU();
  for (const char* limit : {"166912", "101376"}) {
    setenv("FLASHATTN_SM80_SMEM_LIMIT", limit, 1);
    for (int d : {32, 64, 96, 128})
      for (bool causal : {false, true}) {
        SCOPED_TRACE(std::string("FLASHATTN_SM80_SMEM_LIMIT=") + limit);
        const Spec s = plan_spec(d, causal, uint64_t(d * 3 + causal));
        if (tier_in_build(s, true)) check_backward_gpu(s);  // (a tier the build leaves out: skipped)
      }
    unsetenv("FLASHATTN_SM80_SMEM_LIMIT");
  }
}

// The forward's tile plans above head_dim 128 (launch.h: FwdPlan): 64 x 64 on four warps where
// two CTAs fit an SM, else 128 x 64 on eight warps (an A100's 163 KB at head_dim 224 and 256),
// and the 64 x 64 tile alone on a 99 KB GPU; simulated with FLASHATTN_SM80_SMEM_LIMIT, on the
// sm80 path whatever the GPU.
TEST(Cuda, ForwardOnSmallerSharedMemory) {
  REQUIRE_GPU();
  with_env("FLASHATTN_DISABLE_SM90", "1", [] {
    for (const char* limit : {"166912", "101376"})
      with_env("FLASHATTN_SM80_SMEM_LIMIT", limit, [&] {
        for (int d : {160, 192, 224, 256})
          for (bool causal : {false, true}) {
            SCOPED_TRACE(std::string("FLASHATTN_SM80_SMEM_LIMIT=") + limit);
            const Spec s = plan_spec(d, causal, uint64_t(d * 5 + causal));
            if (tier_in_build(s, false)) check_forward_gpu(s, "cuda-sm80");  // (else: skipped)
          }
      });
  });
}

// GPU and CPU backends on the same inputs: both within the tolerance rule of each other.
TEST(CudaVsCpu, Agree) {
  REQUIRE_GPU();
  for (int d : {59, 128}) {
    Spec s;
    s.dtype = DType::BFloat16;
    s.seqlen_q = 150;
    s.seqlen_k = 333;
    s.heads = 4;
    s.heads_kv = 2;
    s.head_dim = d;
    s.causal = true;
    s.softcap = 6.0f;
    s.dropout = 0.1f;
    Case gpu_case(s);
    GpuCase g(gpu_case);
    g.run_forward();
    g.run_backward();
    Case cpu_case(s);
    cpu_case.spec.backend = Backend::Cpu;
    cpu_case.run_forward();
    cpu_case.run_backward();
    const auto exact = reference::backward(cpu_case.backward_args(), reference::Rounding::Exact);
    const auto lowp = reference::backward(cpu_case.backward_args(), reference::Rounding::LowPrecision);
    const auto fexact = reference::forward(cpu_case.forward_args(), reference::Rounding::Exact);
    const auto flowp = reference::forward(cpu_case.forward_args(), reference::Rounding::LowPrecision);
    struct Item {
      const char* name;
      const HostTensor& gpu;
      const HostTensor& cpu;
      const std::vector<double>& exact;
      const std::vector<double>& lowp;
    } items[] = {{"out", gpu_case.out, cpu_case.out, fexact.out, flowp.out},
                 {"dq", gpu_case.dq, cpu_case.dq, exact.dq, lowp.dq},
                 {"dk", gpu_case.dk, cpu_case.dk, exact.dk, lowp.dk},
                 {"dv", gpu_case.dv, cpu_case.dv, exact.dv, lowp.dv}};
    for (const Item& it : items) {
      const Comparison vs_ref = compare(s.dtype, it.gpu.to_double(), it.exact, it.lowp);
      const Comparison agree = compare(s.dtype, it.gpu.to_double(), it.cpu.to_double(), it.lowp);
      // The CPU result stands in for the reference: allow both backends' errors.
      EXPECT_TRUE(agree.nan_count == 0 && agree.max_err <= 2 * vs_ref.bound)
          << agree.describe(std::string(it.name) + " gpu vs cpu") << "; " << s.str();
    }
  }
}

// Identity V (V[j][c] = (j == c)) makes out[i][j] = p_ij * keep_ij / (1 - p): zero exactly where
// dropout dropped (i, j). The dropped set must equal the CPU backend's and the semantics'.
TEST(CudaDropout, DroppedSetEqualsCpu) {
  REQUIRE_GPU();
  for (DType dt : {DType::Float16, DType::BFloat16}) {
    Spec s;
    s.dtype = dt;
    s.seqlen_q = 77;
    s.seqlen_k = 64;
    s.head_dim = 64;
    s.head_dim_v = 64;
    s.heads = 3;
    s.heads_kv = 3;
    s.batch = 2;
    s.dropout = 0.3f;
    Case c(s);
    for (int64_t i = 0; i < c.q.numel(); ++i) c.q.set(i, c.q.get(i) * 0.1f);
    for (int64_t i = 0; i < c.v.numel(); ++i) {
      const int64_t col = i % 64, key = (i / 64 / s.heads_kv) % s.seqlen_k;
      c.v.set(i, key == col ? 1.0f : 0.0f);
    }
    GpuCase g(c);
    g.run_forward();
    Case cpu(s);
    std::memcpy(cpu.q.bytes.data(), c.q.bytes.data(), c.q.bytes.size());
    std::memcpy(cpu.v.bytes.data(), c.v.bytes.data(), c.v.bytes.size());
    cpu.run_forward();
    const semantics::Dropout drop = semantics::make_dropout(s.dropout, c.options().seed, c.options().offset);
    int64_t mismatches = 0, dropped = 0;
    for (int b = 0; b < s.batch; ++b)
      for (int i = 0; i < s.seqlen_q; ++i)
        for (int h = 0; h < s.heads; ++h)
          for (int j = 0; j < 64; ++j) {
            const int64_t idx = ((int64_t(b) * s.seqlen_q + i) * s.heads + h) * 64 + j;
            const bool gpu_dropped = c.out.get(idx) == 0.0f;
            const bool cpu_dropped = cpu.out.get(idx) == 0.0f;
            const bool sem_dropped = !drop.keep(uint64_t(b) * s.heads + h, i, j);
            mismatches += gpu_dropped != cpu_dropped || gpu_dropped != sem_dropped;
            dropped += gpu_dropped;
          }
    EXPECT_EQ(mismatches, 0) << "dropped " << dropped << "; " << s.str();
    EXPECT_GT(dropped, 0);
  }
}

// deterministic = true: three backward runs give bitwise-identical dq, dk, dv (GQA, causal,
// dropout: the sm80 path).
TEST(CudaDeterministic, ThreeRunsBitwiseEqual) {
  REQUIRE_GPU();
  Spec s;
  s.dtype = DType::BFloat16;
  s.seqlen_q = 1025;
  s.seqlen_k = 777;
  s.heads = 8;
  s.heads_kv = 2;
  s.head_dim = 128;
  s.causal = true;
  s.dropout = 0.1f;
  s.backend = Backend::Cuda;
  check_backward_deterministic(s);
}

// The sm80 backward's split last round (BwdParams::tail) on the sm80 path
// (FLASHATTN_EXPERIMENTAL_SM90_BWD=0): FLASHATTN_SM80_BWD_SLOTS=3 and 7 give small problems a
// last round of 1 or 2 tiles of 16 (head_dim <= 128: 4 key blocks x 2 batches x 2 kv heads;
// 256: 32 tiles); the pieces a tile by the rule and forced to 2 and 5 (at most the walk's
// steps); plain bf16, GQA with 40 queries (each piece its own query head of the walk), and fp16
// with a softcap, ALiBi and dropout (the kernel with extras, never split: whole tiles under the
// same knobs).
class CudaBwdTail : public testing::TestWithParam<int> {};
TEST_P(CudaBwdTail, Backward) {
  REQUIRE_GPU();
  const int d = GetParam();
  REQUIRE_TIER_BUILT(streamk_spec(d, 0, 2, 4, 200, 500, 1), true);
  with_env("FLASHATTN_EXPERIMENTAL_SM90_BWD", "0", [&] {
    with_env("FLASHATTN_SM80_BWD_TAIL", "1", [&] {
      for (const char* slots : {"3", "7"})
        for (const char* pieces : {static_cast<const char*>(nullptr), "2", "5"})
          for (int variant = 0; variant < 3; ++variant)
            with_env("FLASHATTN_SM80_BWD_SLOTS", slots, [&] {
              with_env("FLASHATTN_SM80_BWD_PIECES", pieces, [&] {
                SCOPED_TRACE(std::string("slots ") + slots + ", pieces " + (pieces ? pieces : "(rule)") +
                             ", variant " + std::to_string(variant));
                Case c(streamk_spec(d, variant, 2, 4, 200, 500, uint64_t(d * 10 + variant + 9000)));
                GpuCase g(c);
                g.run_forward();
                EXPECT_EQ(g.run_backward().path, "cuda-sm80");
                check_backward_results(c);
              });
            });
    });
  });
}
INSTANTIATE_TEST_SUITE_P(HeadDims, CudaBwdTail, testing::Values(32, 59, 64, 128, 192, 256));

// The split against whole tiles on the same inputs (a last round of 3 tiles of 16 in 3 pieces
// each), the default slots (the device's) with and without the split, and deterministic = true
// with the split requested: never split (dQ's order is fixed), three runs bitwise equal.
TEST(CudaBwdTail, AgreesWithWholeTilesAndDefaults) {
  REQUIRE_GPU();
  with_env("FLASHATTN_EXPERIMENTAL_SM90_BWD", "0", [&] {
    backward_agree(
        streamk_spec(64, 0, 2, 4, 333, 511, 9100), "cuda-sm80",
        [](auto&& run) {
          with_env("FLASHATTN_SM80_BWD_SLOTS", "13",
                   [&] { with_env("FLASHATTN_SM80_BWD_PIECES", "3", [&] { with_env("FLASHATTN_SM80_BWD_TAIL", "1", run); }); });
        },
        "cuda-sm80", [](auto&& run) { with_env("FLASHATTN_SM80_BWD_TAIL", "0", run); });
    for (const char* tail : {"1", "0"})
      with_env("FLASHATTN_SM80_BWD_TAIL", tail, [&] {
        SCOPED_TRACE(std::string("default slots, FLASHATTN_SM80_BWD_TAIL=") + tail);
        check_backward_gpu(streamk_spec(128, 0, 2, 16, 400, 1200, 9200));  // 160 key blocks
      });
    with_env("FLASHATTN_SM80_BWD_TAIL", "1", [&] {
      with_env("FLASHATTN_SM80_BWD_SLOTS", "5",
               [&] { check_backward_deterministic(streamk_spec(128, 0, 2, 4, 300, 500, 9300), "cuda-sm80"); });
    });
  });
}

// The split's plan (host code: runs without a GPU): 4096 key blocks of 64 steps on 132 slots
// (head_dim 64 at 8k: 31 rounds and 4 tiles) split the 4 into 32 pieces of 2 steps; 2048 of
// 128 (head_dim 128 at 8k: 15 rounds and 68) into 13 of about 10; whole rounds, one-step walks
// and savings under 2% are not split; FLASHATTN_SM80_BWD_TAIL=1 splits wherever it saves.
TEST(CudaBwdTail, Plan) {
  with_env("FLASHATTN_SM80_BWD_TAIL", nullptr, [] {
    with_env("FLASHATTN_SM80_BWD_PIECES", nullptr, [] {
      cuda::sm80::BwdParams::Tail t = cuda::sm80::bwd_tail_plan(4096, 64, 132);
      EXPECT_EQ(t.tile0, 4092);
      EXPECT_EQ(t.pieces, 32);
      EXPECT_EQ(t.steps, 64);
      t = cuda::sm80::bwd_tail_plan(2048, 128, 132);
      EXPECT_EQ(t.tile0, 1980);
      EXPECT_EQ(t.pieces, 13);
      EXPECT_EQ(cuda::sm80::bwd_tail_plan(132 * 8, 64, 132).pieces, 0);  // whole rounds
      EXPECT_EQ(cuda::sm80::bwd_tail_plan(4096, 1, 132).pieces, 0);      // one step a walk
      // 100 of 132 slots busy in the last of 40 rounds: 5 pieces save 0.3% (steps 2552 of 2560);
      // with 131, no split saves anything.
      EXPECT_EQ(cuda::sm80::bwd_tail_plan(132 * 39 + 100, 64, 132).pieces, 0);
      with_env("FLASHATTN_SM80_BWD_TAIL", "1", [] {
        EXPECT_EQ(cuda::sm80::bwd_tail_plan(132 * 39 + 100, 64, 132).pieces, 5);
        EXPECT_EQ(cuda::sm80::bwd_tail_plan(132 * 39 + 131, 64, 132).pieces, 0);
      });
      EXPECT_EQ(cuda::sm80::bwd_tail_plan(64, 16, 132).pieces, 2);  // 64 tiles: one round of halves
    });
  });
}

// A caller's allocator (Context::allocator) whose blocks are only 8-byte aligned: the workspace
// is aligned inside the block (the sm90 backward's bulk reductions need 16 bytes), results are
// right, and every block is handed back. Blocks are freed after the synchronization (the
// library hands them back once the work is queued, for stream-ordered allocators).
struct OddAllocator {
  std::vector<void*> live, returned;
  static void* allocate(std::size_t bytes, void* user) {
    void* base = nullptr;
    if (cudaMalloc(&base, bytes + 64) != cudaSuccess) return nullptr;
    static_cast<OddAllocator*>(user)->live.push_back(base);
    return static_cast<char*>(base) + 8;
  }
  static void deallocate(void* ptr, std::size_t, void* user) {
    static_cast<OddAllocator*>(user)->returned.push_back(static_cast<char*>(ptr) - 8);
  }
};

TEST(CudaAllocator, UnalignedCallerBlocks) {
  REQUIRE_GPU();
  for (int d : {64, 128}) {
    Spec s;
    s.dtype = DType::BFloat16;
    s.head_dim = d;
    s.seqlen_q = 300;
    s.seqlen_k = 517;
    s.heads = 4;
    s.heads_kv = 2;
    s.causal = true;
    s.backend = Backend::Cuda;
    s.seed = uint64_t(d + 31);
    Case c(s);
    GpuCase g(c);
    g.run_forward();
    OddAllocator alloc;
    Context ctx = g.context();
    ctx.allocator.allocate = &OddAllocator::allocate;
    ctx.allocator.deallocate = &OddAllocator::deallocate;
    ctx.allocator.user = &alloc;
    c.dq.poison();
    c.dk.poison();
    c.dv.poison();
    g.dq.upload();
    g.dk.upload();
    g.dv.upload();
    flashattn::backward(g.backward_args(), ctx);
    cuda_ok(cudaDeviceSynchronize(), "backward");
    g.dq.download(c.dq);
    g.dk.download(c.dk);
    g.dv.download(c.dv);
    EXPECT_FALSE(alloc.live.empty()) << "the backward took no workspace from the allocator";
    EXPECT_EQ(alloc.returned, alloc.live) << "every block handed back, once";
    for (void* p : alloc.live) cudaFree(p);
    check_backward_results(c);
  }
}

// Varlen without host copies of cu_seqlens: the library copies them on the stream.
TEST(CudaVarlen, DeviceOnlyCuSeqlensOnAStream) {
  REQUIRE_GPU();
  Spec s;
  s.dtype = DType::Float16;
  s.batch = 3;
  s.lens_q = {17, 0, 64};
  s.lens_k = {33, 5, 64};
  REQUIRE_TIER_BUILT(s, false);  // (a development build's FLASHATTN_HEAD_DIMS may leave its tier out)
  Case c(s);
  GpuCase g(c);
  g.pass_host_cu = false;
  cuda_ok(cudaStreamCreate(&g.stream), "cudaStreamCreate");
  g.run_forward();
  const auto exact = reference::forward(c.forward_args(), reference::Rounding::Exact);
  const auto lowp = reference::forward(c.forward_args(), reference::Rounding::LowPrecision).out;
  expect_close(s, "out", c.out, exact.out, lowp);
  cudaStreamDestroy(g.stream);
}

TEST(CudaSelector, RefusesFloat32WithAReason) {
  REQUIRE_GPU();
  Spec s;
  s.dtype = DType::Float32;
  Case c(s);
  GpuCase g(c);
  const Support sup = is_supported(g.forward_args(), g.context());
  EXPECT_FALSE(sup.supported);
  EXPECT_NE(sup.reason.find("float32"), std::string::npos) << sup.reason;
  EXPECT_THROW(flashattn::forward(g.forward_args(), g.context()), Error);
  // The same case in bf16 runs (Spec's head_dim 32: the sm80 path, where its tier is built).
  if (!cuda_tier_built(32)) GTEST_SKIP() << "head_dim tier 32 not built: the bf16 half of the check";
  Spec ok;
  ok.dtype = DType::BFloat16;
  Case c2(ok);
  GpuCase g2(c2);
  const Support sup2 = is_supported(g2.forward_args(), g2.context());
  EXPECT_TRUE(sup2.supported) << sup2.reason;
  EXPECT_EQ(sup2.path, "cuda-sm80");
}

}  // namespace
}  // namespace flashattn::test
