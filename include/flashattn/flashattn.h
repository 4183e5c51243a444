// The public C++ API of flashattn: exact attention, forward and backward, on the CPU or a GPU.
// No framework needed: tensors are TensorViews over caller-owned memory. Layouts follow flash_attn.
//
//   q    (batch, seqlen_q, num_heads,    head_dim)      varlen: (total_q, num_heads,    head_dim)
//   k    (batch, seqlen_k, num_heads_kv, head_dim)      varlen: (total_k, num_heads_kv, head_dim)
//   v    (batch, seqlen_k, num_heads_kv, head_dim_v)    varlen: (total_k, num_heads_kv, head_dim_v)
//   out  (batch, seqlen_q, num_heads,    head_dim_v)    varlen: (total_q, num_heads,    head_dim_v)
//   softmax_lse float32 (batch, num_heads, seqlen_q)    varlen: (num_heads, total_q)
//
// Semantics (docs/numerics.md has the details), in this order, for query i and key j:
//   s = softmax_scale * q_i . k_j
//   s = softcap * tanh(s / softcap)                     if softcap > 0
//   s = s - slope[b, h] * |i + seqlen_k - seqlen_q - j|  if ALiBi slopes are given
//   mask: key j is visible iff i + seqlen_k - seqlen_q - window_left <= j
//                                 <= i + seqlen_k - seqlen_q + window_right (-1 = unbounded side);
//         causal is window (window_left, 0)
//   p = softmax over visible keys; lse = log(sum of exp(s)) over visible keys
//   dropout: p_ij is zeroed with probability dropout_p rounded to a multiple of 1/256 (at least
//            1/256), decided by Philox4x32-7 from (seed, offset, batch, head, i, j) alone
//            (docs/numerics.md); kept values are scaled by 1 / (1 - dropout_p)
//   out_i = sum_j p_ij v_j; a row that sees no key gets out = 0, lse = -inf, zero gradients.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "flashattn/error.h"
#include "flashattn/tensor.h"

namespace flashattn {

constexpr int kMaxHeadDim = 256;

struct Options {
  // Defaults to 1 / sqrt(head_dim).
  std::optional<float> softmax_scale;
  bool causal = false;
  // Sliding window, aligned to the bottom-right corner; -1 leaves that side unbounded.
  int window_left = -1;
  int window_right = -1;
  // 0 turns softcapping off; otherwise in [FLT_MIN, 2^100] (the smallest normal float; a larger
  // cap changes no score below 2^88).
  float softcap = 0.0f;
  // float32, (num_heads) or (batch, num_heads); an undefined view turns ALiBi off.
  TensorView alibi_slopes;
  // Probability of dropping an attention weight, in [0, 1).
  float dropout_p = 0.0f;
  uint64_t seed = 0;
  // Philox counter offset. Each call consumes batch * num_heads counter values starting at
  // offset: a caller that wants fresh dropout masks advances offset by at least that much.
  uint64_t offset = 0;
  // Backward: bitwise-identical dq/dk/dv from run to run.
  bool deterministic = false;
};

// Variable-length batches: sequences packed along the token dimension. cu_seqlens_* are int32
// arrays of batch + 1 prefix sums starting at 0, in memory the chosen backend can read
// (host memory for the CPU backend, device memory for CUDA).
// CUDA: validation reads the prefix sums on the host. Pass host copies in cu_seqlens_*_host
// (same values) to avoid a synchronization; without them the library copies the device arrays
// to the host on Context::cuda_stream and waits for that stream (cudaStreamSynchronize).
struct Varlen {
  const int32_t* cu_seqlens_q = nullptr;
  const int32_t* cu_seqlens_k = nullptr;
  const int32_t* cu_seqlens_q_host = nullptr;  // optional (CUDA only)
  const int32_t* cu_seqlens_k_host = nullptr;  // optional (CUDA only)
  int batch = 0;
  int max_seqlen_q = 0;
  int max_seqlen_k = 0;

  bool enabled() const { return cu_seqlens_q != nullptr || cu_seqlens_k != nullptr; }
};

enum class Backend : int { Auto = 0, Cpu = 1, Cuda = 2 };
const char* backend_name(Backend backend);

// Scratch memory for a call. Without an allocator the library uses its own (malloc on the CPU,
// cudaMallocAsync/cudaFreeAsync on the stream for CUDA). CUDA: allocate returns device memory
// usable by work queued on Context::cuda_stream; deallocate is called once the work is queued
// (not finished), so the allocator must be stream-ordered (as PyTorch's caching allocator is).
// CPU: allocate returns host memory and is called from the worker threads, so it must be
// thread-safe; sizes are multiples of 64 bytes.
struct Allocator {
  void* (*allocate)(std::size_t bytes, void* user) = nullptr;
  void (*deallocate)(void* ptr, std::size_t bytes, void* user) = nullptr;
  void* user = nullptr;
};

// Where and how a call runs.
struct Context {
  Backend backend = Backend::Auto;  // Auto: CUDA when built and a device is present, else CPU
  int num_threads = 0;              // CPU: worker threads; 0 uses every core
  void* cuda_stream = nullptr;      // CUDA: a cudaStream_t; nullptr is the default stream
  Allocator allocator;
};

struct ForwardArgs {
  TensorView q, k, v;
  TensorView out;          // written
  TensorView softmax_lse;  // written; may be left undefined when not needed
  Varlen varlen;
  Options options;
};

struct BackwardArgs {
  TensorView q, k, v, out, dout;
  TensorView softmax_lse;  // as written by forward
  TensorView dq, dk, dv;   // written; with GQA dk/dv sum over the query heads of a kv head
  // dq, dk, dv may be interleaved views of one packed gradient (dqkv[:, :, 0], [:, :, 1], [:, :, 2]):
  // outputs of the same dtype, shape and strides need only disjoint elements, others disjoint bytes.
  Varlen varlen;
  Options options;
};

// What ran: the backend and the kernel path the selector chose.
struct RunInfo {
  Backend backend = Backend::Cpu;
  std::string path;  // e.g. "cpu", "cuda-sm80"
};

// Whether a call would run, and on which kernel path, from the same selector that runs it.
// Broken arguments give supported = false with the validation error as the reason.
struct Support {
  bool supported = false;
  std::string reason;  // why not, when unsupported
  std::string path;    // the kernel path that would run, e.g. "cpu", "cuda-sm80"
};
Support is_supported(const ForwardArgs& args, const Context& context = {});
Support is_supported(const BackwardArgs& args, const Context& context = {});

RunInfo forward(const ForwardArgs& args, const Context& context = {});
RunInfo backward(const BackwardArgs& args, const Context& context = {});

// Checks every argument and throws Error on the first broken rule; writes nothing.
void validate(const ForwardArgs& args, const Context& context = {});
void validate(const BackwardArgs& args, const Context& context = {});

// The backend Auto resolves to, and whether a backend was built and can run here.
Backend default_backend();
bool backend_available(Backend backend);

// Bytes of scratch memory the CPU backend used at most since the last reset (per process).
std::size_t cpu_scratch_peak_bytes();
void reset_cpu_scratch_peak();

}  // namespace flashattn
