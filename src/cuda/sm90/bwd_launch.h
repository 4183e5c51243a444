// Launcher of the sm90 backward kernel, instantiated once per (dtype, head_dim
// tier) in src/cuda/sm90/bwd_*.cu. The tensor maps and the workspace come from the host side
// (bwd_launch.cu, around the sm80 path's D and dq conversion kernels).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cuda/backend.h"
#include "cuda/sm80/check.h"
#include "cuda/sm90/bwd_kernel.h"

namespace flashattn::cuda::sm90 {

template <typename T, typename C, bool kExtras, bool kKRegs = false, bool kDrop = false, bool kCap = false,
          bool kAlibi = false>
void launch_bwd90_config(BwdParams90 P, cudaStream_t stream) {
  // The tensor maps of q, dout (and dq) were built for boxes of P.block_m rows, k and v of P.block_n.
  if (P.block_m != C::kBlockM || P.block_n != C::kBlockN)
    throw CudaError("flashattn: internal error: sm90 backward tensor maps for " + std::to_string(P.block_m) + "/" +
                    std::to_string(P.block_n) + "-row boxes, kernel steps of " + std::to_string(C::kBlockM) +
                    " queries and blocks of " + std::to_string(C::kBlockN) + " keys");
  P.bp.num_n_blocks = (P.bp.fwd.seqlen_k + C::kBlockN - 1) / C::kBlockN;
  const int64_t tiles = int64_t(P.bp.num_n_blocks) * P.bp.fwd.batch * P.bp.fwd.num_heads_kv;
  if (tiles == 0) return;
  check_grid(tiles);
  const int64_t pairs = int64_t(P.bp.fwd.batch) * P.bp.fwd.num_heads_kv;
  P.tiles = TileMap90(pairs, P.bp.num_n_blocks, P.head_group > 0, false, P.head_group);
  // One CTA a tile, the launcher's stream-K plan (bwd_launch.cu) over a persistent grid, or a
  // persistent grid of P.dyn_grid CTAs that take their tiles dynamically (BwdParams90::tile_counter).
  int64_t blocks = tiles;
  if (P.tile_counter != nullptr) {
    if (P.sk.plan.width > 0 || P.dyn_grid <= 0)
      throw CudaError("flashattn: internal error: the sm90 backward's dynamic tiles with a stream-K plan or no grid");
    blocks = std::min<int64_t>(P.dyn_grid, tiles);
    P.sk.plan = StreamK(tiles, tiles, 0);
    launch_counters().sm90_bwd_dynamic.fetch_add(1, std::memory_order_relaxed);
  } else if (P.sk.plan.width > 0) {
    if (P.sk.tiles != tiles || P.sk.grid <= 0 || P.sk.grid > tiles || P.sk.part == nullptr)
      throw CudaError("flashattn: internal error: the sm90 backward's stream-K plan is for " +
                      std::to_string(P.sk.tiles) + " tiles, the kernel has " + std::to_string(tiles));
    blocks = P.sk.grid;
  } else {
    P.sk.plan = StreamK(tiles, tiles, 0);
  }
  if (P.dq_scale_out != nullptr) *P.dq_scale_out = bwd90_scale_out<C, kExtras>() ? P.bp.fwd.scale : 1.0f;
  if constexpr (kCap) launch_counters().sm90_bwd_cap.fetch_add(1, std::memory_order_relaxed);
  if constexpr (kAlibi) launch_counters().sm90_bwd_alibi.fetch_add(1, std::memory_order_relaxed);
  auto kernel = bwd_kernel<T, C, kExtras, kKRegs, kDrop, kCap, kAlibi>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes),
        "cudaFuncSetAttribute(sm90 bwd_kernel)");
  kernel<<<unsigned(blocks), C::kThreads, C::kSmemBytes, stream>>>(P);
  check(cudaGetLastError(), "launch sm90 bwd_kernel");
}

// The plain kernel with one modifier (P.one_mod(): kCap or kAlibi) where bwd90_has_mod builds it.
template <typename T, typename C, bool kKRegs>
void launch_bwd90_mod(const BwdParams90& P, cudaStream_t s) {
  if constexpr (bwd90_has_mod(C::kD, C::kBlockM, C::kDqSmem, kKRegs)) {
    if (P.cap) return launch_bwd90_config<T, C, false, kKRegs, false, true>(P, s);
    return launch_bwd90_config<T, C, false, kKRegs, false, false, true>(P, s);
  }
  throw CudaError("flashattn: internal error: no sm90 backward kernel with softcap or ALiBi alone for this "
                  "configuration");
}

// 64-query steps (tiers 64 and 128): softcap or ALiBi alone by kCap / kAlibi where bwd90_has_mod
// builds them, other score modifiers (with or without dropout) in the kernel with extras; dropout
// alone by kDrop at head_dim 128 and in the kernel with extras at head_dim 64 (there only on
// request, FLASHATTN_SM90_BWD_BLOCK_M=64: one kernel fewer to compile).
template <typename T, typename C>
void launch_bwd90_steps64(const BwdParams90& P, cudaStream_t s) {
  if (P.one_mod()) return launch_bwd90_mod<T, C, false>(P, s);  // (tier 128 with the dQ variant)
  constexpr bool kDropHere = C::kD == 128;
  if (P.extras() || (P.dropout() && !kDropHere)) {
    launch_bwd90_config<T, C, true>(P, s);
  } else if (P.dropout()) {
    if constexpr (kDropHere) launch_bwd90_config<T, C, false, false, true>(P, s);
  } else {
    launch_bwd90_config<T, C, false>(P, s);
  }
}

// 128-query steps (tier 64): plain scores or one modifier alone (kCap, kAlibi, with K in
// registers; the kernel with extras would not fit the registers), dropout by kDrop. K's A
// fragments in registers by default (FLASHATTN_SM90_BWD_K_REGS=0: in shared memory;
// bwd_kernel.h); with dropout in shared memory (registers).
template <typename T, typename C>
void launch_bwd90_steps128(const BwdParams90& P, cudaStream_t s) {
  if (P.one_mod()) {
    if (!P.k_regs)
      throw CudaError("flashattn: internal error: the sm90 backward's kCap / kAlibi at 128-query steps keep K in "
                      "registers");
    return launch_bwd90_mod<T, C, true>(P, s);
  }
  if (P.extras())
    throw CudaError("flashattn: internal error: the sm90 backward's 128-query steps take no score modifier");
  if (P.dropout()) launch_bwd90_config<T, C, false, false, true>(P, s);
  else if (P.k_regs) launch_bwd90_config<T, C, false, true>(P, s);
  else launch_bwd90_config<T, C, false>(P, s);
}

// The split tiers (192, 256; kSplitD: roles, split_step): one schedule, a score modifier or dropout in the
// kernel with extras.
template <typename T, typename C>
void launch_bwd90_split(const BwdParams90& P, cudaStream_t s) {
  if (P.extras() || P.dropout()) launch_bwd90_config<T, C, true>(P, s);
  else launch_bwd90_config<T, C, false>(P, s);
}

template <typename T, int kD, int kBlockM>
void launch_bwd90_block(const BwdParams90& P, cudaStream_t s) {
  if constexpr (kBlockM == 128) {
    if (P.dq_smem) launch_bwd90_steps128<T, Bwd90Config<kD, true, kBlockM>>(P, s);
    else launch_bwd90_steps128<T, Bwd90Config<kD, false, kBlockM>>(P, s);
  } else if constexpr (Bwd90Config<kD>::kSplitD) {
    // Head_dim 192, 256 (kSplitD): dropout in the kernel with extras (the schedule of
    // kSplitD); at 256 the dQ variant stages dQ in the ring stage (kDqStage: padded batch only).
    if (P.dq_smem) {
      if (bwd90_dq_staged(kD) && !P.dq_tensor)
        throw CudaError("flashattn: internal error: the sm90 backward's dQ staging at head_dim 256 takes a padded batch");
      return launch_bwd90_split<T, Bwd90Config<kD, true, kBlockM>>(P, s);
    }
    launch_bwd90_split<T, Bwd90Config<kD, false, kBlockM>>(P, s);
  } else if (P.dq_smem) {
    launch_bwd90_steps64<T, Bwd90Config<kD, true, kBlockM>>(P, s);
  } else {
    launch_bwd90_steps64<T, Bwd90Config<kD, false, kBlockM>>(P, s);
  }
}

// params: a BwdParams90 (sm90_backward builds it).
template <typename T, int kD>
void launch_bwd90(const void* params, void* stream) {
  const BwdParams90& P = *static_cast<const BwdParams90*>(params);
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  // Only the writer warp of the dQ-via-shared-memory scheme orders its additions.
  if (P.bp.deterministic && !P.dq_smem)
    throw CudaError("flashattn: internal error: the deterministic sm90 backward runs the dQ-TMA scheme only");
  if constexpr (kD == 64) {
    if (P.block_m == 128) return launch_bwd90_block<T, kD, 128>(P, s);
  }
  if constexpr (kD == 128) {
    // 80-query steps (bwd_config.h kDqT), where bwd90_steps80_ok allowed them (bwd_launch.cu):
    // plain scores or one modifier alone (kCap, kAlibi), the dQ variant's tensor form.
    if (P.block_m == 80) {
      if (!bwd90_steps80_ok(kD, P.extras() && !P.one_mod(), P.dropout(), P.bp.deterministic, P.dq_smem && P.dq_tensor))
        throw CudaError("flashattn: internal error: the sm90 backward's 80-query steps take plain scores or softcap or "
                        "ALiBi alone, no dropout, no determinism and a padded batch");
      launch_counters().sm90_bwd_steps80.fetch_add(1, std::memory_order_relaxed);
      using C80 = Bwd90Config<kD, true, 80>;
      if (P.one_mod()) return launch_bwd90_mod<T, C80, false>(P, s);
      return launch_bwd90_config<T, C80, false>(P, s);
    }
  }
  launch_bwd90_block<T, kD, 64>(P, s);
}

}  // namespace flashattn::cuda::sm90
