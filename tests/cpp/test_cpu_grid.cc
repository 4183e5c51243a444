// The CPU backend against the double reference over a grid of configurations: each axis (dtype,
// head_dim, seqlens, mask, ALiBi, softcap, dropout, GQA, head_dim_v, varlen) varied around a base
// configuration, plus chosen combinations, forward (out, lse) and backward (dq, dk, dv) under the
// tolerance rule of util.h. Not the cross product: the reference costs O(sq * sk * d) per head.
#include <string>
#include <vector>

#include "harness.h"

namespace flashattn::test {
namespace {

struct GridParam {
  std::string name;
  Spec spec;
};

void PrintTo(const GridParam& p, std::ostream* os) { *os << p.name << " {" << p.spec.str() << "}"; }

std::string short_name(DType t) {
  switch (t) {
    case DType::Float32: return "f32";
    case DType::Float16: return "f16";
    case DType::BFloat16: return "bf16";
  }
  return "unknown";
}

const DType kDTypes[] = {DType::Float32, DType::Float16, DType::BFloat16};

// The configuration every axis is varied around: odd, unequal seqlens spanning several blocks.
Spec base(DType dtype) {
  Spec s;
  s.dtype = dtype;
  s.batch = 2;
  s.seqlen_q = 113;
  s.seqlen_k = 203;
  s.heads = 2;
  s.heads_kv = 2;
  s.head_dim = 64;
  return s;
}

// Options applied on top of a Spec, with a readable name.
struct Opt {
  std::string name;
  void (*apply)(Spec&);
};

const std::vector<Opt>& single_options() {
  static const std::vector<Opt> opts = {
      {"causal", [](Spec& s) { s.causal = true; }},
      {"window_20_5", [](Spec& s) { s.window_left = 20, s.window_right = 5; }},
      {"window_0_0", [](Spec& s) { s.window_left = 0, s.window_right = 0; }},
      {"window_left_only_37", [](Spec& s) { s.window_left = 37; }},
      {"window_right_only_3", [](Spec& s) { s.window_right = 3; }},
      {"causal_window_left_50", [](Spec& s) { s.causal = true, s.window_left = 50; }},
      {"alibi_per_head", [](Spec& s) { s.alibi = 1; }},
      {"alibi_per_batch", [](Spec& s) { s.alibi = 2; }},
      {"softcap_5", [](Spec& s) { s.softcap = 5.0f; }},
      {"softcap_30", [](Spec& s) { s.softcap = 30.0f; }},
      {"dropout_0p17", [](Spec& s) { s.dropout = 0.17f; }},
      {"dropout_0p6", [](Spec& s) { s.dropout = 0.6f; }},
  };
  return opts;
}

const std::vector<Opt>& combined_options() {
  static const std::vector<Opt> opts = {
      {"causal_alibi", [](Spec& s) { s.causal = true, s.alibi = 2; }},
      {"causal_dropout", [](Spec& s) { s.causal = true, s.dropout = 0.25f; }},
      {"causal_softcap", [](Spec& s) { s.causal = true, s.softcap = 8.0f; }},
      {"softcap_alibi", [](Spec& s) { s.softcap = 4.0f, s.alibi = 1; }},
      {"window_softcap_alibi", [](Spec& s) { s.window_left = 40, s.window_right = 9, s.softcap = 6.0f, s.alibi = 2; }},
      {"window_dropout", [](Spec& s) { s.window_left = 17, s.window_right = 31, s.dropout = 0.3f; }},
      {"alibi_dropout", [](Spec& s) { s.alibi = 1, s.dropout = 0.1f; }},
      {"all_causal", [](Spec& s) { s.causal = true, s.softcap = 5.0f, s.alibi = 2, s.dropout = 0.2f; }},
      {"all_window", [](Spec& s) { s.window_left = 64, s.window_right = 0, s.softcap = 10.0f, s.alibi = 1, s.dropout = 0.35f; }},
      {"gqa_4_1_all", [](Spec& s) { s.heads = 4, s.heads_kv = 1, s.causal = true, s.softcap = 5.0f, s.alibi = 2, s.dropout = 0.2f; }},
      {"scale_0p3_window", [](Spec& s) { s.softmax_scale = 0.3f, s.window_left = 10, s.window_right = 70; }},
  };
  return opts;
}

std::string shape_name(int sq, int sk) { return "sq" + std::to_string(sq) + "_sk" + std::to_string(sk); }

uint64_t g_seed = 100;  // distinct data per parameter

GridParam make(const std::string& name, Spec s) {
  s.seed = g_seed++;
  return {name, s};
}

std::vector<GridParam> head_dim_params() {
  std::vector<GridParam> v;
  for (DType t : kDTypes)
    for (int d : {8, 32, 59, 64, 80, 128, 256}) {
      Spec s = base(t);
      s.head_dim = d;
      v.push_back(make(short_name(t) + "_d" + std::to_string(d), s));
    }
  return v;
}

std::vector<GridParam> seqlen_params() {
  const std::pair<int, int> shapes[] = {{1, 1}, {1, 513}, {113, 203}, {128, 128}, {203, 113}, {17, 1},
                                        {64, 65}, {97, 1025}, {1025, 97}, {0, 17}, {17, 0}};
  std::vector<GridParam> v;
  for (DType t : kDTypes)
    for (auto [sq, sk] : shapes) {
      Spec s = base(t);
      s.seqlen_q = sq;
      s.seqlen_k = sk;
      v.push_back(make(short_name(t) + "_" + shape_name(sq, sk), s));
    }
  // The same shapes under a causal mask (rows that see nothing when sq > sk).
  for (DType t : kDTypes)
    for (auto [sq, sk] : shapes) {
      Spec s = base(t);
      s.seqlen_q = sq;
      s.seqlen_k = sk;
      s.causal = true;
      v.push_back(make(short_name(t) + "_" + shape_name(sq, sk) + "_causal", s));
    }
  return v;
}

// Every option alone, with sq < sk and with sq > sk (the bottom-right alignment matters).
std::vector<GridParam> option_params() {
  std::vector<GridParam> v;
  for (DType t : kDTypes)
    for (const Opt& o : single_options())
      for (auto [sq, sk] : {std::pair{113, 203}, std::pair{203, 113}}) {
        Spec s = base(t);
        s.seqlen_q = sq;
        s.seqlen_k = sk;
        o.apply(s);
        v.push_back(make(short_name(t) + "_" + o.name + "_" + shape_name(sq, sk), s));
      }
  return v;
}

std::vector<GridParam> combination_params() {
  std::vector<GridParam> v;
  for (DType t : kDTypes)
    for (const Opt& o : combined_options())
      for (auto [sq, sk] : {std::pair{113, 203}, std::pair{150, 77}}) {
        Spec s = base(t);
        s.seqlen_q = sq;
        s.seqlen_k = sk;
        o.apply(s);
        v.push_back(make(short_name(t) + "_" + o.name + "_" + shape_name(sq, sk), s));
      }
  return v;
}

std::vector<GridParam> gqa_params() {
  struct G {
    int h, hk;
  };
  std::vector<GridParam> v;
  for (DType t : kDTypes)
    for (G g : {G{8, 1}, G{4, 2}, G{6, 3}}) {
      const std::string gn = "gqa_" + std::to_string(g.h) + "_" + std::to_string(g.hk);
      Spec s = base(t);
      s.heads = g.h;
      s.heads_kv = g.hk;
      s.seqlen_q = 77;
      s.seqlen_k = 130;
      v.push_back(make(short_name(t) + "_" + gn, s));
      Spec c = s;
      c.causal = true;
      c.dropout = 0.2f;
      c.alibi = 1;
      v.push_back(make(short_name(t) + "_" + gn + "_causal_dropout_alibi", c));
      Spec w = s;
      w.seqlen_q = 130;
      w.seqlen_k = 77;
      w.window_left = 12;
      w.window_right = 12;
      w.softcap = 7.0f;
      v.push_back(make(short_name(t) + "_" + gn + "_window_softcap_sq130_sk77", w));
    }
  return v;
}

std::vector<GridParam> head_dim_v_params() {
  const std::pair<int, int> dims[] = {{192, 128}, {128, 192}, {64, 32}, {32, 80}, {59, 7}, {256, 256}, {8, 256}};
  std::vector<GridParam> v;
  for (DType t : kDTypes)
    for (auto [d, dv] : dims) {
      Spec s = base(t);
      s.head_dim = d;
      s.head_dim_v = dv;
      s.seqlen_q = 70;
      s.seqlen_k = 97;
      v.push_back(make(short_name(t) + "_d" + std::to_string(d) + "_dv" + std::to_string(dv), s));
    }
  for (DType t : kDTypes) {
    Spec s = base(t);
    s.head_dim = 192;
    s.head_dim_v = 128;
    s.seqlen_q = 70;
    s.seqlen_k = 97;
    s.causal = true;
    s.dropout = 0.15f;
    s.softcap = 9.0f;
    s.heads = 4;
    s.heads_kv = 2;
    v.push_back(make(short_name(t) + "_d192_dv128_gqa_causal_dropout_softcap", s));
  }
  return v;
}

std::vector<GridParam> varlen_params() {
  struct L {
    const char* name;
    std::vector<int> q, k;
  };
  const L lens[] = {
      {"unequal", {5, 77, 1, 130}, {9, 66, 300, 2}},
      {"zero_q", {0, 40, 0, 65}, {30, 50, 20, 64}},
      {"zero_k", {20, 33, 7, 64}, {0, 45, 0, 1}},
      {"zero_both", {0, 19, 0, 50}, {0, 0, 31, 50}},
      {"all_k_zero", {3, 70}, {0, 0}},
      {"one_seq", {129}, {65}},
  };
  std::vector<GridParam> v;
  for (DType t : kDTypes)
    for (const L& l : lens)
      for (int variant = 0; variant < 3; ++variant) {
        Spec s = base(t);
        s.batch = int(l.q.size());
        s.lens_q = l.q;
        s.lens_k = l.k;
        std::string name = short_name(t) + "_varlen_" + l.name;
        if (variant == 1) {
          s.causal = true;
          s.dropout = 0.2f;
          s.alibi = 2;
          name += "_causal_dropout_alibi";
        } else if (variant == 2) {
          s.heads = 4;
          s.heads_kv = 1;
          s.window_left = 9;
          s.window_right = 20;
          s.softcap = 5.0f;
          s.head_dim = 80;
          s.head_dim_v = 48;
          name += "_gqa_window_softcap_dv48";
        }
        v.push_back(make(name, s));
      }
  return v;
}

// The large shapes: one sequence, few heads, a subset of options each.
std::vector<GridParam> large_params() {
  std::vector<GridParam> v;
  auto add = [&](const std::string& name, DType t, int sq, int sk, int heads, int d, void (*apply)(Spec&)) {
    Spec s = base(t);
    s.batch = 1;
    s.heads = heads;
    s.heads_kv = 1;
    s.seqlen_q = sq;
    s.seqlen_k = sk;
    s.head_dim = d;
    apply(s);
    v.push_back(make(short_name(t) + "_" + shape_name(sq, sk) + "_" + name, s));
  };
  add("plain", DType::Float32, 1000, 999, 1, 64, [](Spec&) {});
  add("causal_gqa_2_1", DType::BFloat16, 1000, 999, 2, 32, [](Spec& s) { s.causal = true; });
  add("window_dropout", DType::Float16, 1000, 999, 1, 64, [](Spec& s) { s.window_left = 300, s.window_right = 100, s.dropout = 0.1f; });
  add("causal", DType::BFloat16, 2048, 2048, 1, 64, [](Spec& s) { s.causal = true; });
  add("alibi_softcap_dropout", DType::Float32, 2048, 2048, 1, 32, [](Spec& s) { s.alibi = 1, s.softcap = 20.0f, s.dropout = 0.1f; });
  add("plain", DType::Float16, 2048, 2048, 1, 32, [](Spec&) {});
  add("causal_softcap_d128", DType::Float32, 1000, 999, 2, 128, [](Spec& s) { s.heads_kv = 2, s.causal = true, s.softcap = 15.0f; });
  add("alibi_per_batch_d256", DType::BFloat16, 1000, 999, 1, 256, [](Spec& s) { s.alibi = 2; });
  add("gqa_2_1_window_alibi_dropout_d128", DType::BFloat16, 2048, 2048, 2, 128,
      [](Spec& s) { s.window_left = 256, s.window_right = 64, s.alibi = 1, s.dropout = 0.15f; });
  add("causal_dropout_softcap_d80", DType::Float16, 2048, 2048, 1, 80,
      [](Spec& s) { s.causal = true, s.dropout = 0.25f, s.softcap = 12.0f; });
  return v;
}

class Grid : public ::testing::TestWithParam<GridParam> {};

TEST_P(Grid, Forward) { check_forward(GetParam().spec); }
TEST_P(Grid, Backward) { check_backward(GetParam().spec); }

std::string param_name(const ::testing::TestParamInfo<GridParam>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(HeadDim, Grid, ::testing::ValuesIn(head_dim_params()), param_name);
INSTANTIATE_TEST_SUITE_P(Seqlen, Grid, ::testing::ValuesIn(seqlen_params()), param_name);
INSTANTIATE_TEST_SUITE_P(Option, Grid, ::testing::ValuesIn(option_params()), param_name);
INSTANTIATE_TEST_SUITE_P(Combination, Grid, ::testing::ValuesIn(combination_params()), param_name);
INSTANTIATE_TEST_SUITE_P(Gqa, Grid, ::testing::ValuesIn(gqa_params()), param_name);
INSTANTIATE_TEST_SUITE_P(HeadDimV, Grid, ::testing::ValuesIn(head_dim_v_params()), param_name);
INSTANTIATE_TEST_SUITE_P(Varlen, Grid, ::testing::ValuesIn(varlen_params()), param_name);
INSTANTIATE_TEST_SUITE_P(Large, Grid, ::testing::ValuesIn(large_params()), param_name);

}  // namespace
}  // namespace flashattn::test
