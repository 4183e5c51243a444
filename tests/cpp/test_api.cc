// The public API's promises beyond the numbers: what ran (RunInfo, is_supported), where scratch
// memory comes from (Context::allocator) and how much (linear in seqlen, never seqlen^2),
// negative strides, and thread counts above the core count.
#include <atomic>
#include <cstdlib>
#include <vector>

#include "harness.h"

namespace flashattn::test {
namespace {

Spec small_spec() {
  Spec s;
  s.dtype = DType::BFloat16;
  s.batch = 2;
  s.seqlen_q = 150;
  s.seqlen_k = 170;
  s.heads = 4;
  s.heads_kv = 2;
  s.head_dim = 64;
  s.causal = true;
  s.dropout = 0.1f;
  return s;
}

TEST(Api, RunInfoAndIsSupportedAgree) {
  Case c(small_spec());
  const Support sf = is_supported(c.forward_args(), c.context());
  const Support sb = is_supported(c.backward_args(), c.context());
  EXPECT_TRUE(sf.supported) << sf.reason;
  EXPECT_TRUE(sb.supported) << sb.reason;
  const RunInfo rf = flashattn::forward(c.forward_args(), c.context());
  const RunInfo rb = flashattn::backward(c.backward_args(), c.context());
  EXPECT_EQ(rf.backend, Backend::Cpu);
  EXPECT_EQ(rb.backend, Backend::Cpu);
  EXPECT_EQ(rf.path, "cpu");
  EXPECT_EQ(rf.path, sf.path);
  EXPECT_EQ(rb.path, sb.path);
}

TEST(Api, AutoResolvesToAnAvailableBackend) {
  EXPECT_TRUE(backend_available(Backend::Cpu));
  EXPECT_TRUE(backend_available(default_backend()));
  if (!backend_available(Backend::Cuda)) {
    EXPECT_EQ(default_backend(), Backend::Cpu);
    Spec s = small_spec();
    s.backend = Backend::Auto;
    Case c(s);
    EXPECT_EQ(flashattn::forward(c.forward_args(), c.context()).backend, Backend::Cpu);
  }
  EXPECT_STREQ(backend_name(Backend::Cpu), "cpu");
  EXPECT_STREQ(backend_name(Backend::Cuda), "cuda");
  EXPECT_STREQ(backend_name(Backend::Auto), "auto");
}

// Context::allocator: "Scratch memory for a call. Without an allocator the library uses its own
// (malloc on the CPU, ...)": with one, the CPU backend's scratch must come from it.
// Thread-safe, as the API requires: the CPU backend's worker threads allocate concurrently.
struct CountingAllocator {
  std::atomic<int64_t> allocations{0}, deallocations{0};
  std::atomic<int64_t> outstanding_bytes{0};
  static void* allocate(std::size_t bytes, void* user) {
    auto* self = static_cast<CountingAllocator*>(user);
    ++self->allocations;
    self->outstanding_bytes += int64_t(bytes);
    return std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
  }
  static void deallocate(void* ptr, std::size_t bytes, void* user) {
    auto* self = static_cast<CountingAllocator*>(user);
    ++self->deallocations;
    self->outstanding_bytes -= int64_t(bytes);
    std::free(ptr);
  }
};

TEST(Api, CallerAllocatorProvidesCpuScratch) {
  Case c(small_spec());
  CountingAllocator counter;
  Context ctx = c.context();
  ctx.allocator.allocate = &CountingAllocator::allocate;
  ctx.allocator.deallocate = &CountingAllocator::deallocate;
  ctx.allocator.user = &counter;
  c.out.poison();
  c.lse.poison();
  flashattn::forward(c.forward_args(), ctx);
  const HostTensor out = c.out;
  c.dq.poison(), c.dk.poison(), c.dv.poison();
  flashattn::backward(c.backward_args(), ctx);
  EXPECT_GT(counter.allocations.load(), 0) << "the CPU backend did not take its scratch memory from Context::allocator";
  EXPECT_EQ(counter.allocations.load(), counter.deallocations.load());
  EXPECT_EQ(counter.outstanding_bytes.load(), 0);
  // Same results as with the library's own allocator.
  c.run_forward();
  EXPECT_TRUE(c.out.same_bits(out));
  check_forward_results(c);
}

// The CPU backend keeps no seqlen_q x seqlen_k buffer: doubling both seqlens at most doubles the
// scratch peak (plus slack), where a quadratic buffer would quadruple it.
TEST(Api, ScratchMemoryIsLinearInSeqlen) {
  auto peak = [](int seqlen, bool backward) {
    Spec s;
    s.dtype = DType::Float16;
    s.seqlen_q = s.seqlen_k = seqlen;
    s.heads = s.heads_kv = 1;
    s.head_dim = 64;
    s.num_threads = 2;
    Case c(s);
    c.run_forward();
    reset_cpu_scratch_peak();
    const std::size_t before = cpu_scratch_peak_bytes();
    if (backward) c.run_backward();
    else c.run_forward();
    return double(cpu_scratch_peak_bytes() - before);
  };
  for (bool backward : {false, true}) {
    const double p1 = peak(1024, backward), p2 = peak(4096, backward);
    EXPECT_GT(p1, 0.0);
    EXPECT_LE(p2, 4.5 * p1) << (backward ? "backward" : "forward") << ": " << p1 << " -> " << p2 << " bytes";
    EXPECT_LT(p2, 4096.0 * 4096.0 * 4) << "a seqlen^2 fp32 buffer";
  }
}

// Views with a negative stride along the sequence: reversed copies of q, k, v read backwards are
// the original tensors, so out must match bit for bit; out written backwards lands mirrored.
TEST(Api, NegativeStrides) {
  Spec s;
  s.dtype = DType::Float32;
  s.batch = 1;
  s.seqlen_q = 70;
  s.seqlen_k = 90;
  s.heads = s.heads_kv = 2;
  s.head_dim = 32;
  s.num_threads = 1;
  Case c(s);
  c.run_forward();
  const int H = s.heads, D = s.head_dim;
  // Reversed copies of q and of k/v (token order), viewed backwards: the views read the original order.
  HostTensor qr(s.dtype, {1, s.seqlen_q, H, D}), kr(s.dtype, {1, s.seqlen_k, H, D}), vr(s.dtype, {1, s.seqlen_k, H, D});
  for (int i = 0; i < s.seqlen_q; ++i)
    for (int e = 0; e < H * D; ++e) qr.set(int64_t(s.seqlen_q - 1 - i) * H * D + e, c.q.get(int64_t(i) * H * D + e));
  for (int j = 0; j < s.seqlen_k; ++j)
    for (int e = 0; e < H * D; ++e) {
      kr.set(int64_t(s.seqlen_k - 1 - j) * H * D + e, c.k.get(int64_t(j) * H * D + e));
      vr.set(int64_t(s.seqlen_k - 1 - j) * H * D + e, c.v.get(int64_t(j) * H * D + e));
    }
  auto backwards = [&](HostTensor& t, int seqlen) {
    const int64_t last = int64_t(seqlen - 1) * H * D * int64_t(dtype_size(s.dtype));
    return TensorView::strided(static_cast<uint8_t*>(t.view.data) + last, s.dtype, {1, seqlen, H, D},
                               {int64_t(seqlen) * H * D, -int64_t(H) * D, D, 1});
  };
  HostTensor out(s.dtype, {1, s.seqlen_q, H, D});
  ForwardArgs a = c.forward_args();
  a.q = backwards(qr, s.seqlen_q);
  a.k = backwards(kr, s.seqlen_k);
  a.v = backwards(vr, s.seqlen_k);
  a.out = out.view;
  a.softmax_lse = TensorView{};
  flashattn::forward(a, c.context());
  EXPECT_TRUE(out.same_bits(c.out));
  EXPECT_TRUE(out.guards_intact());
  // Writing out backwards: row i lands at the mirrored position.
  HostTensor out_rev(s.dtype, {1, s.seqlen_q, H, D});
  a.out = backwards(out_rev, s.seqlen_q);
  flashattn::forward(a, c.context());
  for (int i = 0; i < s.seqlen_q; ++i)
    for (int e = 0; e < H * D; ++e)
      ASSERT_EQ(out_rev.get(int64_t(s.seqlen_q - 1 - i) * H * D + e), c.out.get(int64_t(i) * H * D + e)) << i;
  EXPECT_TRUE(out_rev.guards_intact());
}

// More threads than cores and than work items (one key block, a single (batch, kv head) pair):
// idle threads must neither write nor lose anything.
TEST(Api, ThreadsAboveCoresAndWork) {
  for (int threads : {3, 4, 7})
    for (int sk : {1, 30, 200}) {
      Spec s;
      s.dtype = DType::Float32;
      s.batch = 1;
      s.heads = 3;
      s.heads_kv = 1;
      s.seqlen_q = 45;
      s.seqlen_k = sk;
      s.dropout = 0.2f;
      s.num_threads = threads;
      check_forward(s);
      check_backward(s);
    }
}

}  // namespace
}  // namespace flashattn::test
