// Kernel parameters of the sm80 path: plain structs of typed-erased pointers and element strides,
// filled once on the host from a Problem (launch.cu). The backward holds a forward one.
// Invariant: every derived fact the kernels need (log2 scale, dropout threshold, alignment) is
// computed in make_*_params, never inside a kernel.
#pragma once

#include <cstdint>

#include "semantics/dropout.h"
#include "semantics/mask.h"
#include "semantics/score_mod.h"

namespace flashattn::cuda::sm80 {

constexpr float kLog2e = 1.4426950408889634f;
constexpr float kLn2 = 0.6931471805599453f;

// A q/k/v/out-like tensor: element (b, r, h, c) of sequence b lives at
//   data + b * batch_stride + (row_begin(b) + r) * row_stride + h * head_stride + c.
struct Tensor {
  void* data = nullptr;
  int64_t batch_stride = 0, row_stride = 0, head_stride = 0;
};

struct FwdParams {
  Tensor q, k, v, out;
  float* lse = nullptr;  // nullptr: not written
  int64_t lse_batch_stride = 0, lse_head_stride = 0;
  const int32_t* cu_seqlens_q = nullptr;  // device; nullptr for padded batches
  const int32_t* cu_seqlens_k = nullptr;
  int batch = 0, num_heads = 0, num_heads_kv = 0, group = 1;
  int seqlen_q = 0, seqlen_k = 0;  // padded: the lengths; varlen: the maxima
  int head_dim = 0, head_dim_v = 0;
  float scale = 1.0f;
  float scale_log2 = 1.0f;  // scale * log2(e): the softmax runs in base 2
  float softcap = 0.0f;
  const float* alibi = nullptr;  // device; nullptr: off
  int64_t alibi_batch_stride = 0;
  bool has_score_mod = false;  // softcap or ALiBi: scores go through ScoreMod::apply
  int window_left = -1, window_right = -1;
  bool causal = false;
  semantics::Dropout dropout;
  // Every row of q/k/v/(d)out starts 16-byte aligned and head_dim, head_dim_v are multiples of 8:
  // tiles move with 16-byte cp.async. Otherwise element by element (head_dim 59, say).
  bool aligned = false;
  int num_m_blocks = 0;  // query blocks per (batch, head) in the grid
};

// The with-extras kernels run when a score modifier or dropout is on; the plain ones otherwise.
// One predicate for the launchers' choice and for the backward's dq factor (the plain backward
// leaves softmax's scale out of dS).
__host__ __device__ inline bool uses_extras(const FwdParams& p) { return p.has_score_mod || p.dropout.enabled(); }
// Softcap alone (no ALiBi, no dropout) and ALiBi alone (no softcap, no dropout; a scale of at
// least 2^-20, ScoreMod::alibi_per_dot's range): the sm90 kernels' plain schedules with that one
// modifier (kCap, kAlibi).
__host__ __device__ inline bool softcap_alone(const FwdParams& p) {
  return p.softcap > 0.0f && p.alibi == nullptr && !p.dropout.enabled();
}
__host__ __device__ inline bool alibi_alone(const FwdParams& p) {
  return p.alibi != nullptr && !(p.softcap > 0.0f) && !p.dropout.enabled() && p.scale >= 0x1p-20f;
}

struct BwdParams {
  FwdParams fwd;  // q, k, v, out, lse (required), mask, modifiers, dropout
  Tensor dout, dq, dk, dv;
  // Workspace: dq in fp32, (total_q rows, num_heads, head_dim tier); D = rowsum(dO * O),
  // (num_heads, total_q rows) as LSE, so that a query block's D is one coalesced read (as
  // (rows, heads) a warp's 32 rows lay num_heads * 4 bytes apart: 16x the shared wavefronts of
  // the sm80 kernel's cp.async, session 25); one semaphore per (batch, head, query block) when
  // deterministic.
  float* dq_accum = nullptr;
  float* dsum = nullptr;
  int64_t dsum_head_stride = 0;  // total_q
  int32_t* semaphore = nullptr;
  // dq_accum left uncleared (run_backward's dq_first_store; the sm90 backward's tensor-form dQ
  // writer, not deterministic): one ticket per (batch, head, query block of dq_ticket_rows rows of
  // the main kernel, at (b * num_heads + h) * num_m_blocks + m), zeroed. The main kernel's first
  // step to take a query block's ticket stores its dQ there instead of adding it, then sets
  // kDqStored; the others add theirs after that flag. bwd_convert_dq_kernel writes zeros for a
  // block no step reached (ticket 0). Saves the memset of dq_accum (a quarter of the workspace's
  // traffic at 512 queries) and the L2's reads of its zeros.
  int32_t* dq_tickets = nullptr;
  // kTileCounters zeroed int32s after the semaphores or tickets (run_backward clears them with
  // those or with dq_accum): the sm90 backward's dynamic tile counter (sm90::BwdParams90::
  // tile_counter).
  static constexpr int kTileCounters = 4;
  int32_t* tile_counter = nullptr;
  int dq_ticket_rows = 0;  // set by main (its query block), 64 or more (num_m_blocks' rows)
  static constexpr int32_t kDqStored = 1 << 30;  // a ticket's flag (its low bits count the steps)
  // How the sm90 writer takes a ticket (FLASHATTN_SM90_BWD_DQ_STORE, read by sm90_backward;
  // bench/NOTES.md session 42): 2 (the default) before the consumers' dQ is ready, an acquire RMW,
  // then a proxy fence; 1 after it, then a full fence (session 42's first version: 2-9% slower
  // from 2k); 3 as 2 without the proxy fence (a measurement: within 1-2% of 2).
  int dq_store_mode = 2;
  int dq_accum_dim = 0;  // the head_dim tier: floats per (row, head) in dq_accum
  int num_n_blocks = 0;  // key blocks per (batch, kv head) in the grid
  int num_m_blocks = 0;  // query blocks per (batch, head), for the semaphores
  int stages = 1;        // Q/dO buffers of bwd_kernel (1 or 2): set by its launch
  bool deterministic = false;
  // The query walk rotated per key block (QueryWalk; never when deterministic, whose order the
  // semaphores fix): on in the sm90 backward (sm90/bwd_launch.cu), opt-in for the sm80 kernel
  // (run_backward).
  bool rotate_walk = false;
  // The factor bwd_convert_dq_kernel multiplies dq_accum by: 1, or softmax's scale where the main
  // kernel left it out of dS (sm80::run_backward sets it from main's return value).
  float dq_scale = 1.0f;
  // dq_accum's rows in 8-row groups of 8 x 8 blocks (bwd_kernel's dQ reductions: a warp's 32
  // lanes add 64 consecutive floats, two 128-byte lines, where the natural layout spread them over
  // eight rows): element (row 8 g + r, column 8 b + c) of a group whose 8 rows all exist is stored
  // at flat position f = 64 b + 8 r + c of the group's 8 x dq_accum_dim floats, i.e. at (row
  // 8 g + f / dq_accum_dim, column f % dq_accum_dim); the other groups stay natural. Set by
  // run_backward for the sm80 main kernel, padded batches (varlen: natural) and head_dim ==
  // dq_accum_dim, a multiple of 64; read by the kernel's reductions and bwd_convert_dq_kernel.
  bool dq_blocked = false;
  // The last round's tiles split (host.h bwd_tail_plan, launch.h): where the tiles do not fill
  // whole rounds of the grid's CTA slots (CTAs an SM x SMs), the last tiles % slots tiles (from
  // tile0) each run as `pieces` blocks of about steps / pieces consecutive steps of its query
  // walk, so that the last round ends after a piece instead of a tile. Blocks [0, tile0) take one
  // whole tile each as before; block tile0 + r runs piece r % pieces of tile tile0 + r / pieces.
  // Each piece adds its fp32 dK and dV into the tile's slot of `part` (zeroed by the launcher; the
  // 4 floats i of thread t at (i * kThreads + t) * 4) and counts itself in `count`; the last to
  // count reads the sums back and writes dK and dV (nobody waits). pieces 0: no split.
  struct Tail {
    int64_t tile0 = 0;
    int pieces = 0, steps = 0;  // steps: every walk's (no causal mask, no window, no varlen)
    float* part = nullptr;
    int32_t* count = nullptr;
  } tail;
};

// Where element (row, column col) of a dq_accum group lives under BwdParams::dq_blocked: the row
// offset from the group's first row and the column (row % 8 == r, col % 8 == 0 for a whole 8-float run).
__host__ __device__ inline void dq_blocked_pos(int r, int col, int dim, int* row_off, int* col_out) {
  const int f = (col / 8) * 64 + r * 8 + col % 8;
  *row_off = f / dim;
  *col_out = f % dim;
}

// Per-sequence view of a CTA's (batch) entry: where its rows start and how many there are.
struct SeqInfo {
  int64_t row_begin_q = 0, row_begin_k = 0;  // in tokens; 0 for padded batches
  int seqlen_q = 0, seqlen_k = 0;
  int64_t row_global_q = 0;  // first row of this sequence in (total_q) workspaces

  SeqInfo() = default;
  __device__ __forceinline__ SeqInfo(const FwdParams& p, int b) {
    if (p.cu_seqlens_q != nullptr) {
      row_begin_q = p.cu_seqlens_q[b];
      seqlen_q = int(p.cu_seqlens_q[b + 1] - row_begin_q);
      row_global_q = row_begin_q;
    } else {
      seqlen_q = p.seqlen_q;
      row_global_q = int64_t(b) * p.seqlen_q;
    }
    if (p.cu_seqlens_k != nullptr) {
      row_begin_k = p.cu_seqlens_k[b];
      seqlen_k = int(p.cu_seqlens_k[b + 1] - row_begin_k);
    } else {
      seqlen_k = p.seqlen_k;
    }
  }
};

// The backward's walk over what one key block [n0, n0 + cols) meets: steps (query head of the KV
// group, query block), query blocks fastest, advanced with counters (an integer division by a
// run-time value would cost ~20 instructions a step). Shared by the sm80 and sm90 backward.
struct QueryWalk {
  struct Step {
    int h, m_block;
  };
  int m_lo = 0, m_end = 0, m_start = 0, steps = 0;
  // rotate (BwdParams::rotate_walk): key block n_block of num_n_blocks starts its query blocks at
  // m_lo + n_block * num_m / num_n_blocks and wraps around, so that the key blocks of a head add
  // their dQ into different query blocks at the same time (in the plain order, without a mask that
  // staggers them, all start at query block 0 and meet on its rows in L2).
  __device__ __forceinline__ QueryWalk(const semantics::Mask& mask, int n0, int cols, int block_m, int group,
                                       bool rotate = false, int n_block = 0, int num_n_blocks = 1) {
    int q_lo, q_hi;
    mask.query_range(n0, n0 + cols, &q_lo, &q_hi);
    m_lo = q_lo / block_m;
    const int num_m = q_hi > q_lo ? (q_hi + block_m - 1) / block_m - m_lo : 0;
    m_end = m_lo + num_m;
    m_start = m_lo;
    // (In 32 bits: a 64-bit division is a call, whose register saves made the sm90 backward's
    // consumers spill where they walk several key blocks. Past 2^32 the product wraps, which
    // only moves the start: any start inside the walk is one.)
    if (rotate && num_m > 1)
      m_start = m_lo + int(uint32_t(n_block) * uint32_t(num_m) / uint32_t(num_n_blocks) % uint32_t(num_m));
    steps = num_m * group;
  }
  QueryWalk() = default;
  // The first step of the group whose first query head is h0.
  __device__ __forceinline__ Step first(int h0) const { return {h0, m_start}; }
  // Step i (0 <= i < steps) of that walk: where i calls of next() from first(h0) lead.
  __device__ __forceinline__ Step at(int h0, int i) const {
    const int num_m = m_end - m_lo, hh = i / num_m, r = i - hh * num_m;
    const int m = m_start + r;
    return {h0 + hh, m >= m_end ? m - num_m : m};
  }
  __device__ __forceinline__ Step next(Step t) const {
    if (++t.m_block == m_end) t.m_block = m_lo;
    if (t.m_block == m_start) ++t.h;
    return t;
  }
};

}  // namespace flashattn::cuda::sm80
