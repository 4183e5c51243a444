// Host side of the sm80 path: Problem -> kernel parameters (the one place where alignment and
// log2 scale are derived), the workspace (Context::allocator, else stream-ordered
// cudaMallocAsync), the backward's preprocessing (D = rowsum(dO * O)) and dq conversion kernels,
// and device queries. Nothing here synchronizes the device; everything runs on the caller's stream.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "cuda/backend.h"
#include "cuda/prim/math.h"
#include "cuda/sm80/check.h"
#include "cuda/sm80/host.h"
#include "cuda/workspace.h"

namespace flashattn::cuda {

namespace sm80 {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

Tensor tensor_of(const Operand& o) {
  Tensor t;
  t.data = o.data;
  t.batch_stride = o.batch_stride;
  t.row_stride = o.row_stride;
  t.head_stride = o.head_stride;
  return t;
}

bool aligned16(const Operand& o) {
  return reinterpret_cast<uintptr_t>(o.data) % 16 == 0 && o.batch_stride % 8 == 0 && o.row_stride % 8 == 0 &&
         o.head_stride % 8 == 0;
}

FwdParams make_fwd_params(const Problem& p) {
  FwdParams f;
  f.q = tensor_of(p.q);
  f.k = tensor_of(p.k);
  f.v = tensor_of(p.v);
  f.out = tensor_of(p.out);
  if (p.has_lse) {
    f.lse = static_cast<float*>(p.lse.data);
    f.lse_batch_stride = p.lse.batch_stride;
    f.lse_head_stride = p.lse.head_stride;
  }
  f.cu_seqlens_q = p.varlen ? p.cu_seqlens_q_ptr : nullptr;
  f.cu_seqlens_k = p.varlen ? p.cu_seqlens_k_ptr : nullptr;
  f.batch = p.batch;
  f.num_heads = p.num_heads;
  f.num_heads_kv = p.num_heads_kv;
  f.group = p.group();
  f.seqlen_q = p.max_seqlen_q;
  f.seqlen_k = p.max_seqlen_k;
  f.head_dim = p.head_dim;
  f.head_dim_v = p.head_dim_v;
  f.scale = p.softmax_scale;
  f.scale_log2 = float(double(p.softmax_scale) * 1.4426950408889634);
  f.softcap = p.softcap;
  f.alibi = p.alibi;
  f.alibi_batch_stride = p.alibi_batch_stride;
  f.has_score_mod = p.softcap > 0.0f || p.alibi != nullptr;
  f.window_left = p.window_left;
  f.window_right = p.window_right;
  f.causal = p.causal;
  f.dropout = p.dropout;
  f.aligned = p.head_dim % 8 == 0 && p.head_dim_v % 8 == 0 && aligned16(p.q) && aligned16(p.k) && aligned16(p.v) &&
              aligned16(p.out);
  return f;  // num_m_blocks: set by the launcher from its tile size
}

namespace {

std::size_t round_up(std::size_t x) { return (x + 255) / 256 * 256; }

// (sequence b, row i) of global row r of a (total_q)-row tensor.
__device__ __forceinline__ void split_row(const FwdParams& p, int64_t r, int64_t* b, int64_t* i) {
  if (p.cu_seqlens_q != nullptr) {  // varlen: batch_stride is 0, rows are tokens
    *b = 0;
    *i = r;
  } else {
    *b = r / p.seqlen_q;
    *i = r % p.seqlen_q;
  }
}

// The auxiliary kernels' thread space: (row, head, chunk of 8 columns), chunks fastest,
// 2^log2_chunks (<= 32) threads per (row, head). Each thread divides once, in 32 bits when the
// (row, head) count fits (the old kernels' three 64-bit divisions an element, ~70 instructions
// each, made them cost more than the memory they move).
struct AuxIndex {
  int64_t r = 0, b = 0, i = 0;  // global row, its sequence and row within it
  int h = 0, c0 = 0;            // head, first column of the chunk
};
__device__ __forceinline__ bool aux_index(const FwdParams& p, int64_t t, int log2_chunks, int64_t rows, AuxIndex* x) {
  const int64_t rh = t >> log2_chunks;
  x->c0 = int(t & ((1 << log2_chunks) - 1)) * 8;
  if (rh >= rows * p.num_heads) return false;
  if (rows * p.num_heads < (int64_t(1) << 31)) {
    const uint32_t rh32 = uint32_t(rh), heads = uint32_t(p.num_heads);
    x->r = rh32 / heads;
    x->h = int(rh32 - uint32_t(x->r) * heads);
    if (p.cu_seqlens_q != nullptr) {
      x->b = 0;
      x->i = x->r;
    } else {
      x->b = uint32_t(x->r) / uint32_t(p.seqlen_q);
      x->i = x->r - x->b * p.seqlen_q;
    }
  } else {
    x->r = rh / p.num_heads;
    x->h = int(rh % p.num_heads);
    split_row(p, x->r, &x->b, &x->i);
  }
  return true;
}

// log2 of the threads per (row, head): columns / 8 rounded up to a power of two, at most a warp
// (validate.cc: head_dim <= 256), so the shuffle sums stay inside one.
inline int aux_log2_chunks(int cols) {
  int l = 0;
  while ((8 << l) < cols) ++l;
  if (l > 5) throw CudaError("flashattn: internal error: head_dim " + std::to_string(cols) + " past 256");
  return l;
}

// D[r, h] = sum_c dO[r, h, c] * O[r, h, c]: 8 columns a thread (one 16-byte load of each when
// the rows are aligned), then a shuffle sum over the (row, head)'s threads.
template <typename T>
__global__ void bwd_dsum_kernel(const __grid_constant__ BwdParams bp, int64_t rows, int log2_chunks, bool vec) {
  const FwdParams& p = bp.fwd;
  AuxIndex x;
  const bool active = aux_index(p, int64_t(blockIdx.x) * blockDim.x + threadIdx.x, log2_chunks, rows, &x);
  float sum = 0.0f;
  if (active) {
    const T* o = static_cast<const T*>(p.out.data) + x.b * p.out.batch_stride + x.i * p.out.row_stride +
                 x.h * p.out.head_stride + x.c0;
    const T* d = static_cast<const T*>(bp.dout.data) + x.b * bp.dout.batch_stride + x.i * bp.dout.row_stride +
                 x.h * bp.dout.head_stride + x.c0;
    if (vec) {  // out's and dout's rows 16-byte aligned, head_dim_v a multiple of 8
      if (x.c0 < p.head_dim_v) {
        const uint4 ov = *reinterpret_cast<const uint4*>(o), dv = *reinterpret_cast<const uint4*>(d);
        const T* oe = reinterpret_cast<const T*>(&ov);
        const T* de = reinterpret_cast<const T*>(&dv);
#pragma unroll
        for (int e = 0; e < 8; ++e) sum += prim::to_float(oe[e]) * prim::to_float(de[e]);
      }
    } else {
#pragma unroll
      for (int e = 0; e < 8; ++e)
        if (x.c0 + e < p.head_dim_v) sum += prim::to_float(o[e]) * prim::to_float(d[e]);
    }
  }
  // Every lane takes part (the chunks of a (row, head) are 2^log2_chunks adjacent lanes).
  for (int s = 1; s < (1 << log2_chunks); s *= 2) sum += __shfl_xor_sync(0xffffffffu, sum, s);
  if (active && x.c0 == 0) bp.dsum[x.h * bp.dsum_head_stride + x.r] = sum;
}

// dq = dq_accum rounded to T, head_dim columns of each (row, head): 8 columns a thread (two
// 16-byte loads; one 16-byte store when dq's rows are aligned). The blocks take the rows from the
// last: the main kernels finish with the last (batch, head) tiles, whose dq_accum rows may still
// be in L2 (session 48, A/B on an H100: +0.3-1.2% on the backward at 512-8k, 7 shapes of 7).
template <typename T>
__global__ void bwd_convert_dq_kernel(const __grid_constant__ BwdParams bp, int64_t rows, int log2_chunks, bool dq_vec) {
  const FwdParams& p = bp.fwd;
  AuxIndex x;
  const int64_t block = int64_t(gridDim.x) - 1 - blockIdx.x;
  if (!aux_index(p, block * blockDim.x + threadIdx.x, log2_chunks, rows, &x) || x.c0 >= p.head_dim) return;
  // dq_accum rows: dq_accum_dim (a multiple of 8) floats from a 256-byte aligned workspace.
  // Blocked layout (padded batches): a group of 8 existing rows keeps this thread's 8 columns at
  // one 8-float run elsewhere in the group (BwdParams::dq_blocked).
  int64_t src_row = x.r;
  int src_col = x.c0;
  if (bp.dq_blocked) {
    const int r = int(x.i % 8);
    if (x.i - r + 8 <= p.seqlen_q) {
      int row_off;
      dq_blocked_pos(r, x.c0, bp.dq_accum_dim, &row_off, &src_col);
      src_row = x.r - r + row_off;
    }
  }
  const float* acc = bp.dq_accum + (src_row * p.num_heads + x.h) * int64_t(bp.dq_accum_dim) + src_col;
  // A query block no step of the main kernel reached (ticket 0: rows that see no key) was never
  // written: zeros, without reading it (BwdParams::dq_tickets).
  const bool unwritten =
      bp.dq_tickets != nullptr &&
      bp.dq_tickets[(x.b * p.num_heads + x.h) * int64_t(bp.num_m_blocks) +
                    uint32_t(x.i) / uint32_t(bp.dq_ticket_rows)] == 0;  // (x.i < seqlen_q: 32 bits)
  float4 lo = make_float4(0.0f, 0.0f, 0.0f, 0.0f), hi = lo;
  if (!unwritten) {
    lo = *reinterpret_cast<const float4*>(acc);
    hi = *reinterpret_cast<const float4*>(acc + 4);
  }
  const float s = bp.dq_scale;
  const float v[8] = {lo.x * s, lo.y * s, lo.z * s, lo.w * s, hi.x * s, hi.y * s, hi.z * s, hi.w * s};
  T* dq = static_cast<T*>(bp.dq.data) + x.b * bp.dq.batch_stride + x.i * bp.dq.row_stride + x.h * bp.dq.head_stride +
          x.c0;
  if (dq_vec) {  // dq's rows 16-byte aligned, head_dim a multiple of 8
    uint4 out;
    out.x = prim::pack2(v[0], v[1], T());
    out.y = prim::pack2(v[2], v[3], T());
    out.z = prim::pack2(v[4], v[5], T());
    out.w = prim::pack2(v[6], v[7], T());
    *reinterpret_cast<uint4*>(dq) = out;
  } else {
#pragma unroll
    for (int e = 0; e < 8; ++e)
      if (x.c0 + e < p.head_dim) dq[e] = prim::from_float<T>(v[e]);
  }
}

constexpr int kBwdBlockM = 64;  // BwdConfig::kBlockM: num_m_blocks' rows

template <typename T>
void run_backward_aux(BwdParams& bp, BwdMain main, const void* user, int64_t rows, bool dsum_vec, bool dq_vec,
                      cudaStream_t stream) {
  // Both grids checked before the first launch: an error never leaves part of the work queued.
  const int l_dsum = aux_log2_chunks(bp.fwd.head_dim_v), l_dq = aux_log2_chunks(bp.fwd.head_dim);
  const int64_t blocks_dsum = ((rows * bp.fwd.num_heads << l_dsum) + 255) / 256;
  const int64_t blocks_dq = ((rows * bp.fwd.num_heads << l_dq) + 255) / 256;
  check_grid(blocks_dsum);
  check_grid(blocks_dq);
  if (rows > 0) {
    bwd_dsum_kernel<T><<<unsigned(blocks_dsum), 256, 0, stream>>>(bp, rows, l_dsum, dsum_vec);
    check(cudaGetLastError(), "launch bwd_dsum_kernel");
  }
  bp.dq_scale = 1.0f;
  if (bp.fwd.seqlen_k > 0) {
    bp.dq_scale = main(bp, user, stream);
    if (bp.dq_tickets != nullptr && bp.dq_ticket_rows < kBwdBlockM)  // (num_m_blocks: 64-row blocks)
      throw CudaError("flashattn: internal error: the backward's main kernel set no dQ ticket rows (64 or more)");
  } else {
    bp.dq_ticket_rows = kBwdBlockM;  // no step ran: every ticket 0, dQ all zeros
  }
  if (rows > 0) {
    bwd_convert_dq_kernel<T><<<unsigned(blocks_dq), 256, 0, stream>>>(bp, rows, l_dq, dq_vec);
    check(cudaGetLastError(), "launch bwd_convert_dq_kernel");
  }
}

}  // namespace

void run_backward(const Problem& p, int dq_accum_dim, const Context& context, BwdMain main, const void* user,
                  bool dq_blocked, bool dq_first_store) {
  BwdParams bp;
  bp.fwd = make_fwd_params(p);
  bp.dout = tensor_of(p.dout);
  bp.dq = tensor_of(p.dq);
  bp.dk = tensor_of(p.dk);
  bp.dv = tensor_of(p.dv);
  bp.fwd.aligned = bp.fwd.aligned && aligned16(p.dout) && aligned16(p.dk) && aligned16(p.dv);
  bp.dq_accum_dim = dq_accum_dim;
  bp.num_m_blocks = ceil_div(p.max_seqlen_q, kBwdBlockM);
  bp.deterministic = p.deterministic;
  // Rotated query walks (QueryWalk): off for the sm80 kernel (session 20: +-1% at 2k-8k), which
  // FLASHATTN_SM80_BWD_ROTATE=1 turns on; the sm90 launcher sets its own (on, bwd_launch.cu).
  bp.rotate_walk = !p.deterministic && env_choice("FLASHATTN_SM80_BWD_ROTATE", false);
  bp.dq_blocked = dq_blocked && !p.varlen && p.head_dim == dq_accum_dim && dq_accum_dim % 64 == 0;
  const int64_t rows = p.total_q;  // padded: batch * seqlen_q

  const std::size_t accum_bytes = round_up(std::size_t(rows) * p.num_heads * dq_accum_dim * sizeof(float));
  const std::size_t dsum_bytes = round_up(std::size_t(rows) * p.num_heads * sizeof(float));
  // Semaphores when deterministic, else the dQ tickets where main stores each query block's first
  // dQ (dq_first_store: a padded batch, so (batch, head, query block) covers every row); then the
  // tile counters (BwdParams::tile_counter). Zeroed: with dq_accum in one memset where that is
  // cleared (it lies right before them), else alone. Layout: dq_accum, these, D.
  dq_first_store = dq_first_store && !p.deterministic && !p.varlen;
  const std::size_t ticket_bytes = p.deterministic || dq_first_store
                                       ? std::size_t(p.batch) * p.num_heads * bp.num_m_blocks * sizeof(int32_t)
                                       : 0;
  const std::size_t sem_bytes = round_up(ticket_bytes + BwdParams::kTileCounters * sizeof(int32_t));
  Workspace ws(context, accum_bytes + sem_bytes + dsum_bytes);
  const cudaStream_t stream = ws.stream();
  if (ws.data() == nullptr) throw CudaError("flashattn: empty workspace");
  bp.dq_accum = reinterpret_cast<float*>(ws.data());
  int32_t* sem = reinterpret_cast<int32_t*>(ws.data() + accum_bytes);
  bp.dsum = reinterpret_cast<float*>(ws.data() + accum_bytes + sem_bytes);
  bp.dsum_head_stride = rows;
  bp.semaphore = p.deterministic ? sem : nullptr;
  bp.dq_tickets = dq_first_store ? sem : nullptr;
  bp.tile_counter = sem + ticket_bytes / sizeof(int32_t);
  if (dq_first_store) check(cudaMemsetAsync(sem, 0, sem_bytes, stream), "cudaMemsetAsync(tickets)");
  else check(cudaMemsetAsync(bp.dq_accum, 0, accum_bytes + sem_bytes, stream), "cudaMemsetAsync(dq_accum)");

  const bool dsum_vec = aligned16(p.out) && aligned16(p.dout) && p.head_dim_v % 8 == 0;
  const bool dq_vec = aligned16(p.dq) && p.head_dim % 8 == 0;
  if (p.dtype == DType::Float16) run_backward_aux<__half>(bp, main, user, rows, dsum_vec, dq_vec, stream);
  else run_backward_aux<__nv_bfloat16>(bp, main, user, rows, dsum_vec, dq_vec, stream);
}

bool env_choice(const char* name, bool dflt) {
  const char* v = std::getenv(name);
  if (v != nullptr && v[0] == '1') return true;
  if (v != nullptr && v[0] == '0') return false;
  return dflt;
}

int device_sm_count() {
  int dev = 0, sm_count = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
  return sm_count;
}

bool bwd_tail_eligible(const BwdParams& p) {
  const FwdParams& f = p.fwd;
  return !p.deterministic && !uses_extras(f) && !f.causal && f.window_left < 0 && f.window_right < 0 && f.cu_seqlens_q == nullptr &&
         f.cu_seqlens_k == nullptr && env_choice("FLASHATTN_SM80_BWD_TAIL", true);
}

int64_t bwd_tail_slots(int ctas_per_sm) {
  const char* v = std::getenv("FLASHATTN_SM80_BWD_SLOTS");
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : int64_t(ctas_per_sm) * device_sm_count();
}

BwdParams::Tail bwd_tail_plan(int64_t tiles, int steps, int64_t slots) {
  BwdParams::Tail t;
  const int64_t rem = slots > 0 ? tiles % slots : 0;
  if (rem == 0 || steps < 2) return t;
  // A slot's steps: whole rounds, then the last round as ceil(rem q / slots) rounds of pieces.
  const int64_t whole = tiles / slots * int64_t(steps);
  auto cost = [&](int q) {
    return whole + (rem * q + slots - 1) / slots * ((steps + q - 1) / q + (q > 1 ? 1 : 0));
  };
  int best = 1;
  for (int q = 2; q <= std::min(steps, 64); ++q)
    if (cost(q) < cost(best)) best = q;
  const char* force = std::getenv("FLASHATTN_SM80_BWD_PIECES");
  if (force != nullptr && std::atoi(force) > 1) best = std::min(std::atoi(force), steps);
  const bool always = env_choice("FLASHATTN_SM80_BWD_TAIL", false);
  if (best < 2 || (force == nullptr && !always && double(cost(best)) > 0.98 * double(cost(1)))) return t;
  t.tile0 = tiles - rem;
  t.pieces = best;
  t.steps = steps;
  return t;
}

int persistent_ctas(const char* name, bool dflt, int sm_count) {
  const char* v = std::getenv(name);
  const int n = v != nullptr && v[0] >= '0' && v[0] <= '9' ? std::atoi(v) : dflt ? 1 : 0;
  return n == 1 ? sm_count : n;
}

}  // namespace sm80

bool device_present() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" status
    return false;
  }
  return count > 0;
}

DeviceInfo current_device() {
  DeviceInfo info;
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  int major = 0, minor = 0, optin = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "cudaDeviceGetAttribute");
  info.arch = major * 10 + minor;
  info.smem_optin = std::size_t(optin);
  cudaFuncAttributes attr;
  info.has_sm80_image = cudaFuncGetAttributes(&attr, sm80::bwd_dsum_kernel<__half>) == cudaSuccess;
  if (!info.has_sm80_image) cudaGetLastError();
  return info;
}

LaunchCounters& launch_counters() {
  static LaunchCounters counters;
  return counters;
}

void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream) {
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s), "cudaMemcpyAsync(cu_seqlens to host)");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize(cu_seqlens to host)");
}

void sm80_forward(const Problem& p, const KernelEntry& kernel, const Context& context) {
  if (p.max_seqlen_q == 0 || p.total_q == 0) return;
  const sm80::FwdParams f = sm80::make_fwd_params(p);
  kernel.launch(&f, context.cuda_stream);
}

void sm80_backward(const Problem& p, const KernelEntry& kernel, const Context& context) {
  const std::pair<const KernelEntry*, const Context*> user{&kernel, &context};
  sm80::run_backward(
      p, kernel.head_dim, context,
      [](sm80::BwdParams& bp, const void* user, void* stream) {
        const auto& u = *static_cast<const std::pair<const KernelEntry*, const Context*>*>(user);
        const sm80::BwdLaunch l{bp, u.second};
        u.first->launch(&l, stream);
        return sm80::uses_extras(bp.fwd) ? 1.0f : bp.fwd.scale;  // the plain kernel leaves it out of dS
      },
      // dQ reductions in the blocked layout (BwdParams::dq_blocked): on by default (bench/NOTES.md
      // session 12); FLASHATTN_SM80_DQ_BLOCKED=0 keeps the natural one (A/B measurements).
      &user, sm80::env_choice("FLASHATTN_SM80_DQ_BLOCKED", true));
}

}  // namespace flashattn::cuda
