// Launcher of the sm90 forward kernel, instantiated once per (dtype, head_dim tier) in
// src/cuda/sm90/fwd_*.cu. The tensor maps are built on the host (launch.cu) from the problem.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>

#include "cuda/sm80/check.h"
#include "cuda/sm90/fwd_kernel.h"

namespace flashattn::cuda::sm90 {

// The plain kernel in clusters of two (fwd_kernel.h kCluster) on at most `blocks` CTAs (`tiles`
// tiles): as many pairs as fit at once (cudaOccupancyMaxActiveClusters, once a device: a persistent
// grid assumes every cluster is resident). Its schedule's units are pairs of tiles on clusters:
// the launcher's stream-K tail (planned for blocks / 2 clusters, its workspace a slot per CTA of
// `blocks`) is planned again where fewer fit, and the whole rounds counted in pairs.
template <typename T, typename C>
void launch_fwd90_cluster(FwdParams90 P, int64_t tiles, int64_t blocks, cudaStream_t stream) {
  auto kernel = fwd_kernel<T, C, false, false, false, false, false, true>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes),
        "cudaFuncSetAttribute(sm90 fwd_kernel, cluster)");
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.blockDim = dim3(C::kThreads);
  cfg.dynamicSmemBytes = C::kSmemBytes;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  constexpr int kMaxDevices = 64;
  static std::atomic<int> fit[kMaxDevices];  // clusters resident at once, per device (0: not asked yet)
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  int clusters = dev < kMaxDevices ? fit[dev].load() : 0;
  if (clusters == 0) {
    cfg.gridDim = dim3(unsigned(blocks));
    check(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg), "cudaOccupancyMaxActiveClusters(sm90 fwd_kernel)");
    if (clusters < 1) throw CudaError("flashattn: internal error: no cluster of two sm90 forward CTAs fits an SM pair");
    if (dev < kMaxDevices) fit[dev].store(clusters);
  }
  const int64_t used = std::min<int64_t>(blocks / 2, clusters), pairs = tiles / 2;
  P.sk.plan = StreamK(pairs, used, P.sk.plan.width > 0 ? P.sk.plan.nk : 0);
  cfg.gridDim = dim3(unsigned(2 * used));
  check(cudaLaunchKernelEx(&cfg, kernel, P), "launch sm90 fwd_kernel (cluster)");
}

template <typename T, typename C, bool kExtras, bool kDrop = false, bool kCap = false, bool kAlibi = false>
void launch_fwd90_config(FwdParams90 P, cudaStream_t stream) {
  static_assert(C::kSmemBytes <= C::kBudget, "Hopper's shared memory per block");
  if (P.block_m != C::kBlockM || P.block_n != C::kBlockN)
    throw CudaError("flashattn: internal error: sm90 forward tensor maps built for a " + std::to_string(P.block_m) +
                    "x" + std::to_string(P.block_n) + " tile, configuration " + std::to_string(C::kBlockM) + "x" +
                    std::to_string(C::kBlockN));
  if ((kExtras || kDrop || kAlibi) && P.pack != 1)
    throw CudaError("flashattn: internal error: sm90 forward with packed GQA heads on the kernel with extras, dropout "
                    "or ALiBi");
  const int rows_per_head = C::kBlockM / P.pack;  // (pack is 1 for the extras kernel: launch.cu)
  P.p.num_m_blocks = (P.p.seqlen_q + rows_per_head - 1) / rows_per_head;
  const int64_t pairs = int64_t(P.p.batch) * (P.p.num_heads / P.pack);
  const int64_t tiles = fwd90_tiles(P.p.seqlen_q, rows_per_head, pairs);
  if (tiles == 0) return;
  if (tiles >= (int64_t(1) << 31)) throw CudaError("flashattn: internal error: sm90 forward with 2^31 tiles or more");
  // (A cluster's map is over its units, pairs of query blocks 2 m and 2 m + 1 of one head: the
  // kernel takes block 2 m + its rank; causal, the longest pairs first.)
  P.tiles = TileMap90(pairs, P.cluster ? P.p.num_m_blocks / 2 : P.p.num_m_blocks, P.p.causal,
                      P.p.cu_seqlens_q != nullptr, P.group_heads);
  P.heads_div = FastDiv(uint32_t(P.p.num_heads / P.pack));
  P.rows_div = FastDiv(uint32_t(rows_per_head));
  const int64_t blocks = fwd90_grid(tiles, P.persistent != 0, P.sm_count);
  check_grid(blocks);
  if (P.sk.plan.width > 0 && (tiles != P.sk.tiles || blocks != P.sk.grid))
    throw CudaError("flashattn: internal error: sm90 forward stream-K tail planned for " + std::to_string(P.sk.tiles) +
                    " tiles on " + std::to_string(P.sk.grid) + " CTAs, launched " + std::to_string(tiles) + " on " +
                    std::to_string(blocks));
  if (P.sk.plan.width == 0) P.sk.plan = StreamK(tiles, blocks, 0);  // whole rounds only: their count
  if constexpr (!kExtras && !kDrop && !kCap && !kAlibi && fwd90_has_cluster_kernel<C>()) {
    if (P.cluster) {
      if (blocks % 2 != 0 || P.p.num_m_blocks % 2 != 0 || fwd90_switched(P))
        throw CudaError("flashattn: internal error: sm90 forward cluster on an odd grid or with switches");
      launch_fwd90_cluster<T, C>(P, tiles, blocks, stream);
      return;
    }
  }
  if (P.cluster) throw CudaError("flashattn: internal error: sm90 forward cluster for a kernel without one");
  // The build with the switches' defaults compiled in unless one is off its default (fwd_kernel.h;
  // kCap and kAlibi have that build only: fwd90_cap_call, fwd90_alibi_call).
  auto kernel = fwd_kernel<T, C, kExtras, kDrop, false, kCap, kAlibi>;
  if (fwd90_switched(P)) {
    if constexpr (kCap || kAlibi)
      throw CudaError("flashattn: internal error: the sm90 forward's kCap / kAlibi with a switch off its default");
    else kernel = fwd_kernel<T, C, kExtras, kDrop, true>;
  }
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes),
              "cudaFuncSetAttribute(sm90 fwd_kernel)");
  kernel<<<unsigned(blocks), C::kThreads, C::kSmemBytes, stream>>>(P);
  check(cudaGetLastError(), "launch sm90 fwd_kernel");
}

template <typename T, typename C>
void launch_fwd90_extras(const FwdParams90& P, cudaStream_t s) {
  if (fwd90_plain(P.p)) {
    launch_fwd90_config<T, C, false>(P, s);
    return;
  }
  if constexpr (fwd90_has_cap_kernel<C>()) {
    if (fwd90_takes_cap(P, C::kD, C::kBlockN)) {
      launch_fwd90_config<T, C, false, false, true>(P, s);
      return;
    }
  }
  if constexpr (fwd90_has_alibi_kernel<C>()) {
    if (fwd90_takes_alibi(P, C::kD, C::kBlockN)) {
      launch_fwd90_config<T, C, false, false, false, true>(P, s);
      return;
    }
  }
  if constexpr (fwd90_has_drop_kernel<C>()) {
    if (fwd90_plain_scores(P.p) && P.drop_kernel) {
      launch_fwd90_config<T, C, false, true>(P, s);
      return;
    }
  }
  launch_fwd90_config<T, C, true>(P, s);
}

template <typename T, int kD, int kDv = kD>
void launch_fwd90(const void* params, void* stream) {
  const FwdParams90& P = *static_cast<const FwdParams90*>(params);
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  if constexpr (fwd90_consumers(kD, true) == 3) {
    if (P.three_consumers) {
      launch_fwd90_extras<T, Fwd90ConfigFor<kD, false, kDv, 3>>(P, s);
      return;
    }
  }
  if (P.alt) launch_fwd90_extras<T, Fwd90ConfigFor<kD, true, kDv>>(P, s);
  else launch_fwd90_extras<T, Fwd90ConfigFor<kD, false, kDv>>(P, s);
}

}  // namespace flashattn::cuda::sm90
