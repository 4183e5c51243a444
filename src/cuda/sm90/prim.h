// Hopper primitives (sm_90a) for the sm90 kernels: mbarriers, TMA tile loads, wgmma fences,
// register reallocation (the shared-memory matrix descriptors are in desc.h). Each wraps one PTX instruction (or a
// wait loop around one); the PTX ISA sections are named beside them.
#pragma once

#include <cstdint>

#include "cuda/sm90/desc.h"

namespace flashattn::cuda::sm90 {

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarrier (PTX 9.7.13.15) ----------------------------------------------------------------
__device__ __forceinline__ void mbar_init(uint64_t* bar, int arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(arrivals));
}
// Makes the initialized barriers visible to the async proxy (TMA) and the other threads.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// One arrival that also announces `bytes` of transaction (TMA) traffic to wait for.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
// The loop of the waits below around mbarrier.try_wait.parity: SEM "" (acquire at CTA scope, the
// default) or ".acquire.cluster"; HINT "" or ", %2" (a suspend-time hint operand).
#define FA_MBAR_WAIT_ASM(SEM, HINT)                                                                          \
  "{\n.reg .pred done;\nWAIT_%=:\nmbarrier.try_wait.parity" SEM ".shared::cta.b64 done, [%0], %1" HINT \
  ";\n@!done bra WAIT_%=;\n}\n"
// Waits until the phase with parity `phase` of the barrier has completed.
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t phase) {
  asm volatile(FA_MBAR_WAIT_ASM("", "")::"r"(smem_addr(bar)), "r"(phase) : "memory");
}

// The same for a warp with nothing else to do (the producer's and the dQ writer's waits): each
// try_wait may suspend the thread for up to kSuspendNs until the phase completes, instead of the
// system's short default, so that it does not spin. (Spinning producer warps issued about a
// third of the sm90 backward's instructions, on the schedulers the consumers' warps share:
// session 6's Nsight Compute source counters.)
constexpr uint32_t kSuspendNs = 1000000;
__device__ __forceinline__ void mbar_wait_idle(uint64_t* bar, uint32_t phase) {
  asm volatile(FA_MBAR_WAIT_ASM("", ", %2")::"r"(smem_addr(bar)), "r"(phase), "r"(kSuspendNs) : "memory");
}

// ---- clusters (PTX 9.7.13.3 barrier.cluster, 9.7.9.20 mapa, 10.13 %cluster_ctarank) ------------
// The sm90 backward's key-block pairs (Bwd90Config::kPair): two CTAs of a cluster exchange dQ
// through distributed shared memory. This CTA's rank in its cluster (a volatile read, as ctaid_x).
__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t v;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(v));
  return v;
}
// The shared::cluster address of the variable at shared::cta address `addr` in CTA `rank` of the
// cluster (the same offset in its shared memory).
__device__ __forceinline__ uint32_t mapa_shared(uint32_t addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}
// Every non-exited thread of the cluster arrives (release) and waits for the others (acquire):
// after mbarrier initialization, before another CTA's arrivals on them; and before exit, so that
// no CTA leaves while its partner may still address its shared memory. Not .aligned: the threads
// of a warp may reach it apart.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}
// One arrival on the mbarrier at shared::cluster address `cluster_bar` (another CTA's, from
// mapa_shared), with the default semantics, release at CTA scope (PTX 9.7.13.15.13,
// .shared::cluster; sm_90), as CUTLASS's cluster barriers arrive: it orders this thread's earlier
// reads of shared memory (here: a buffer the other CTA's bulk copy then rewrites) before the
// arrival, and the owner waits with mbar_wait. (.release.cluster compiles to MEMBAR.ALL.GPU, and
// the cluster-scope waits to a wait plus CCTL.IVALL, an L1 invalidation.)
__device__ __forceinline__ void mbar_arrive_remote(uint32_t cluster_bar) {
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_bar) : "memory");
}
// Measurement only (FLASHATTN_SM90_BWD_PAIR_SCOPE=cluster, session 31): the same at cluster scope.
__device__ __forceinline__ void mbar_arrive_remote_cluster(uint32_t cluster_bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_bar) : "memory");
}
__device__ __forceinline__ void mbar_wait_cluster(uint64_t* bar, uint32_t phase) {
  asm volatile(FA_MBAR_WAIT_ASM(".acquire.cluster", "")::"r"(smem_addr(bar)), "r"(phase) : "memory");
}
__device__ __forceinline__ void mbar_wait_idle_cluster(uint64_t* bar, uint32_t phase) {
  asm volatile(FA_MBAR_WAIT_ASM(".acquire.cluster", ", %2")::"r"(smem_addr(bar)), "r"(phase), "r"(kSuspendNs)
               : "memory");
}
#undef FA_MBAR_WAIT_ASM

// Copies `bytes` (a multiple of 16; both addresses 16-byte aligned) from this CTA's shared memory
// at `src` to shared::cluster address `cluster_dst` (another CTA's, from mapa_shared) and completes
// that many bytes of transaction on that CTA's mbarrier at `cluster_bar` (PTX 9.7.9.25.4.1
// cp.async.bulk .shared::cluster.shared::cta .mbarrier::complete_tx::bytes; sm_90). The receiver
// waits on the barrier, whose phase expects the bytes (mbar_arrive_expect_tx); that completion is
// also the only sign that the source was read. The source's generic stores need
// fence_proxy_async_shared before the copy is issued.
__device__ __forceinline__ void bulk_copy_cluster(uint32_t cluster_dst, const void* src, uint32_t bytes,
                                                  uint32_t cluster_bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          cluster_dst),
      "r"(smem_addr(src)), "r"(bytes), "r"(cluster_bar)
      : "memory");
}

// The 1024-byte aligned start of the dynamic shared memory (TMA's 128-byte swizzle and the wgmma
// descriptors need 1024-byte aligned panels), by pointer arithmetic on the __shared__ array so
// that the compiler still knows every pointer derived from it is shared (LDS/STS, not generic
// LD/ST through address conversion: casting through an integer lost that).
__device__ __forceinline__ unsigned char* smem_align1024(unsigned char* smem_raw) {
  return smem_raw + ((1024u - (smem_addr(smem_raw) & 1023u)) & 1023u);
}

// ---- TMA (PTX 9.7.9.25.5.1, cp.async.bulk.tensor) ------------------------------------------
// Loads the box at coordinates (c0 innermost .. c3) of the tensor map into shared memory and
// completes `bytes` of transaction on `bar`. Coordinates past the tensor's extent read as zero.
__device__ __forceinline__ void tma_load_4d(void* dst, const void* tensor_map, uint64_t* bar, int c0, int c1, int c2,
                                            int c3) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], "
      "[%2];\n" ::"r"(smem_addr(dst)),
      "l"(tensor_map), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
      : "memory");
}
// Stores the shared-memory box at `src` to the tensor map's box at (c0 .. c3) (bulk async-group
// completion; coordinates past the tensor's extent are not written).
__device__ __forceinline__ void tma_store_4d(const void* tensor_map, const void* src, int c0, int c1, int c2, int c3) {
  asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];\n" ::"l"(tensor_map),
               "r"(smem_addr(src)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
               : "memory");
}
// Adds `bytes` of fp32 values at `src` (shared, 16-byte aligned) element-wise into `dst` (global,
// 16-byte aligned; `bytes` a multiple of 16), each element as an atomic add relative to other
// reductions (PTX ISA 9.7.9.25.4.2, cp.reduce.async.bulk: .dst .global, .src .shared::cta,
// .bulk_group completion, .add with .f32; sm_90, PTX ISA 8.0; the same form as libcu++'s
// cuda::ptx::cp_reduce_async_bulk(space_global, space_shared, op_add, float*, ...), listed in
// NVIDIA/cccl docs/libcudacxx/ptx/instructions/generated/cp_reduce_async_bulk.rst). Completes
// with this thread's bulk groups (bulk_commit, then bulk_wait_read before `src` is rewritten).
__device__ __forceinline__ void bulk_reduce_add_f32(float* dst, const void* src, uint32_t bytes) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;\n" ::"l"(dst),
               "r"(smem_addr(src)), "r"(bytes)
               : "memory");
}
// Adds the shared-memory box at `src` (128-byte aligned) element-wise into the tensor map's box
// at (c0 innermost .. c3), each element an atomic add of the map's type (PTX ISA 9.7.9.25.5.2,
// cp.reduce.async.bulk.tensor: .global.shared::cta, .add, .tile, .bulk_group; sm_90, PTX ISA
// 8.0; libcu++'s cuda::ptx::cp_reduce_async_bulk_tensor, NVIDIA/cccl
// docs/libcudacxx/ptx/instructions/generated/cp_reduce_async_bulk_tensor.rst). Elements past
// the tensor's extent are not touched. Bulk async-group completion, as tma_store_4d.
__device__ __forceinline__ void tma_reduce_add_4d(const void* tensor_map, const void* src, int c0, int c1, int c2,
                                                  int c3) {
  asm volatile(
      "cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3, %4, %5}], [%1];\n" ::"l"(
          tensor_map),
      "r"(smem_addr(src)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
      : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
// Until this thread's bulk groups have finished reading their shared memory (the source may be
// rewritten) / have completed (their writes are done).
__device__ __forceinline__ void bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory"); }
__device__ __forceinline__ void bulk_wait() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }
__device__ __forceinline__ void prefetch_tensor_map(const void* tensor_map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(tensor_map) : "memory");
}

// ---- named barriers (PTX 9.7.13.1, bar.sync / bar.arrive) --------------------------------------
// `threads` (a multiple of 32) arrive in all; sync waits for the rest, arrive does not.
__device__ __forceinline__ void named_bar_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void named_bar_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// blockIdx.x as a volatile read (PTX 10.4 %ctaid): the compiler recomputes what derives from it
// where it is used instead of hoisting it out of loops into registers held throughout.
__device__ __forceinline__ uint32_t ctaid_x() {
  uint32_t v;
  asm volatile("mov.u32 %0, %%ctaid.x;\n" : "=r"(v));
  return v;
}

// ---- release / acquire at GPU scope (PTX 9.7.9.8 st.release, 9.7.9.7 ld.acquire) ------------
// A flag one CTA sets after its stores and another polls before its loads (the forward's stream-K
// pieces, fwd_kernel.h).
__device__ __forceinline__ void st_release_gpu(unsigned long long* p, unsigned long long v) {
  asm volatile("st.release.gpu.global.u64 [%0], %1;\n" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned long long ld_acquire_gpu(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.acquire.gpu.global.u64 %0, [%1];\n" : "=l"(v) : "l"(p) : "memory");
  return v;
}

// ---- proxy fence (PTX 9.7.13.4, fence.proxy.async) -------------------------------------------
// After ordinary st.shared and before a wgmma (async proxy) reads those bytes through a
// descriptor: orders this thread's shared-memory writes with the async proxy's reads.
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// The same between the proxies' accesses to global memory (bulk reductions and generic-proxy
// loads/stores/atomics of one thread).
__device__ __forceinline__ void fence_proxy_async_global() {
  asm volatile("fence.proxy.async.global;\n" ::: "memory");
}

// ---- wgmma ordering (PTX 9.7.15.6) -----------------------------------------------------------
// Before the first wgmma that reads registers written by ordinary instructions (accumulators, A).
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// Waits until at most kPending committed wgmma groups of this warpgroup are in flight.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}
// Keeps the compiler from moving accesses of the accumulator registers across a wgmma boundary.
template <int N>
__device__ __forceinline__ void reg_fence(float (&r)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(r[i])::"memory");
}
template <int N>
__device__ __forceinline__ void reg_fence(uint32_t (&r)[N][4]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) asm volatile("" : "+r"(r[i][j])::"memory");
}

// ---- register reallocation between warpgroups (PTX 9.7.17.1, setmaxnreg) ----------------------
template <int kRegs>
__device__ __forceinline__ void regs_dealloc() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}
template <int kRegs>
__device__ __forceinline__ void regs_alloc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}

}  // namespace flashattn::cuda::sm90
