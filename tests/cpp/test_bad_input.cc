// Bad input: one test per rule of src/dispatch/validate.cc. Each breaks one thing in a valid
// problem and checks, for validate(), forward()/backward() and is_supported(), that
// flashattn::Error is raised, argument() names the right argument, rule() has the rule's words,
// and that no buffer was touched: outputs still hold their poison byte for byte, inputs unchanged.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "harness.h"

namespace flashattn::test {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A small valid problem: fp16, GQA 4:2, head_dim 16, head_dim_v 8, ALiBi per head.
Spec valid_spec(bool varlen, DType dtype = DType::Float16) {
  Spec s;
  s.dtype = dtype;
  s.batch = 2;
  s.seqlen_q = 5;
  s.seqlen_k = 7;
  s.heads = 4;
  s.heads_kv = 2;
  s.head_dim = 16;
  s.head_dim_v = 8;
  s.alibi = 1;
  s.dropout = 0.1f;
  if (varlen) {
    s.lens_q = {2, 3};
    s.lens_k = {4, 3};
  }
  return s;
}

struct Fixture {
  Case c;
  std::vector<uint8_t> q, k, v, dout, alibi;  // input bytes before the call
  std::vector<int32_t> cu_q, cu_k;

  explicit Fixture(bool varlen = false, DType dtype = DType::Float16) : c(valid_spec(varlen, dtype)) {}
  explicit Fixture(const Spec& spec) : c(spec) {}

  ForwardArgs fwd() const { return c.forward_args(); }
  BackwardArgs bwd() const { return c.backward_args(); }
  Context ctx() const {
    Context x;
    x.backend = Backend::Cpu;
    return x;
  }

  void snapshot() {
    for (HostTensor* t : {&c.out, &c.lse, &c.dq, &c.dk, &c.dv}) t->poison();
    q = c.q.bytes, k = c.k.bytes, v = c.v.bytes, dout = c.dout.bytes, alibi = c.alibi.bytes;
    cu_q = c.cu_q, cu_k = c.cu_k;
  }
  void expect_untouched() const {
    EXPECT_TRUE(c.out.all_poisoned()) << "out was written";
    EXPECT_TRUE(c.lse.all_poisoned()) << "softmax_lse was written";
    EXPECT_TRUE(c.dq.all_poisoned()) << "dq was written";
    EXPECT_TRUE(c.dk.all_poisoned()) << "dk was written";
    EXPECT_TRUE(c.dv.all_poisoned()) << "dv was written";
    EXPECT_TRUE(q == c.q.bytes) << "q was written";
    EXPECT_TRUE(k == c.k.bytes) << "k was written";
    EXPECT_TRUE(v == c.v.bytes) << "v was written";
    EXPECT_TRUE(dout == c.dout.bytes) << "dout was written";
    EXPECT_TRUE(alibi == c.alibi.bytes) << "alibi_slopes was written";
    EXPECT_EQ(cu_q, c.cu_q);
    EXPECT_EQ(cu_k, c.cu_k);
  }
};

void run(const ForwardArgs& a, const Context& x) { flashattn::forward(a, x); }
void run(const BackwardArgs& a, const Context& x) { flashattn::backward(a, x); }

// The three entry points reject `a` with Error(argument, rule containing every word).
template <typename Args>
void expect_rejected(Fixture& f, const Args& a, const Context& x, const std::string& argument,
                     std::initializer_list<const char*> words, const std::string& what = "") {
  SCOPED_TRACE(std::string(std::is_same_v<Args, ForwardArgs> ? "forward" : "backward") + ": " + what);
  f.snapshot();
  for (int call = 0; call < 2; ++call) {
    const char* entry = call == 0 ? "validate" : "run";
    try {
      if (call == 0) flashattn::validate(a, x);
      else run(a, x);
      ADD_FAILURE() << entry << " accepted the arguments; expected an error about '" << argument << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.argument(), argument) << entry << ": " << e.what();
      for (const char* w : words) EXPECT_NE(e.rule().find(w), std::string::npos) << entry << ": '" << w << "' not in: " << e.what();
      EXPECT_NE(std::string(e.what()).find("'" + argument + "'"), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << entry << " threw something other than flashattn::Error: " << e.what();
    }
  }
  const Support s = flashattn::is_supported(a, x);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("'" + argument + "'"), std::string::npos) << s.reason;
  f.expect_untouched();
}

// Both passes, for rules shared by forward and backward.
template <typename Break>
void expect_rejected_both(bool varlen, Break brk, const std::string& argument, std::initializer_list<const char*> words,
                          const std::string& what = "") {
  {
    Fixture f(varlen);
    ForwardArgs a = f.fwd();
    Context x = f.ctx();
    brk(a.q, a.k, a.v, a.out, a.options, a.varlen, x);
    expect_rejected(f, a, x, argument, words, what);
  }
  {
    Fixture f(varlen);
    BackwardArgs a = f.bwd();
    Context x = f.ctx();
    brk(a.q, a.k, a.v, a.out, a.options, a.varlen, x);
    expect_rejected(f, a, x, argument, words, what);
  }
}

#define BREAK [&](TensorView & q, TensorView & k, TensorView & v, TensorView & out, Options & o, Varlen & vl, Context & x)
#define UNUSED_BREAK_ARGS (void)q, (void)k, (void)v, (void)out, (void)o, (void)vl, (void)x

// --- The valid problem is accepted and written: the checks above could see a write. ---

TEST(BadInput, ValidProblemIsAcceptedAndWritten) {
  for (bool varlen : {false, true}) {
    Fixture f(varlen);
    f.snapshot();
    EXPECT_NO_THROW(flashattn::validate(f.fwd(), f.ctx()));
    EXPECT_NO_THROW(flashattn::validate(f.bwd(), f.ctx()));
    EXPECT_TRUE(flashattn::is_supported(f.fwd(), f.ctx()).supported);
    EXPECT_TRUE(flashattn::is_supported(f.bwd(), f.ctx()).supported);
    f.expect_untouched();  // validate() writes nothing
    flashattn::forward(f.fwd(), f.ctx());
    flashattn::backward(f.bwd(), f.ctx());
    EXPECT_FALSE(f.c.out.all_poisoned());
    EXPECT_FALSE(f.c.dq.all_poisoned());
    EXPECT_EQ(f.c.out.nan_count(), 0);
    EXPECT_EQ(f.c.dq.nan_count(), 0);
  }
}

// Outputs right next to (not over) their inputs are fine: the overlap check has no false alarm.
TEST(BadInput, AdjacentBuffersAreNotOverlaps) {
  Fixture f;
  const Spec& s = f.c.spec;
  const int64_t n = int64_t(s.batch) * s.seqlen_q * s.heads * s.head_dim;
  HostTensor both(s.dtype, {2 * n});  // q in the first half, dq right after it
  for (int64_t e = 0; e < n; ++e) both.set(e, f.c.q.get(e));
  BackwardArgs b = f.bwd();
  b.q.data = both.view.data;
  b.dq.data = static_cast<uint8_t*>(both.view.data) + n * int64_t(dtype_size(s.dtype));
  EXPECT_NO_THROW(flashattn::validate(b, f.ctx()));
}

// --- Context ---

TEST(BadInput, NumThreadsNegative) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; x.num_threads = -1; }, "context.num_threads", {"must be >= 0"});
}

TEST(BadInput, BackendNotAnEnumerator) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; x.backend = static_cast<Backend>(7); }, "context.backend",
                       {"must be Auto, Cpu or Cuda"});
}

TEST(BadInput, CudaBackendNotAvailable) {
  if (backend_available(Backend::Cuda)) GTEST_SKIP() << "a CUDA device is present: the 'not available' rule cannot fire";
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; x.backend = Backend::Cuda; }, "context.backend", {"not available"});
}

// float32 on CUDA: the dtype rule where a CUDA device is present, otherwise availability fires first.
TEST(BadInput, Float32OnCuda) {
  const bool cuda = backend_available(Backend::Cuda);
  for (bool backward : {false, true}) {
    Fixture f(false, DType::Float32);
    Context x = f.ctx();
    x.backend = Backend::Cuda;
    const std::string arg = cuda ? "q" : "context.backend";
    if (backward) expect_rejected(f, f.bwd(), x, arg, {cuda ? "CPU backend only" : "not available"});
    else expect_rejected(f, f.fwd(), x, arg, {cuda ? "CPU backend only" : "not available"});
  }
}

// --- Tensors: defined, rank, shape ---

TEST(BadInput, NullTensor) {
  for (const char* name : {"q", "k", "v", "out"})
    expect_rejected_both(
        false,
        BREAK {
          UNUSED_BREAK_ARGS;
          TensorView* t = std::string(name) == "q" ? &q : std::string(name) == "k" ? &k : std::string(name) == "v" ? &v : &out;
          t->data = nullptr;
        },
        name, {"must not be null"}, name);
  for (const char* name : {"softmax_lse", "dout", "dq", "dk", "dv"}) {
    Fixture f;
    BackwardArgs b = f.bwd();
    TensorView* t = std::string(name) == "softmax_lse" ? &b.softmax_lse
                    : std::string(name) == "dout"      ? &b.dout
                    : std::string(name) == "dq"        ? &b.dq
                    : std::string(name) == "dk"        ? &b.dk
                                                       : &b.dv;
    t->data = nullptr;
    expect_rejected(f, b, f.ctx(), name, {"must not be null"}, name);
  }
}

TEST(BadInput, RankOutsideOneToFour) {
  for (int rank : {0, 5})
    for (const char* name : {"q", "k", "v", "out"})
      expect_rejected_both(
          false,
          BREAK {
            UNUSED_BREAK_ARGS;
            TensorView* t = std::string(name) == "q" ? &q : std::string(name) == "k" ? &k : std::string(name) == "v" ? &v : &out;
            t->rank = rank;
          },
          name, {"rank must be between 1 and 4"}, name + std::string(" rank ") + std::to_string(rank));
  Fixture f;
  ForwardArgs a = f.fwd();
  a.softmax_lse.rank = 0;
  expect_rejected(f, a, f.ctx(), "softmax_lse", {"rank must be between 1 and 4"});
  Fixture g;
  BackwardArgs b = g.bwd();
  b.dk.rank = 5;
  expect_rejected(g, b, g.ctx(), "dk", {"rank must be between 1 and 4"});
}

TEST(BadInput, NegativeShape) {
  for (const char* name : {"q", "k", "v", "out"})
    expect_rejected_both(
        false,
        BREAK {
          UNUSED_BREAK_ARGS;
          TensorView* t = std::string(name) == "q" ? &q : std::string(name) == "k" ? &k : std::string(name) == "v" ? &v : &out;
          t->shape[1] = -3;
        },
        name, {"must not be negative"}, name);
  Fixture f;
  BackwardArgs b = f.bwd();
  b.dout.shape[0] = -1;
  expect_rejected(f, b, f.ctx(), "dout", {"must not be negative"});
}

TEST(BadInput, QDtypeNotSupported) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; q.dtype = static_cast<DType>(9); }, "q",
                       {"dtype must be float32, float16 or bfloat16"});
}

TEST(BadInput, DtypeMismatch) {
  for (const char* name : {"k", "v", "out"})
    expect_rejected_both(
        false,
        BREAK {
          UNUSED_BREAK_ARGS;
          TensorView* t = std::string(name) == "k" ? &k : std::string(name) == "v" ? &v : &out;
          t->dtype = DType::BFloat16;
        },
        name, {"dtype must be float16 like q", "bfloat16"}, name);
  for (const char* name : {"dout", "dq", "dk", "dv"}) {
    Fixture f;
    BackwardArgs b = f.bwd();
    TensorView* t = std::string(name) == "dout" ? &b.dout : std::string(name) == "dq" ? &b.dq : std::string(name) == "dk" ? &b.dk : &b.dv;
    t->dtype = DType::Float32;
    expect_rejected(f, b, f.ctx(), name, {"dtype must be float16 like q"}, name);
  }
}

TEST(BadInput, WrongRankForLayout) {
  // Padded calls take rank 4, varlen calls rank 3.
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; k.rank = 3; }, "k", {"must have rank 4"});
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; out.rank = 2; }, "out", {"must have rank 4"});
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; q.rank = 4, q.shape[3] = 1; }, "q", {"must have rank 3", "varlen"});
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; v.rank = 2; }, "v", {"must have rank 3"});
}

TEST(BadInput, LastDimensionNotContiguous) {
  for (const char* name : {"q", "k", "v", "out"})
    expect_rejected_both(
        false,
        BREAK {
          UNUSED_BREAK_ARGS;
          TensorView* t = std::string(name) == "q" ? &q : std::string(name) == "k" ? &k : std::string(name) == "v" ? &v : &out;
          t->stride[3] = 2;
        },
        name, {"last dimension must be contiguous"}, name);
  {
    Fixture f;
    ForwardArgs a = f.fwd();
    a.softmax_lse.stride[2] = 2;
    expect_rejected(f, a, f.ctx(), "softmax_lse", {"last dimension must be contiguous"});
  }
  for (const char* name : {"dout", "dq", "dk", "dv"}) {
    Fixture f;
    BackwardArgs b = f.bwd();
    TensorView* t = std::string(name) == "dout" ? &b.dout : std::string(name) == "dq" ? &b.dq : std::string(name) == "dk" ? &b.dk : &b.dv;
    t->stride[3] = 3;
    expect_rejected(f, b, f.ctx(), name, {"last dimension must be contiguous"}, name);
  }
}

TEST(BadInput, HeadDimZero) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; q.shape[3] = 0; }, "q", {"head_dim must be between 1 and 256", "got 0"});
}

TEST(BadInput, HeadDimAbove256) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; q.shape[3] = 257; }, "q", {"head_dim must be between 1 and 256", "257"});
}

TEST(BadInput, HeadDimVOutOfRange) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; v.shape[3] = 0; }, "v", {"head_dim must be between 1 and 256"});
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; v.shape[3] = 300; }, "v", {"head_dim must be between 1 and 256", "300"});
}

TEST(BadInput, NoHeads) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; q.shape[2] = 0; }, "q", {"at least one head"});
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; k.shape[2] = 0; }, "k", {"at least one head"});
}

TEST(BadInput, HeadsNotDivisibleByKvHeads) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; k.shape[2] = 3; }, "k", {"num_heads (4) must be divisible by num_heads_kv (3)"});
}

TEST(BadInput, KShapeMismatch) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; k.shape[0] = 1; }, "k", {"shape must be (2, 7, 2, 16)", "got (1, 7, 2, 16)"});
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; k.shape[3] = 12; }, "k", {"shape must be"}, "head_dim differs from q");
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; k.shape[2] = 1, k.shape[3] = 15; }, "k", {"shape must be"}, "varlen");
}

TEST(BadInput, VShapeMismatch) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; v.shape[1] = 6; }, "v", {"shape must be (2, 7, 2, 8)"}, "seqlen differs from k");
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; v.shape[2] = 4; }, "v", {"shape must be"}, "heads differ from k");
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; v.shape[0] = 6; }, "v", {"shape must be (7, 2, 8)"}, "varlen tokens");
}

TEST(BadInput, OutShapeMismatch) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; out.shape[3] = 16; }, "out", {"shape must be (2, 5, 4, 8)"}, "head_dim_v");
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; out.shape[1] = 4; }, "out", {"shape must be"}, "seqlen");
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; out.shape[0] = 4; }, "out", {"shape must be (5, 4, 8)"}, "varlen");
}

TEST(BadInput, LseShapeMismatch) {
  {
    Fixture f;
    ForwardArgs a = f.fwd();
    a.softmax_lse.shape[2] = 4;
    expect_rejected(f, a, f.ctx(), "softmax_lse", {"shape must be (2, 4, 5)"});
  }
  {
    Fixture f;
    BackwardArgs b = f.bwd();
    b.softmax_lse.shape[1] = 2;
    expect_rejected(f, b, f.ctx(), "softmax_lse", {"shape must be (2, 4, 5)"});
  }
  {
    Fixture f(true);  // varlen: (num_heads, total_q)
    ForwardArgs a = f.fwd();
    a.softmax_lse = TensorView::contiguous(a.softmax_lse.data, DType::Float32, {5, 4});
    expect_rejected(f, a, f.ctx(), "softmax_lse", {"shape must be (4, 5)"});
  }
}

TEST(BadInput, LseDtypeNotFloat32) {
  Fixture f;
  ForwardArgs a = f.fwd();
  a.softmax_lse.dtype = DType::Float16;
  expect_rejected(f, a, f.ctx(), "softmax_lse", {"dtype must be float32"});
  Fixture g;
  BackwardArgs b = g.bwd();
  b.softmax_lse.dtype = DType::BFloat16;
  expect_rejected(g, b, g.ctx(), "softmax_lse", {"dtype must be float32"});
}

TEST(BadInput, GradientShapeMismatch) {
  for (const char* name : {"dout", "dq", "dk", "dv"})
    for (int dim : {0, 3}) {
      Fixture f;
      BackwardArgs b = f.bwd();
      TensorView* t = std::string(name) == "dout" ? &b.dout : std::string(name) == "dq" ? &b.dq : std::string(name) == "dk" ? &b.dk : &b.dv;
      t->shape[dim] -= 1;
      const std::string like = std::string(name) == "dout" ? "out" : std::string(name).substr(1);
      expect_rejected(f, b, f.ctx(), name, {("shape must equal " + like + "'s").c_str()}, name);
    }
}

// --- Varlen ---

TEST(BadInput, VarlenBatchBelowOne) {
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.batch = 0; }, "varlen.batch", {"must be at least 1"});
}

TEST(BadInput, VarlenMaxSeqlenNegative) {
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.max_seqlen_q = -1; }, "varlen.max_seqlen_q", {"must not be negative"});
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.max_seqlen_k = -2; }, "varlen.max_seqlen_k", {"must not be negative"});
}

TEST(BadInput, VarlenMaxSeqlenTooSmall) {
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.max_seqlen_q = 2; }, "varlen.max_seqlen_q",
                       {"must be at least the longest sequence", "sequence 1 has 3 tokens"});
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.max_seqlen_k = 3; }, "varlen.max_seqlen_k",
                       {"must be at least the longest sequence", "sequence 0 has 4 tokens"});
}

TEST(BadInput, CuSeqlensNull) {
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.cu_seqlens_q = nullptr; }, "cu_seqlens_q",
                       {"must not be null for a varlen call"});
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.cu_seqlens_k = nullptr; }, "cu_seqlens_k",
                       {"must not be null for a varlen call"});
}

// The cu_seqlens rules read the caller's array: each test uses its own bad copy.
TEST(BadInput, CuSeqlensNotStartingAtZero) {
  static const int32_t bad[] = {1, 2, 5};
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.cu_seqlens_q = bad; }, "cu_seqlens_q", {"must start at 0", "got 1"});
  static const int32_t bad_k[] = {-1, 4, 7};
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.cu_seqlens_k = bad_k; }, "cu_seqlens_k", {"must start at 0"});
}

TEST(BadInput, CuSeqlensDecreasing) {
  static const int32_t bad[] = {0, 6, 5};  // total 5, but entry 2 < entry 1
  expect_rejected_both(
      true, BREAK { UNUSED_BREAK_ARGS; vl.cu_seqlens_q = bad, vl.max_seqlen_q = 6; }, "cu_seqlens_q",
      {"must be non-decreasing", "entry 2 (5) < entry 1 (6)"});
  static const int32_t bad_k[] = {0, 8, 7};
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.cu_seqlens_k = bad_k, vl.max_seqlen_k = 8; }, "cu_seqlens_k",
                       {"must be non-decreasing"});
}

TEST(BadInput, CuSeqlensLastEntryNotTotal) {
  static const int32_t bad[] = {0, 2, 4};  // q has 5 tokens
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.cu_seqlens_q = bad; }, "cu_seqlens_q",
                       {"last entry (4) must equal the number of tokens (5)"});
  static const int32_t bad_k[] = {0, 4, 8};  // k has 7 tokens
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.cu_seqlens_k = bad_k, vl.max_seqlen_k = 4; }, "cu_seqlens_k",
                       {"last entry (8) must equal the number of tokens (7)"});
}

// --- Options ---

TEST(BadInput, SoftmaxScaleNotFinite) {
  for (float bad : {kInf, -kInf, kNaN})
    expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.softmax_scale = bad; }, "softmax_scale", {"must be finite"},
                         std::to_string(bad));
}

TEST(BadInput, WindowBelowMinusOne) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.window_left = -2; }, "window_left", {"must be >= -1", "got -2"});
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.window_right = -5; }, "window_right", {"must be >= -1", "got -5"});
}

TEST(BadInput, DropoutOutsideZeroToOne) {
  for (float bad : {-0.1f, -kInf, 1.0f, 1.5f, kInf, kNaN})
    expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.dropout_p = bad; }, "dropout_p", {"must be in [0, 1)"},
                         std::to_string(bad));
}

TEST(BadInput, SoftcapNegativeOrNotFinite) {
  for (float bad : {-1.0f, -1e-30f, kInf, kNaN})
    expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.softcap = bad; }, "softcap", {"must be >= 0 and finite"},
                         std::to_string(bad));
}

// A positive softcap below the smallest normal float: 1 / softcap overflowed, and a zero score
// became NaN (0 * inf) on every backend.
TEST(BadInput, SoftcapSubnormal) {
  for (float bad : {1e-40f, 1e-45f, 1.1e-38f})
    expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.softcap = bad; }, "softcap",
                         {"must be 0 (off) or at least 1.17549435e-38", "e-"}, std::to_string(bad));
}

// Above 2^100: the GPU kernels' scale / softcap times an ordinary dot fell below the smallest
// normal float and was flushed to zero (every score 0), while the CPU kept it.
TEST(BadInput, SoftcapAbove2To100) {
  for (float bad : {1.3e30f, 1e35f, 3e38f, 3.4028235e38f})
    expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.softcap = bad; }, "softcap",
                         {"must be at most 1.2676506e+30", "e+"}, std::to_string(bad));
}

TEST(BadInput, AlibiNotFloat32) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.alibi_slopes.dtype = DType::Float16; }, "alibi_slopes",
                       {"dtype must be float32"});
}

TEST(BadInput, AlibiWrongShape) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.alibi_slopes.shape[0] = 3; }, "alibi_slopes",
                       {"shape must be (num_heads) = (4) or (batch, num_heads) = (2, 4)", "got (3)"});
  // (batch, num_heads) with the wrong batch, and a rank-3 view.
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.alibi_slopes = TensorView::contiguous(o.alibi_slopes.data, DType::Float32, {1, 4}); },
                       "alibi_slopes", {"shape must be"}, "(1, 4)");
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.alibi_slopes = TensorView::contiguous(o.alibi_slopes.data, DType::Float32, {1, 1, 4}); },
                       "alibi_slopes", {"shape must be"}, "(1, 1, 4)");
}

TEST(BadInput, AlibiNotContiguous) {
  expect_rejected_both(false, BREAK { UNUSED_BREAK_ARGS; o.alibi_slopes.stride[0] = 2; }, "alibi_slopes",
                       {"last dimension must be contiguous"});
}

// ALiBi distances must be exact in float (semantics::ScoreMod::alibi_bias): a varlen batch whose
// declared longest key sequence passes 2^24 is rejected before anything runs.
TEST(BadInput, AlibiSeqlenPast2To24) {
  expect_rejected_both(true, BREAK { UNUSED_BREAK_ARGS; vl.max_seqlen_k = (1 << 24) + 1; }, "alibi_slopes",
                       {"ALiBi needs seqlen_q and seqlen_k <= 16777216", "got"});
}

// --- Aliasing ---

TEST(BadInput, ForwardOutputOverlapsInput) {
  for (const char* in : {"q", "k", "v", "alibi_slopes"})
    for (const char* outname : {"out", "softmax_lse"}) {
      Fixture f;
      ForwardArgs a = f.fwd();
      const TensorView& src = std::string(in) == "q" ? a.q : std::string(in) == "k" ? a.k : std::string(in) == "v" ? a.v : a.options.alibi_slopes;
      TensorView& dst = std::string(outname) == "out" ? a.out : a.softmax_lse;
      dst.data = src.data;  // fully or partly over the input
      expect_rejected(f, a, f.ctx(), outname, {(std::string("must not overlap ") + in).c_str()}, std::string(outname) + " over " + in);
    }
  // A partial overlap: out starts on the last element of v. Both live in one buffer, so that a
  // validation that missed it would write inside the test's memory, where the check sees it.
  Fixture f;
  ForwardArgs a = f.fwd();
  const int64_t nv = a.v.numel(), es = int64_t(dtype_size(a.v.dtype));
  HostTensor both(a.v.dtype, {nv + a.out.numel()});
  for (int64_t e = 0; e < nv; ++e) both.set(e, f.c.v.get(e));
  const std::vector<uint8_t> before = both.bytes;
  a.v.data = both.view.data;
  a.out.data = static_cast<uint8_t*>(both.view.data) + (nv - 1) * es;
  expect_rejected(f, a, f.ctx(), "out", {"must not overlap v"}, "out on v's last element");
  EXPECT_TRUE(both.bytes == before) << "v/out buffer was written";
}

TEST(BadInput, LseOverlapsOut) {
  Fixture f;
  ForwardArgs a = f.fwd();
  a.softmax_lse.data = a.out.data;
  expect_rejected(f, a, f.ctx(), "softmax_lse", {"must not overlap out"});
}

TEST(BadInput, GradientOverlapsInput) {
  for (const char* g : {"dq", "dk", "dv"})
    for (const char* in : {"q", "k", "v", "out", "dout", "softmax_lse", "alibi_slopes"}) {
      Fixture f;
      BackwardArgs b = f.bwd();
      const std::string n = in;
      const TensorView& src = n == "q" ? b.q : n == "k" ? b.k : n == "v" ? b.v : n == "out" ? b.out : n == "dout" ? b.dout
                              : n == "softmax_lse" ? b.softmax_lse : b.options.alibi_slopes;
      TensorView& dst = std::string(g) == "dq" ? b.dq : std::string(g) == "dk" ? b.dk : b.dv;
      dst.data = src.data;
      expect_rejected(f, b, f.ctx(), g, {("must not overlap " + n).c_str()}, std::string(g) + " over " + in);
    }
}

TEST(BadInput, GradientsOverlapEachOther) {
  const struct {
    const char *a, *b;
  } pairs[] = {{"dk", "dq"}, {"dv", "dq"}, {"dv", "dk"}};
  for (auto pr : pairs) {
    Fixture f;
    BackwardArgs b = f.bwd();
    auto view = [&](const std::string& n) -> TensorView& { return n == "dq" ? b.dq : n == "dk" ? b.dk : b.dv; };
    view(pr.a).data = view(pr.b).data;
    expect_rejected(f, b, f.ctx(), pr.a, {(std::string("must not overlap ") + pr.b).c_str()}, std::string(pr.a) + " over " + pr.b);
  }
}

// A dense packed buffer (rows, parts, heads, dim) and its interleaved views shaped like `like`
// ((batch, seqlen, heads, dim) or (total, heads, dim)): part(i) is buf[:, i], as dqkv[:, :, i].
struct Packed {
  HostTensor buf;
  TensorView like;
  int parts;
  int64_t row;  // heads * dim: elements of one part in one row
  Packed(const TensorView& l, int p) : like(l), parts(p), row(l.shape[l.rank - 2] * l.shape[l.rank - 1]) {
    buf.init(l.dtype, {l.numel() / row, parts, l.shape[l.rank - 2], l.shape[l.rank - 1]});
  }
  TensorView part(int i, int64_t shift = 0) const {  // shift: extra elements, for broken views
    TensorView t = like;
    t.data = static_cast<uint8_t*>(buf.view.data) + (i * row + shift) * int64_t(dtype_size(like.dtype));
    int64_t stride = row * parts;  // dense over the leading dimensions, with parts * row per row
    t.stride[t.rank - 1] = 1;
    t.stride[t.rank - 2] = like.shape[like.rank - 1];
    for (int d = t.rank - 3; d >= 0; --d) {
      t.stride[d] = stride;
      stride *= t.shape[d];
    }
    return t;
  }
  // Element e (dense order of `like`) of part i.
  int64_t index(int i, int64_t e) const { return (e / row * parts + i) * row + e % row; }
  void fill_part(int i, const HostTensor& from) {
    for (int64_t e = 0; e < from.numel(); ++e) buf.set(index(i, e), from.get(e));
  }
  bool part_equals(int i, const HostTensor& want) const {
    for (int64_t e = 0; e < want.numel(); ++e)
      if (!(buf.get(index(i, e)) == want.get(e))) return false;  // NaN (poison) never equal
    return true;
  }
};

// The packed variants' gradients: dq, dk, dv (qkv-packed) or dk, dv (kv-packed) as interleaved
// views of one buffer, over packed inputs. Their address ranges overlap but their elements do not,
// so validation accepts them, and the CPU backend writes every element of the packed gradient with
// exactly the values it writes into separate buffers (deterministic mode: bitwise the same).
TEST(BadInput, InterleavedPackedGradientsAreAccepted) {
  for (bool varlen : {false, true})
    for (DType dtype : {DType::Float32, DType::Float16})
      for (int parts : {3, 2}) {
        Spec s;
        s.dtype = dtype;
        s.batch = 2;
        s.seqlen_q = parts == 3 ? 9 : 6;
        s.seqlen_k = 9;
        s.heads = parts == 3 ? 3 : 4;  // kv-packed with GQA 4:2
        s.heads_kv = parts == 3 ? 3 : 2;
        s.head_dim = s.head_dim_v = 20;
        s.causal = true;
        s.dropout = 0.1f;
        s.deterministic = true;
        if (varlen) {
          s.lens_q = parts == 3 ? std::vector<int>{4, 5} : std::vector<int>{2, 5};
          s.lens_k = {4, 5};
        }
        SCOPED_TRACE((parts == 3 ? "qkv-packed " : "kv-packed ") + s.str());
        Case c(s);
        c.run_forward();
        c.run_backward();  // separate dq, dk, dv: the expected gradients

        Packed in(c.k.view, parts), grad(c.k.view, parts);
        BackwardArgs b = c.backward_args();
        const int first_kv = parts == 3 ? 1 : 0;  // index of k in the packed tensor
        if (parts == 3) in.fill_part(0, c.q);
        in.fill_part(first_kv, c.k);
        in.fill_part(first_kv + 1, c.v);
        if (parts == 3) b.q = in.part(0);
        b.k = in.part(first_kv);
        b.v = in.part(first_kv + 1);
        HostTensor dq(s.dtype, std::vector<int64_t>(c.q.view.shape, c.q.view.shape + c.q.view.rank));
        b.dq = parts == 3 ? grad.part(0) : dq.view;
        b.dk = grad.part(first_kv);
        b.dv = grad.part(first_kv + 1);

        EXPECT_NO_THROW(flashattn::validate(b, c.context()));
        const Support sup = flashattn::is_supported(b, c.context());
        EXPECT_TRUE(sup.supported) << sup.reason;
        ASSERT_NO_THROW(flashattn::backward(b, c.context()));
        if (parts == 3) EXPECT_TRUE(grad.part_equals(0, c.dq)) << "dq differs from the separate buffer's";
        else EXPECT_TRUE(dq.same_bits(c.dq)) << "dq differs from the separate buffer's";
        EXPECT_TRUE(grad.part_equals(first_kv, c.dk)) << "dk differs from the separate buffer's";
        EXPECT_TRUE(grad.part_equals(first_kv + 1, c.dv)) << "dv differs from the separate buffer's";
        EXPECT_TRUE(grad.buf.guards_intact()) << "the packed gradient was written outside its bounds";
      }
}

// Views of one packed buffer with the same layout that do share elements stay rejected, nothing
// written: the same view twice, one row or one batch apart, half a head_dim apart, a byte apart
// (not a whole element: the byte-range rule decides). Views of different strides keep the
// byte-range rule even where their elements would be disjoint.
TEST(BadInput, PackedGradientViewsThatShareElementsAreRejected) {
  Spec s;
  s.dtype = DType::Float16;
  s.batch = 2;
  s.seqlen_q = s.seqlen_k = 5;
  s.heads = s.heads_kv = 2;
  s.head_dim = s.head_dim_v = 16;
  const int64_t row = 3 * s.heads * s.head_dim;  // the packed row stride, in elements
  const struct {
    const char* what;
    int part_dk;
    int64_t shift;  // dk's extra offset in elements; -1: one byte
  } cases[] = {
      {"dk on dq", 0, 0},
      {"dk one row after dq", 0, row},
      {"dk one batch after dq", 0, row * s.seqlen_q},
      {"dk half a head_dim into dq", 0, s.head_dim / 2},
      {"dk one head after dq", 0, s.head_dim},
      {"dk one byte into dq", 0, -1},
  };
  for (const auto& cs : cases) {
    Fixture f(s);
    Packed grad(f.c.dq.view, 3);
    BackwardArgs b = f.bwd();
    b.dq = grad.part(0);
    b.dk = grad.part(cs.part_dk, cs.shift < 0 ? 0 : cs.shift);
    if (cs.shift < 0) b.dk.data = static_cast<uint8_t*>(b.dk.data) + 1;
    b.dv = grad.part(2);
    expect_rejected(f, b, f.ctx(), "dk", {"must not overlap dq"}, cs.what);
    EXPECT_TRUE(grad.buf.all_poisoned()) << cs.what << ": the packed gradient was written";
  }
  {  // dv on every other packed row: its elements are disjoint from dq's, its strides are not dq's
    Fixture f(s);
    Packed grad(f.c.dq.view, 3);
    BackwardArgs b = f.bwd();
    b.dq = grad.part(0);
    b.dk = grad.part(1);
    b.dv = grad.part(2);
    b.dv.stride[1] = 2 * row;
    b.dv.stride[0] = s.seqlen_k * b.dv.stride[1];  // ends inside the buffer's guard band: never written
    expect_rejected(f, b, f.ctx(), "dv", {"must not overlap dq"}, "dv with its own strides over dq's range");
    EXPECT_TRUE(grad.buf.all_poisoned()) << "the packed gradient was written";
  }
}

// The same-layout rule is exact: for random non-self-overlapping layouts of dq and dk and random
// offsets between them, validation accepts iff the two element sets are disjoint (brute force).
TEST(BadInput, SameLayoutOverlapRuleIsExact) {
  Spec s;
  s.batch = 2;
  s.seqlen_q = s.seqlen_k = 3;
  s.heads = s.heads_kv = 2;
  s.head_dim = s.head_dim_v = 3;
  Fixture f(s);
  const int64_t shape[4] = {2, 3, 2, 3};
  HostTensor grads(DType::Float32, {4096});  // dq and dk live here; validate() writes nothing
  std::mt19937_64 rng(7);
  int interleaved = 0, rejected = 0;  // accepted with overlapping byte ranges; rejected
  for (int trial = 0; trial < 3000; ++trial) {
    // Random order of dimensions 0..2 above the contiguous last one; each stride exceeds the
    // extent of the smaller ones by 0..7 elements.
    int order[3] = {0, 1, 2};
    std::shuffle(order, order + 3, rng);
    int64_t stride[4] = {0, 0, 0, 1};
    int64_t extent = shape[3] - 1;
    for (int i = 0; i < 3; ++i) {
      stride[order[i]] = extent + 1 + int64_t(rng() % 8);
      extent += (shape[order[i]] - 1) * stride[order[i]];
    }
    const int64_t delta = int64_t(rng() % uint64_t(2 * extent + 3)) - (extent + 1);
    std::set<int64_t> elems;
    for (int64_t i0 = 0; i0 < shape[0]; ++i0)
      for (int64_t i1 = 0; i1 < shape[1]; ++i1)
        for (int64_t i2 = 0; i2 < shape[2]; ++i2)
          for (int64_t i3 = 0; i3 < shape[3]; ++i3) elems.insert(i0 * stride[0] + i1 * stride[1] + i2 * stride[2] + i3);
    bool disjoint = true;
    for (int64_t e : elems) disjoint = disjoint && elems.count(e + delta) == 0;
    BackwardArgs b = f.bwd();
    float* base = static_cast<float*>(grads.view.data) + 2048;
    b.dq = TensorView::strided(base, DType::Float32, {2, 3, 2, 3}, {stride[0], stride[1], stride[2], stride[3]});
    b.dk = TensorView::strided(base + delta, DType::Float32, {2, 3, 2, 3}, {stride[0], stride[1], stride[2], stride[3]});
    bool ok = true;
    try {
      flashattn::validate(b, f.ctx());
    } catch (const Error& e) {
      ok = false;
      EXPECT_EQ(e.argument(), "dk") << e.what();
    }
    EXPECT_EQ(ok, disjoint) << "strides (" << stride[0] << ", " << stride[1] << ", " << stride[2] << ", 1), delta " << delta;
    interleaved += ok && std::llabs(delta) <= extent;
    rejected += !ok;
  }
  EXPECT_GT(interleaved, 200);  // both answers were exercised, not only the byte-range one
  EXPECT_GT(rejected, 200);
}

TEST(BadInput, OutputOverlapsItself) {
  // Head stride 0: every head would be written to the same memory by racing threads.
  {
    Fixture f;
    ForwardArgs a = f.fwd();
    a.out.stride[2] = 0;
    expect_rejected(f, a, f.ctx(), "out", {"must not overlap itself"}, "out with head stride 0");
  }
  {
    Fixture f;
    ForwardArgs a = f.fwd();
    a.softmax_lse.stride[1] = 1;  // heads one element apart along a seqlen-long row
    expect_rejected(f, a, f.ctx(), "softmax_lse", {"must not overlap itself"}, "lse with head stride 1");
  }
  for (const char* g : {"dq", "dk", "dv"}) {
    Fixture f;
    BackwardArgs b = f.bwd();
    TensorView& t = std::string(g) == "dq" ? b.dq : std::string(g) == "dk" ? b.dk : b.dv;
    t.stride[1] = t.stride[2];  // rows collide with heads
    expect_rejected(f, b, f.ctx(), g, {"must not overlap itself"}, std::string(g) + " rows over heads");
  }
}

TEST(BadInput, OutputOverlapsCuSeqlens) {
  Fixture f(/*varlen=*/true);
  ForwardArgs a = f.fwd();
  a.softmax_lse.data = const_cast<int32_t*>(a.varlen.cu_seqlens_k);
  // lse spans more bytes than cu_seqlens_k: where the heap put cu_seqlens_q right after it, the
  // first overlap found is with cu_seqlens_q. Either is the rule.
  expect_rejected(f, a, f.ctx(), "softmax_lse", {"must not overlap cu_seqlens_"});
}

}  // namespace
}  // namespace flashattn::test
