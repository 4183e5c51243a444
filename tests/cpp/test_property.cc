// Randomized property test: random configurations (dtype, odd shapes, GQA, head_dim_v, varlen
// with empty sequences, masks, ALiBi, softcap, dropout, scale, thread count), forward and backward
// each against the reference under the tolerance rule. Deterministic by default; set
//   FLASHATTN_TEST_SEED=<n>   another master seed (decimal or 0x hex)
//   FLASHATTN_TEST_CASE=<k>   run only configuration k (as printed with a failure)
// to explore or to reproduce a failure.
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

#include "harness.h"

namespace flashattn::test {
namespace {

constexpr int kShards = 8;
constexpr int kConfigsPerShard = 32;  // 256 configurations per run
constexpr uint64_t kDefaultSeed = 0x5eed2024;
// Work cap per configuration, in multiply-adds of one forward (batch * heads * sq * sk * (d + dv)).
constexpr double kMaxWork = 3e6;

uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

uint64_t master_seed() { return env_u64("FLASHATTN_TEST_SEED", kDefaultSeed); }

uint64_t mix(uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

Spec random_spec(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto coin = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  auto real = [&](double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(rng)); };
  // Lengths favour the edges: 1, block boundaries +-1, and odd values.
  auto length = [&](int max, double p_zero) {
    if (coin(p_zero)) return 0;
    static const int special[] = {1, 2, 3, 63, 64, 65, 127, 128, 129};
    if (coin(0.3)) return std::min(max, special[uni(0, 8)]);
    return uni(1, max);
  };
  auto head_dim = [&]() {
    static const int common[] = {1, 7, 8, 16, 32, 40, 59, 64, 80, 96, 111, 128, 160, 192, 255, 256};
    return coin(0.6) ? common[uni(0, 15)] : uni(1, 256);
  };

  Spec s;
  s.seed = seed;
  s.dtype = static_cast<DType>(uni(0, 2));
  s.heads_kv = uni(1, 3);
  s.heads = s.heads_kv * uni(1, 4);
  s.head_dim = head_dim();
  s.head_dim_v = coin(0.7) ? -1 : head_dim();
  if (coin(0.3)) {
    s.batch = uni(1, 4);
    for (int b = 0; b < s.batch; ++b) {
      s.lens_q.push_back(length(150, 0.15));
      s.lens_k.push_back(length(170, 0.15));
    }
  } else {
    s.batch = uni(1, 3);
    s.seqlen_q = length(200, 0.03);
    s.seqlen_k = length(200, 0.03);
  }
  s.causal = coin(0.3);
  if (coin(0.3)) {
    s.window_left = coin(0.2) ? -1 : uni(0, 100);
    s.window_right = coin(0.2) ? -1 : uni(0, 100);
  }
  if (coin(0.25)) s.softcap = real(0.5, 30.0);
  if (coin(0.35)) s.alibi = uni(1, 2);
  if (coin(0.3)) s.dropout = coin(0.1) ? real(0.9, 0.99) : real(0.01, 0.6);
  if (coin(0.2)) s.softmax_scale = real(0.02, 1.5);
  if (coin(0.1)) s.qk_std = real(2.0, 4.0);
  s.num_threads = uni(0, 3);

  // Shrink the sequences until the configuration is cheap enough.
  auto work = [&]() {
    double pairs = 0;
    if (s.varlen())
      for (int b = 0; b < s.batch; ++b) pairs += double(s.lens_q[b]) * s.lens_k[b];
    else
      pairs = double(s.batch) * s.seqlen_q * s.seqlen_k;
    return pairs * s.heads * (s.head_dim + s.dv());
  };
  while (work() > kMaxWork) {
    for (int* l : {&s.seqlen_q, &s.seqlen_k}) *l = (*l + 1) / 2;
    for (auto* lens : {&s.lens_q, &s.lens_k})
      for (int& l : *lens) l = (l + 1) / 2;
  }
  return s;
}

class Property : public ::testing::TestWithParam<int> {};

TEST_P(Property, ForwardAndBackwardMatchReference) {
  const uint64_t master = master_seed();
  const int only = int(env_u64("FLASHATTN_TEST_CASE", uint64_t(-1)));
  const int first = GetParam() * kConfigsPerShard;
  int ran = 0;
  for (int k = first; k < first + kConfigsPerShard; ++k) {
    if (only >= 0 && k != only) continue;
    const Spec spec = random_spec(mix(master ^ mix(uint64_t(k))));
    const std::string repro = "config #" + std::to_string(k) + " (reproduce: FLASHATTN_TEST_SEED=" +
                              std::to_string(master) + " FLASHATTN_TEST_CASE=" + std::to_string(k) +
                              " flashattn_tests --gtest_filter='Property/*'): " + spec.str();
    SCOPED_TRACE(repro);
    const bool fwd = check_forward(spec);
    const bool bwd = check_backward(spec);
    ++ran;
    if (!fwd || !bwd) std::cerr << "FAILED " << repro << "\n";
  }
  if (only < 0) EXPECT_EQ(ran, kConfigsPerShard);
  std::cout << "master seed " << master << ": " << ran << " configurations\n";
}

INSTANTIATE_TEST_SUITE_P(Random, Property, ::testing::Range(0, kShards),
                         [](const ::testing::TestParamInfo<int>& info) { return "shard" + std::to_string(info.param); });

}  // namespace
}  // namespace flashattn::test
