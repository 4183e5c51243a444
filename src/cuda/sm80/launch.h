// Launchers of the templated sm80 kernels, instantiated once per (direction, dtype, tier) in
// src/cuda/instantiations/. Each picks the plain or the with-extras kernel (the one level of
// compile-time switching), sets its dynamic shared-memory limit, launches on the given stream
// and checks the launch. The grid's block counts follow the configuration's tile sizes.
#pragma once

#include <cuda_runtime.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>

#include "cuda/sm80/bwd_kernel.h"
#include "cuda/sm80/check.h"
#include "cuda/sm80/fwd_kernel.h"
#include "cuda/sm80/host.h"
#include "cuda/workspace.h"

namespace flashattn::cuda::sm80 {

template <typename T, typename C, bool kExtras>
void launch_fwd_config(FwdParams p, cudaStream_t stream) {
  p.num_m_blocks = (p.seqlen_q + C::kBlockM - 1) / C::kBlockM;
  const int64_t blocks = int64_t(p.num_m_blocks) * p.batch * p.num_heads;
  if (blocks == 0) return;
  check_grid(blocks);
  auto kernel = fwd_kernel<T, C, kExtras>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes),
        "cudaFuncSetAttribute(fwd_kernel)");
  kernel<<<unsigned(blocks), C::kThreads, C::kSmemBytes, stream>>>(p);
  check(cudaGetLastError(), "launch fwd_kernel");
}

// A shared-memory attribute of the current device, lowered by the test knob
// FLASHATTN_SM80_SMEM_LIMIT=<bytes per block> (plus `reserve`, what the attribute counts beyond
// a block's own), so that an H100/H200 runs the tile plans of an A100 (166912) or of a 99 KB GPU
// (101376): tests/cuda/test_cuda.cc, Cuda.BackwardOnSmallerSharedMemory / ForwardOnSmallerSharedMemory.
inline int device_smem(cudaDeviceAttr attr, int reserve) {
  int dev = 0, bytes = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&bytes, attr, dev), "cudaDeviceGetAttribute");
  if (const char* limit = std::getenv("FLASHATTN_SM80_SMEM_LIMIT")) {
    const int l = std::atoi(limit);
    if (l > 0 && l + reserve < bytes) bytes = l + reserve;
  }
  return bytes;
}

// Opt-in shared memory per block (the tile plans below).
inline int device_smem_optin() { return device_smem(cudaDevAttrMaxSharedMemoryPerBlockOptin, 0); }

// The caller sizes the semaphores with num_m_blocks (query blocks of 64; every configuration's
// kBlockM is a multiple); the key blocks follow the configuration. Two Q/dO buffers where the
// device's opt-in shared memory holds them (unless the configuration forces a count).
template <typename T, typename C, bool kExtras>
void launch_bwd_config(BwdParams p, const Context& context, cudaStream_t stream, int smem_optin = 0) {
  static_assert(C::kBlockM % 64 == 0, "semaphores are sized for query blocks of 64");
  // The kernel's blocked dQ addresses assume rows of its own head_dim tier (run_backward sets
  // dq_blocked only then; every caller passes the tier as dq_accum_dim).
  if (p.dq_blocked && p.dq_accum_dim != C::kD)
    throw CudaError("flashattn: internal error: dq_blocked with a dq workspace of " + std::to_string(p.dq_accum_dim) +
                    " columns for tier " + std::to_string(C::kD));
  p.num_n_blocks = (p.fwd.seqlen_k + C::kBlockN - 1) / C::kBlockN;
  const int64_t blocks = int64_t(p.num_n_blocks) * p.fwd.batch * p.fwd.num_heads_kv;
  if (blocks == 0) return;
  check_grid(blocks);
  p.stages = C::kStagesForced;
  if (p.stages == 0) p.stages = C::bytes(2) <= (smem_optin > 0 ? smem_optin : device_smem_optin()) ? 2 : 1;
  const int smem = C::bytes(p.stages);
  auto kernel = bwd_kernel<T, C, kExtras>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
        "cudaFuncSetAttribute(bwd_kernel)");
  // The last round split (BwdParams::tail, host.h's rule): a slot of the tile's dK and dV in
  // fp32 and a counter for each tile of the tail, zeroed here, freed in stream order.
  int64_t grid = blocks;
  std::unique_ptr<Workspace> tail_ws;
  if (bwd_tail_eligible(p)) {
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, C::kThreads, smem),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor(bwd_kernel)");
    p.tail = bwd_tail_plan(blocks, (p.fwd.seqlen_q + C::kBlockM - 1) / C::kBlockM * p.fwd.group,
                           bwd_tail_slots(per_sm));
    if (p.tail.pieces > 0) {
      const int64_t tiles = blocks - p.tail.tile0;
      grid = p.tail.tile0 + tiles * p.tail.pieces;
      check_grid(grid);
      const std::size_t part_bytes = std::size_t(tiles) * C::kBlockN * (C::kD + C::kDv) * sizeof(float);
      const std::size_t bytes = part_bytes + std::size_t(tiles) * sizeof(int32_t);
      tail_ws = std::make_unique<Workspace>(context, bytes);
      check(cudaMemsetAsync(tail_ws->data(), 0, bytes, stream), "cudaMemsetAsync(tail workspace)");
      p.tail.part = reinterpret_cast<float*>(tail_ws->data());
      p.tail.count = reinterpret_cast<int32_t*>(tail_ws->data() + part_bytes);
    }
  }
  kernel<<<unsigned(grid), C::kThreads, smem, stream>>>(p);
  check(cudaGetLastError(), "launch bwd_kernel");
}

// The backward configurations of a tier: kPreferred where the device's shared memory holds it,
// else kBase (measured on the H200 at seqlen 8192, bench/NOTES.md):
//   head_dim <= 64:  128 x 128 blocks (214 against 201 TFLOP/s at 64 x 128); 64 x 128 keeps
//                    the tier on 99 KB GPUs (RTX 30xx/40xx, L4);
//   96, 128:         64 x 128 (250 against 168 TFLOP/s at 64 x 64); 64 x 64 fits 99 KB GPUs;
//   above:           64 x 64 only.
template <int kD, int kDv>
struct BwdPlan {
  static constexpr int kMaxD = kD > kDv ? kD : kDv;
  using Preferred = std::conditional_t<kMaxD <= 64, BwdConfig<kD, kDv, 128, 0, 128>, BwdConfig<kD, kDv>>;
  using Base = std::conditional_t<kMaxD <= 64, BwdConfig<kD, kDv>, BwdConfig<kD, kDv, 64>>;
  static constexpr bool kTwo = kMaxD <= 128;
  static constexpr int kSmemBytes = kTwo && Base::kSmemBytes < Preferred::kSmemBytes ? Base::kSmemBytes
                                                                                     : Preferred::kSmemBytes;
};

// Shared memory of one SM (the forward's plan below); under the test knob, the per-block limit
// plus the 1 KB an SM reserves per block (an A100: 166912 + 1024, an RTX 30xx: 101376 + 1024, as
// those GPUs report).
inline int device_smem_per_sm() { return device_smem(cudaDevAttrMaxSharedMemoryPerMultiprocessor, 1024); }

// The forward configurations of a tier. Above head_dim 128 the preferred 64 x 64 tile on four
// warps pays by running two CTAs an SM (H100/H200: 228 KB); where two do not fit (an A100's
// 164 KB at head_dim 224 and 256) one CTA of four warps would idle the SM, so the 128 x 64 tile
// on eight warps (the default before session 12, measured then) runs instead when it fits.
template <int kD, int kDv>
struct FwdPlan {
  using Preferred = FwdConfig<kD, kDv>;
  static constexpr bool kTwo = Preferred::kMaxD > 128;
  using Base = std::conditional_t<kTwo, FwdConfig<kD, kDv, 8, 64, 0, 128, 0>, Preferred>;
  static constexpr int kSmemBytes = Base::kSmemBytes < Preferred::kSmemBytes ? Base::kSmemBytes : Preferred::kSmemBytes;
};

template <typename T, typename C>
void launch_fwd_extras(const FwdParams& p, cudaStream_t s) {
  // The fused scale takes the row maximum over raw dot products: right for a positive scale only
  // (a negative or zero softmax_scale is valid; the extras kernel scales every score first).
  if (uses_extras(p) || (C::kFusedScale && !(p.scale_log2 > 0.0f))) launch_fwd_config<T, C, true>(p, s);
  else launch_fwd_config<T, C, false>(p, s);
}

template <typename T, int kD, int kDv>
void launch_fwd(const void* params, void* stream) {
  using Plan = FwdPlan<kD, kDv>;
  const FwdParams& p = *static_cast<const FwdParams*>(params);
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  if constexpr (Plan::kTwo) {
    const bool two_ctas = 2 * (Plan::Preferred::kSmemBytes + 1024) <= device_smem_per_sm();
    if (!two_ctas && Plan::Base::kSmemBytes <= device_smem_optin())
      return launch_fwd_extras<T, typename Plan::Base>(p, s);
  }
  launch_fwd_extras<T, typename Plan::Preferred>(p, s);
}

template <typename T, typename C>
void launch_bwd_extras(const BwdLaunch& l, cudaStream_t s, int smem_optin) {
  if (uses_extras(l.bp.fwd)) launch_bwd_config<T, C, true>(l.bp, *l.context, s, smem_optin);
  else launch_bwd_config<T, C, false>(l.bp, *l.context, s, smem_optin);
}

template <typename T, int kD, int kDv>
void launch_bwd(const void* params, void* stream) {
  using Plan = BwdPlan<kD, kDv>;
  const BwdLaunch& p = *static_cast<const BwdLaunch*>(params);
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  const int optin = device_smem_optin();
  if constexpr (Plan::kTwo) {
    if (Plan::Preferred::kSmemBytes > optin) return launch_bwd_extras<T, typename Plan::Base>(p, s, optin);
  }
  launch_bwd_extras<T, typename Plan::Preferred>(p, s, optin);
}

}  // namespace flashattn::cuda::sm80
