// The Arguments -> Params step: validate() turns user arguments into a Problem, the one place
// where derived facts (scale, mask, dropout threshold, per-sequence offsets) are computed.
// Every backend and the reference read a Problem, never the raw arguments.
#pragma once

#include <cstdint>
#include <vector>

#include "flashattn/flashattn.h"
#include "semantics/dropout.h"
#include "semantics/mask.h"
#include "semantics/score_mod.h"

namespace flashattn {

// Where element (batch b, row r, head h, column c) of a q/k/v/out-like tensor lives:
//   data + (b * batch_stride + (row_begin(b) + r) * row_stride + h * head_stride + c) * size.
// Padded tensors have batch_stride = stride[0] and row_begin = 0; varlen tensors have
// batch_stride = 0 and row_begin = cu_seqlens[b].
struct Operand {
  void* data = nullptr;
  DType dtype = DType::Float32;
  int64_t batch_stride = 0;
  int64_t row_stride = 0;
  int64_t head_stride = 0;

  int64_t index(int64_t row_begin, int b, int64_t r, int h) const {
    return b * batch_stride + (row_begin + r) * row_stride + h * head_stride;
  }
};

struct Problem {
  Backend backend = Backend::Cpu;
  DType dtype = DType::Float32;
  bool varlen = false;
  int batch = 0;
  int num_heads = 0;
  int num_heads_kv = 0;
  int head_dim = 0;
  int head_dim_v = 0;
  int max_seqlen_q = 0;  // padded: seqlen_q
  int max_seqlen_k = 0;
  int64_t total_q = 0;   // varlen: tokens; padded: batch * seqlen_q
  int64_t total_k = 0;
  // Per sequence (size batch + 1); padded tensors get 0, s, 2s, ... here too, but their
  // Operand row_begin is always 0 (the batch stride does the work).
  std::vector<int64_t> cu_q, cu_k;
  // The caller's cu_seqlens pointers, in the backend's memory (device memory for CUDA).
  const int32_t* cu_seqlens_q_ptr = nullptr;
  const int32_t* cu_seqlens_k_ptr = nullptr;

  float softmax_scale = 1.0f;
  bool causal = false;
  int window_left = -1;
  int window_right = -1;
  float softcap = 0.0f;
  const float* alibi = nullptr;  // nullptr: off
  int64_t alibi_batch_stride = 0;  // 0 for (num_heads) slopes
  semantics::Dropout dropout;
  bool deterministic = false;

  Operand q, k, v, out, dout, dq, dk, dv;
  Operand lse;  // float32; row_stride 1 in the seqlen_q direction, head_stride per head
  bool has_lse = false;

  int seqlen_q(int b) const { return int(cu_q[b + 1] - cu_q[b]); }
  int seqlen_k(int b) const { return int(cu_k[b + 1] - cu_k[b]); }
  int64_t row_begin_q(int b) const { return varlen ? cu_q[b] : 0; }
  int64_t row_begin_k(int b) const { return varlen ? cu_k[b] : 0; }
  int group() const { return num_heads / num_heads_kv; }
  int kv_head(int h) const { return h / group(); }

  semantics::Mask mask(int b) const {
    return semantics::make_mask(seqlen_q(b), seqlen_k(b), window_left, window_right, causal);
  }
  float alibi_slope(int b, int h) const {
    return alibi ? alibi[b * alibi_batch_stride + h] : 0.0f;
  }
  template <typename T>
  semantics::ScoreMod<T> score_mod(int b, int h) const {
    semantics::ScoreMod<T> m;
    m.scale = T(softmax_scale);
    m.softcap = T(softcap);
    m.alibi_slope = T(alibi_slope(b, h));
    m.diag_offset = int64_t(seqlen_k(b)) - seqlen_q(b);
    return m;
  }
};

// Validate arguments and build the Problem; throws Error naming the argument and the rule.
// cu_seqlens are read on the host: directly for the CPU backend; for CUDA through
// Varlen::cu_seqlens_*_host when given, else copied from the device on `cuda_stream` (a sync).
Problem make_problem(const ForwardArgs& args, Backend backend, void* cuda_stream = nullptr);
Problem make_problem(const BackwardArgs& args, Backend backend, void* cuda_stream = nullptr);

// Resolves Backend::Auto and checks that the backend is available.
Backend resolve_backend(const Context& context);

}  // namespace flashattn
