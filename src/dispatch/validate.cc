// Argument validation: every rule of the public API, checked before anything is written.
// Each failure throws flashattn::Error naming the argument and the rule.
#include <cfloat>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "dispatch/problem.h"
#ifdef FLASHATTN_WITH_CUDA
#include "cuda/backend.h"
#endif

namespace flashattn {
namespace {

std::string shape_str(const TensorView& t) {
  std::ostringstream s;
  s << "(";
  for (int d = 0; d < t.rank; ++d) s << (d ? ", " : "") << t.shape[d];
  s << ")";
  return s.str();
}

[[noreturn]] void fail(const std::string& arg, const std::string& rule) { throw Error(arg, rule); }

void check_defined(const TensorView& t, const char* name) {
  if (!t.defined()) fail(name, "must not be null");
  if (t.rank < 1 || t.rank > kMaxRank) fail(name, "rank must be between 1 and 4");
  for (int d = 0; d < t.rank; ++d)
    if (t.shape[d] < 0) fail(name, "shape must not be negative, got " + shape_str(t));
}

void check_last_contiguous(const TensorView& t, const char* name) {
  if (t.shape[t.rank - 1] > 1 && t.stride[t.rank - 1] != 1)
    fail(name, "last dimension must be contiguous (stride 1), got stride " +
                   std::to_string(t.stride[t.rank - 1]));
}

void check_dtype(const TensorView& t, const char* name, DType want) {
  if (t.dtype != want)
    fail(name, std::string("dtype must be ") + dtype_name(want) + " like q, got " +
                   dtype_name(t.dtype));
}

void check_shape(const TensorView& t, const char* name, std::initializer_list<int64_t> want) {
  bool ok = t.rank == int(want.size());
  int d = 0;
  for (int64_t w : want) ok = ok && t.shape[d++] == w;
  if (!ok) {
    std::ostringstream s;
    s << "shape must be (";
    d = 0;
    for (int64_t w : want) s << (d++ ? ", " : "") << w;
    s << "), got " << shape_str(t);
    fail(name, s.str());
  }
}

// Byte range [lo, hi) spanned by a view; empty views span nothing.
struct Span {
  uintptr_t lo = 0, hi = 0;
};
Span span_of(const TensorView& t) {
  Span s;
  if (!t.defined() || t.numel() == 0) return s;
  int64_t lo = 0, hi = 0;
  for (int d = 0; d < t.rank; ++d) {
    const int64_t ext = (t.shape[d] - 1) * t.stride[d];
    if (ext < 0) lo += ext; else hi += ext;
  }
  const int64_t es = int64_t(dtype_size(t.dtype));
  s.lo = reinterpret_cast<uintptr_t>(t.data) + lo * es;
  s.hi = reinterpret_cast<uintptr_t>(t.data) + (hi + 1) * es;
  return s;
}
bool overlaps(const TensorView& a, const TensorView& b) {
  const Span x = span_of(a), y = span_of(b);
  return x.lo < x.hi && y.lo < y.hi && x.lo < y.hi && y.lo < x.hi;
}
void check_no_overlap(const TensorView& out, const char* out_name, const TensorView& other,
                      const char* other_name) {
  if (overlaps(out, other))
    fail(out_name, std::string("must not overlap ") + other_name + " (outputs never alias inputs)");
}

// Two outputs may also be views of one buffer whose address ranges interleave: dq, dk, dv as
// dqkv[:, :, 0], dqkv[:, :, 1], dqkv[:, :, 2] of a packed (batch, seqlen, 3, heads, dim) gradient.
// The rule for two outputs a, b of the same dtype, rank, shape and strides: their elements are
// base + sum_d i_d * stride_d with 0 <= i_d < shape_d, so they share one iff the offset difference
// delta = (b.data - a.data) / element_size can be written as sum_d k_d * stride_d with integers
// |k_d| <= shape_d - 1 (k_d = i_d - j_d). We decide that exactly by a depth-first search from the
// largest |stride| down, under the precondition that each view is not self-overlapping in the sense
// of check_not_self_overlapping (sorted by |stride|, each stride exceeds the extent E spanned by the
// smaller ones): at a dimension of stride s, k must leave a remainder within [-E, E], an interval of
// 2E < 2s, so at most two k qualify and the search visits at most 2^4 leaves. Views whose byte
// difference is not a multiple of the element size, that break the precondition, or that differ in
// dtype, shape or strides fall back to the byte-range rule of overlaps().
int64_t floor_div(int64_t a, int64_t b) {  // b > 0
  return a / b - ((a % b != 0) && (a < 0));
}
int64_t ceil_div(int64_t a, int64_t b) {  // b > 0
  return -floor_div(-a, b);
}

// |stride| and shape of the dimensions with shape > 1, sorted by |stride| ascending, and the extent
// below each; false when the view breaks the precondition above.
struct Dims {
  int n = 0;
  int64_t stride[kMaxRank], shape[kMaxRank], inner[kMaxRank];
};
bool sorted_dims(const TensorView& t, Dims* dims) {
  Dims& m = *dims;
  for (int d = 0; d < t.rank; ++d)
    if (t.shape[d] > 1) {
      m.stride[m.n] = std::llabs(t.stride[d]);
      m.shape[m.n++] = t.shape[d];
    }
  for (int i = 1; i < m.n; ++i)
    for (int j = i; j > 0 && m.stride[j] < m.stride[j - 1]; --j) {
      std::swap(m.stride[j], m.stride[j - 1]);
      std::swap(m.shape[j], m.shape[j - 1]);
    }
  int64_t extent = 0;
  for (int i = 0; i < m.n; ++i) {
    if (m.stride[i] <= extent) return false;
    m.inner[i] = extent;
    extent += (m.shape[i] - 1) * m.stride[i];
  }
  return true;
}

// Whether rem = sum_{d <= i} k_d * stride_d with |k_d| <= shape_d - 1.
bool representable(const Dims& m, int i, int64_t rem) {
  if (i < 0) return rem == 0;
  const int64_t s = m.stride[i], e = m.inner[i];
  const int64_t lo = std::max(ceil_div(rem - e, s), -(m.shape[i] - 1));
  const int64_t hi = std::min(floor_div(rem + e, s), m.shape[i] - 1);
  for (int64_t k = lo; k <= hi; ++k)
    if (representable(m, i - 1, rem - k * s)) return true;
  return false;
}

// True when a and b are same-layout views proven to share no element (the rule above).
bool disjoint_same_layout(const TensorView& a, const TensorView& b) {
  if (a.dtype != b.dtype || a.rank != b.rank) return false;
  for (int d = 0; d < a.rank; ++d)
    if (a.shape[d] != b.shape[d] || a.stride[d] != b.stride[d]) return false;
  const int64_t es = int64_t(dtype_size(a.dtype));
  const int64_t bytes = int64_t(reinterpret_cast<uintptr_t>(b.data) - reinterpret_cast<uintptr_t>(a.data));
  if (bytes % es != 0) return false;
  Dims m;
  if (!sorted_dims(a, &m)) return false;
  return !representable(m, m.n - 1, bytes / es);
}

void check_outputs_disjoint(const TensorView& out, const char* out_name, const TensorView& other,
                            const char* other_name) {
  if (disjoint_same_layout(out, other)) return;
  if (overlaps(out, other))
    fail(out_name, std::string("must not overlap ") + other_name +
                       " (outputs of the same dtype, shape and strides must not share an element; "
                       "other outputs must not share a byte)");
}

// An output whose strides let two of its elements share memory would be written by racing
// threads. Sufficient rule: sorted by |stride|, each dimension steps past everything inside it.
void check_not_self_overlapping(const TensorView& t, const char* name) {
  if (!t.defined() || t.numel() == 0) return;  // nothing to write, nothing to collide
  int order[kMaxRank];
  int n = 0;
  for (int d = 0; d < t.rank; ++d)
    if (t.shape[d] > 1) order[n++] = d;
  for (int i = 1; i < n; ++i)  // insertion sort by |stride| (at most 4 entries)
    for (int j = i; j > 0 && std::llabs(t.stride[order[j]]) < std::llabs(t.stride[order[j - 1]]); --j)
      std::swap(order[j], order[j - 1]);
  int64_t inner_extent = 0;  // elements spanned by the dimensions already visited, minus one
  for (int i = 0; i < n; ++i) {
    const int64_t stride = std::llabs(t.stride[order[i]]);
    if (stride <= inner_extent)
      fail(name, "must not overlap itself: dimension " + std::to_string(order[i]) + " has stride " +
                     std::to_string(t.stride[order[i]]) + ", so distinct elements would share memory");
    inner_extent += (t.shape[order[i]] - 1) * stride;
  }
}

// Outputs must not overlap the cu_seqlens arrays either.
void check_no_overlap_cu(const TensorView& out, const char* out_name, const Varlen& varlen) {
  if (!varlen.enabled() || varlen.batch < 1) return;
  const int32_t* arrays[] = {varlen.cu_seqlens_q, varlen.cu_seqlens_k};
  const char* names[] = {"cu_seqlens_q", "cu_seqlens_k"};
  for (int i = 0; i < 2; ++i) {
    if (arrays[i] == nullptr) continue;
    const TensorView cu = TensorView::contiguous(const_cast<int32_t*>(arrays[i]), DType::Float32, {varlen.batch + 1});
    check_no_overlap(out, out_name, cu, names[i]);
  }
}

Operand operand_of(const TensorView& t, bool varlen) {
  Operand o;
  o.data = t.data;
  o.dtype = t.dtype;
  if (varlen) {  // (total, heads, dim)
    o.batch_stride = 0;
    o.row_stride = t.stride[0];
    o.head_stride = t.stride[1];
  } else {  // (batch, seqlen, heads, dim)
    o.batch_stride = t.stride[0];
    o.row_stride = t.stride[1];
    o.head_stride = t.stride[2];
  }
  return o;
}

void read_cu_seqlens(const int32_t* cu, const char* name, int batch, int64_t total, int max_seqlen,
                     const char* max_name, std::vector<int64_t>* out) {
  if (cu == nullptr) fail(name, "must not be null for a varlen call");
  if (cu[0] != 0) fail(name, "must start at 0, got " + std::to_string(cu[0]));
  out->assign(batch + 1, 0);
  for (int b = 0; b < batch; ++b) {
    if (cu[b + 1] < cu[b])
      fail(name, "must be non-decreasing, but entry " + std::to_string(b + 1) + " (" +
                     std::to_string(cu[b + 1]) + ") < entry " + std::to_string(b) + " (" +
                     std::to_string(cu[b]) + ")");
    if (cu[b + 1] - cu[b] > max_seqlen)
      fail(max_name, "must be at least the longest sequence, but sequence " + std::to_string(b) +
                         " has " + std::to_string(cu[b + 1] - cu[b]) + " tokens");
    (*out)[b + 1] = cu[b + 1];
  }
  if (cu[batch] != total)
    fail(name, "last entry (" + std::to_string(cu[batch]) + ") must equal the number of tokens (" +
                   std::to_string(total) + ")");
}

// Checks shared by forward and backward; fills the shape part of the Problem.
Problem common(const TensorView& q, const TensorView& k, const TensorView& v, const TensorView& out,
               const Varlen& varlen, const Options& opt, Backend backend) {
  check_defined(q, "q");
  check_defined(k, "k");
  check_defined(v, "v");
  check_defined(out, "out");
  if (q.dtype != DType::Float32 && q.dtype != DType::Float16 && q.dtype != DType::BFloat16)
    fail("q", "dtype must be float32, float16 or bfloat16");
  check_dtype(k, "k", q.dtype);
  check_dtype(v, "v", q.dtype);
  check_dtype(out, "out", q.dtype);
  if (backend == Backend::Cuda && q.dtype == DType::Float32)
    fail("q", "dtype float32 is supported on the CPU backend only; use float16 or bfloat16 on CUDA");

  Problem p;
  p.backend = backend;
  p.dtype = q.dtype;
  p.varlen = varlen.enabled();
  const int want_rank = p.varlen ? 3 : 4;
  const char* layout = p.varlen ? "(total_tokens, heads, head_dim) for a varlen call"
                                : "(batch, seqlen, heads, head_dim)";
  for (auto [t, name] : {std::pair{&q, "q"}, {&k, "k"}, {&v, "v"}, {&out, "out"}})
    if (t->rank != want_rank)
      fail(name, std::string("must have rank ") + std::to_string(want_rank) + ", layout " + layout +
                     ", got shape " + shape_str(*t));
  for (auto [t, name] : {std::pair{&q, "q"}, {&k, "k"}, {&v, "v"}, {&out, "out"}})
    check_last_contiguous(*t, name);

  const int hd = want_rank - 2;  // index of the heads dimension
  p.num_heads = int(q.shape[hd]);
  p.num_heads_kv = int(k.shape[hd]);
  p.head_dim = int(q.shape[hd + 1]);
  p.head_dim_v = int(v.shape[hd + 1]);
  if (p.head_dim < 1 || p.head_dim > kMaxHeadDim)
    fail("q", "head_dim must be between 1 and 256, got " + std::to_string(p.head_dim));
  if (p.head_dim_v < 1 || p.head_dim_v > kMaxHeadDim)
    fail("v", "head_dim must be between 1 and 256, got " + std::to_string(p.head_dim_v));
  if (p.num_heads < 1) fail("q", "must have at least one head");
  if (p.num_heads_kv < 1) fail("k", "must have at least one head");
  if (p.num_heads % p.num_heads_kv != 0)
    fail("k", "num_heads (" + std::to_string(p.num_heads) + ") must be divisible by num_heads_kv (" +
                  std::to_string(p.num_heads_kv) + ")");

  if (p.varlen) {
    if (varlen.batch < 1) fail("varlen.batch", "must be at least 1");
    if (varlen.max_seqlen_q < 0) fail("varlen.max_seqlen_q", "must not be negative");
    if (varlen.max_seqlen_k < 0) fail("varlen.max_seqlen_k", "must not be negative");
    p.batch = varlen.batch;
    p.total_q = q.shape[0];
    p.total_k = k.shape[0];
    check_shape(k, "k", {p.total_k, p.num_heads_kv, p.head_dim});
    check_shape(v, "v", {p.total_k, p.num_heads_kv, p.head_dim_v});
    check_shape(out, "out", {p.total_q, p.num_heads, p.head_dim_v});
    p.max_seqlen_q = varlen.max_seqlen_q;
    p.max_seqlen_k = varlen.max_seqlen_k;
  } else {
    p.batch = int(q.shape[0]);
    p.max_seqlen_q = int(q.shape[1]);
    p.max_seqlen_k = int(k.shape[1]);
    check_shape(k, "k", {p.batch, k.shape[1], p.num_heads_kv, p.head_dim});
    check_shape(v, "v", {p.batch, k.shape[1], p.num_heads_kv, p.head_dim_v});
    check_shape(out, "out", {p.batch, p.max_seqlen_q, p.num_heads, p.head_dim_v});
    p.total_q = int64_t(p.batch) * p.max_seqlen_q;
    p.total_k = int64_t(p.batch) * p.max_seqlen_k;
    p.cu_q.resize(p.batch + 1);
    p.cu_k.resize(p.batch + 1);
    for (int b = 0; b <= p.batch; ++b) {
      p.cu_q[b] = int64_t(b) * p.max_seqlen_q;
      p.cu_k[b] = int64_t(b) * p.max_seqlen_k;
    }
  }

  // Options.
  if (opt.softmax_scale && !std::isfinite(*opt.softmax_scale))
    fail("softmax_scale", "must be finite");
  p.softmax_scale = opt.softmax_scale ? *opt.softmax_scale : float(1.0 / std::sqrt(double(p.head_dim)));
  if (opt.window_left < -1)
    fail("window_left", "must be >= -1 (-1 = unbounded), got " + std::to_string(opt.window_left));
  if (opt.window_right < -1)
    fail("window_right", "must be >= -1 (-1 = unbounded), got " + std::to_string(opt.window_right));
  if (!(opt.dropout_p >= 0.0f && opt.dropout_p < 1.0f))
    fail("dropout_p", "must be in [0, 1), got " + std::to_string(opt.dropout_p));
  if (!(opt.softcap >= 0.0f) || !std::isfinite(opt.softcap))
    fail("softcap", "must be >= 0 and finite (0 = off), got " + std::to_string(opt.softcap));
  // Below the smallest normal float, 1 / softcap overflows, and a zero score times it gave NaN.
  if (opt.softcap > 0.0f && opt.softcap < FLT_MIN) {
    std::ostringstream got;  // (std::to_string prints such a value as 0.000000)
    got << opt.softcap;
    fail("softcap", "must be 0 (off) or at least 1.17549435e-38 (the smallest normal float), got " + got.str());
  }
  // Above 2^100 a cap changes no score below 2^88 in float (tanh(x) = x for |x| < 2^-12), and the
  // GPU kernels' folded factor scale / softcap times a dot fell below the smallest normal float
  // for ordinary scores (flushed to zero: every score 0; session 58).
  if (opt.softcap > 0x1p100f) {
    std::ostringstream got;
    got << opt.softcap;
    fail("softcap", "must be at most 1.2676506e+30 (2^100; a larger cap leaves every score below 2^88 as it is, "
                    "use 0 for off), got " + got.str());
  }
  p.causal = opt.causal;
  p.window_left = opt.window_left;
  p.window_right = opt.window_right;
  p.softcap = opt.softcap;
  p.deterministic = opt.deterministic;
  p.dropout = semantics::make_dropout(opt.dropout_p, opt.seed, opt.offset);

  if (opt.alibi_slopes.defined()) {
    const TensorView& a = opt.alibi_slopes;
    if (a.dtype != DType::Float32) fail("alibi_slopes", "dtype must be float32");
    const bool per_head = a.rank == 1 && a.shape[0] == p.num_heads;
    const bool per_batch = a.rank == 2 && a.shape[0] == p.batch && a.shape[1] == p.num_heads;
    if (!per_head && !per_batch)
      fail("alibi_slopes", "shape must be (num_heads) = (" + std::to_string(p.num_heads) +
                               ") or (batch, num_heads) = (" + std::to_string(p.batch) + ", " +
                               std::to_string(p.num_heads) + "), got " + shape_str(a));
    check_last_contiguous(a, "alibi_slopes");
    p.alibi = static_cast<const float*>(a.data);
    p.alibi_batch_stride = per_batch ? a.stride[0] : 0;
    // Distances |i + seqlen_k - seqlen_q - j| exact in float (semantics::ScoreMod::alibi_bias).
    constexpr int kMaxAlibiSeqlen = 1 << 24;
    if (p.max_seqlen_q > kMaxAlibiSeqlen || p.max_seqlen_k > kMaxAlibiSeqlen)
      fail("alibi_slopes", "ALiBi needs seqlen_q and seqlen_k <= 16777216 (2^24), got " +
                               std::to_string(p.max_seqlen_q) + " and " + std::to_string(p.max_seqlen_k));
  }

  p.q = operand_of(q, p.varlen);
  p.k = operand_of(k, p.varlen);
  p.v = operand_of(v, p.varlen);
  p.out = operand_of(out, p.varlen);
  return p;
}

void check_lse(Problem& p, const TensorView& lse, bool required) {
  if (!lse.defined()) {
    if (required) fail("softmax_lse", "must not be null");
    return;
  }
  check_defined(lse, "softmax_lse");
  if (lse.dtype != DType::Float32) fail("softmax_lse", "dtype must be float32");
  if (p.varlen)
    check_shape(lse, "softmax_lse", {p.num_heads, p.total_q});
  else
    check_shape(lse, "softmax_lse", {p.batch, p.num_heads, p.max_seqlen_q});
  check_last_contiguous(lse, "softmax_lse");
  p.has_lse = true;
  p.lse.data = lse.data;
  p.lse.dtype = DType::Float32;
  p.lse.row_stride = 1;
  if (p.varlen) {
    p.lse.batch_stride = 0;
    p.lse.head_stride = lse.stride[0];
  } else {
    p.lse.batch_stride = lse.stride[0];
    p.lse.head_stride = lse.stride[1];
  }
}

// cu_seqlens as host memory: the arrays themselves for the CPU backend; for CUDA the caller's
// host copies, else a copy from the device into `staging` (synchronizes the stream).
const int32_t* host_cu_seqlens(const Problem& p, const int32_t* cu, const int32_t* host_copy, const char* name,
                               void* cuda_stream, std::vector<int32_t>* staging) {
  if (cu == nullptr) fail(name, "must not be null for a varlen call");
  if (p.backend != Backend::Cuda) return cu;
  if (host_copy != nullptr) return host_copy;
#ifdef FLASHATTN_WITH_CUDA
  staging->resize(size_t(p.batch) + 1);
  cuda::copy_to_host(staging->data(), cu, staging->size() * sizeof(int32_t), cuda_stream);
  return staging->data();
#else
  (void)cuda_stream;
  (void)staging;
  fail("context.backend", "cuda is not built");
#endif
}

void read_varlen(Problem& p, const Varlen& varlen, void* cuda_stream) {
  if (!p.varlen) return;
  std::vector<int32_t> staging_q, staging_k;
  const int32_t* cu_q = host_cu_seqlens(p, varlen.cu_seqlens_q, varlen.cu_seqlens_q_host, "cu_seqlens_q",
                                        cuda_stream, &staging_q);
  const int32_t* cu_k = host_cu_seqlens(p, varlen.cu_seqlens_k, varlen.cu_seqlens_k_host, "cu_seqlens_k",
                                        cuda_stream, &staging_k);
  read_cu_seqlens(cu_q, "cu_seqlens_q", p.batch, p.total_q, p.max_seqlen_q, "varlen.max_seqlen_q", &p.cu_q);
  read_cu_seqlens(cu_k, "cu_seqlens_k", p.batch, p.total_k, p.max_seqlen_k, "varlen.max_seqlen_k", &p.cu_k);
  p.cu_seqlens_q_ptr = varlen.cu_seqlens_q;
  p.cu_seqlens_k_ptr = varlen.cu_seqlens_k;
}

}  // namespace

Backend resolve_backend(const Context& context) {
  if (context.num_threads < 0) fail("context.num_threads", "must be >= 0 (0 = every core)");
  Backend b = context.backend == Backend::Auto ? default_backend() : context.backend;
  if (b != Backend::Cpu && b != Backend::Cuda) fail("context.backend", "must be Auto, Cpu or Cuda");
  if (!backend_available(b))
    fail("context.backend", std::string(backend_name(b)) +
                                " is not available (not built, or no device present)");
  return b;
}

Problem make_problem(const ForwardArgs& a, Backend backend, void* cuda_stream) {
  Problem p = common(a.q, a.k, a.v, a.out, a.varlen, a.options, backend);
  check_lse(p, a.softmax_lse, /*required=*/false);
  const TensorView* inputs[] = {&a.q, &a.k, &a.v, &a.options.alibi_slopes};
  const char* names[] = {"q", "k", "v", "alibi_slopes"};
  for (int i = 0; i < 4; ++i) {
    check_no_overlap(a.out, "out", *inputs[i], names[i]);
    check_no_overlap(a.softmax_lse, "softmax_lse", *inputs[i], names[i]);
  }
  check_outputs_disjoint(a.softmax_lse, "softmax_lse", a.out, "out");
  check_not_self_overlapping(a.out, "out");
  check_not_self_overlapping(a.softmax_lse, "softmax_lse");
  check_no_overlap_cu(a.out, "out", a.varlen);
  check_no_overlap_cu(a.softmax_lse, "softmax_lse", a.varlen);
  read_varlen(p, a.varlen, cuda_stream);
  return p;
}

Problem make_problem(const BackwardArgs& a, Backend backend, void* cuda_stream) {
  Problem p = common(a.q, a.k, a.v, a.out, a.varlen, a.options, backend);
  check_lse(p, a.softmax_lse, /*required=*/true);
  check_defined(a.dout, "dout");
  check_defined(a.dq, "dq");
  check_defined(a.dk, "dk");
  check_defined(a.dv, "dv");
  check_dtype(a.dout, "dout", p.dtype);
  check_dtype(a.dq, "dq", p.dtype);
  check_dtype(a.dk, "dk", p.dtype);
  check_dtype(a.dv, "dv", p.dtype);
  auto same_shape = [](const TensorView& t, const TensorView& like, const char* name,
                       const char* like_name) {
    bool ok = t.rank == like.rank;
    for (int d = 0; ok && d < t.rank; ++d) ok = t.shape[d] == like.shape[d];
    if (!ok)
      fail(name, std::string("shape must equal ") + like_name + "'s " + shape_str(like) + ", got " +
                     shape_str(t));
    check_last_contiguous(t, name);
  };
  same_shape(a.dout, a.out, "dout", "out");
  same_shape(a.dq, a.q, "dq", "q");
  same_shape(a.dk, a.k, "dk", "k");
  same_shape(a.dv, a.v, "dv", "v");

  const TensorView* inputs[] = {&a.q, &a.k, &a.v, &a.out, &a.dout, &a.softmax_lse,
                                &a.options.alibi_slopes};
  const char* names[] = {"q", "k", "v", "out", "dout", "softmax_lse", "alibi_slopes"};
  const TensorView* outputs[] = {&a.dq, &a.dk, &a.dv};
  const char* out_names[] = {"dq", "dk", "dv"};
  for (int o = 0; o < 3; ++o) {
    for (int i = 0; i < 7; ++i) check_no_overlap(*outputs[o], out_names[o], *inputs[i], names[i]);
    for (int o2 = 0; o2 < o; ++o2)
      check_outputs_disjoint(*outputs[o], out_names[o], *outputs[o2], out_names[o2]);
    check_not_self_overlapping(*outputs[o], out_names[o]);
    check_no_overlap_cu(*outputs[o], out_names[o], a.varlen);
  }
  read_varlen(p, a.varlen, cuda_stream);
  p.dout = operand_of(a.dout, p.varlen);
  p.dq = operand_of(a.dq, p.varlen);
  p.dk = operand_of(a.dk, p.varlen);
  p.dv = operand_of(a.dv, p.varlen);
  return p;
}

}  // namespace flashattn
