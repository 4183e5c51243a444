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
// `count` arrivals at once (sm_90): the forward's producer arrives for the consumer warpgroups
// that skip a tile.
__device__ __forceinline__ void mbar_arrive(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
// Waits until the phase with parity `phase` of the barrier has completed.
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t phase) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(phase)
      : "memory");
}

// The same for a warp with nothing else to do (the producer's and the dQ writer's waits): each
// try_wait may suspend the thread for up to 1 ms until the phase completes, instead of the
// system's short default, so that it does not spin. (Spinning producer warps issued about a
// third of the sm90 backward's instructions, on the schedulers the consumers' warps share:
// session 6's Nsight Compute source counters.)
// (SEM: the try_wait's semantics and scope, "" for the default, acquire at CTA scope.)
#define FA_MBAR_WAIT_IDLE(SEM, bar, phase)                                             \
  asm volatile(                                                                        \
      "{\n"                                                                            \
      ".reg .pred done;\n"                                                             \
      "WAIT_%=:\n"                                                                     \
      "mbarrier.try_wait.parity" SEM ".shared::cta.b64 done, [%0], %1, %2;\n"          \
      "@!done bra WAIT_%=;\n"                                                          \
      "}\n" ::"r"(smem_addr(bar)),                                                     \
      "r"(phase), "r"(1000000u)                                                        \
      : "memory")
__device__ __forceinline__ void mbar_wait_idle(uint64_t* bar, uint32_t phase) { FA_MBAR_WAIT_IDLE("", bar, phase); }

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
// The same box into this CTA's and the peer CTAs' shared memory at `dst`'s offset (ctaMask: the
// cluster ranks that receive it), completing its bytes on each receiver's barrier at `bar`'s
// offset (PTX 9.7.9.25.5.1, .multicast::cluster; sm_90a). The forward's K/V in a cluster of two
// (fwd_kernel.h kCluster): each CTA loads half of a tile's rows for both.
__device__ __forceinline__ void tma_load_4d_multicast(void* dst, const void* tensor_map, uint64_t* bar, int c0, int c1,
                                                      int c2, int c3, uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, "
      "{%3, %4, %5, %6}], [%2], %7;\n" ::"r"(smem_addr(dst)),
      "l"(tensor_map), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "h"(cta_mask)
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
// rewritten) / have completed (their writes are done). kPending: all but the most recent kPending
// groups.
template <int kPending = 0>
__device__ __forceinline__ void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
}
__device__ __forceinline__ void bulk_wait() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }
__device__ __forceinline__ void prefetch_tensor_map(const void* tensor_map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(tensor_map) : "memory");
}

// ---- clusters (PTX 10.13-10.15 %cluster_ctarank, %clusterid, %nclusterid; 9.7.13.3
// barrier.cluster; 9.7.9.21 mapa) ----------------------------------------------------------------
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t v;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(v));
  return v;
}
__device__ __forceinline__ uint32_t cluster_id_x() {
  uint32_t v;
  asm volatile("mov.u32 %0, %%clusterid.x;\n" : "=r"(v));
  return v;
}
__device__ __forceinline__ uint32_t cluster_count_x() {
  uint32_t v;
  asm volatile("mov.u32 %0, %%nclusterid.x;\n" : "=r"(v));
  return v;
}
// Every thread of the cluster (exited ones count as arrived): this CTA's shared-memory writes and
// barrier inits before the arrival are visible to the cluster after the wait.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
// One arrival on the barrier at `bar`'s offset in the shared memory of cluster rank `cta` (release
// at CTA scope, as a local arrival: what it orders is this thread's completed reads of a stage
// before the peer's TMA rewrites it).
__device__ __forceinline__ void mbar_arrive_cluster(uint64_t* bar, uint32_t cta) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(cta)
      : "memory");
}
// `v` into the int at `p`'s offset in the shared memory of cluster rank `cta`, then one arrival on
// the barrier at `bar`'s offset there, released at cluster scope: a waiter there with
// mbar_wait_idle_cluster reads `v` after its wait (the forward's tile tickets in a cluster).
__device__ __forceinline__ void st_arrive_cluster(int* p, int v, uint64_t* bar, uint32_t cta) {
  asm volatile(
      "{\n"
      ".reg .b32 rp, rb;\n"
      "mapa.shared::cluster.u32 rp, %0, %2;\n"
      "mapa.shared::cluster.u32 rb, %1, %2;\n"
      "st.shared::cluster.u32 [rp], %3;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb];\n"
      "}\n" ::"r"(smem_addr(p)),
      "r"(smem_addr(bar)), "r"(cta), "r"(v)
      : "memory");
}
// mbar_wait_idle with acquire at cluster scope: what a peer CTA wrote before its release arrival
// (st_arrive_cluster) is visible after the wait.
__device__ __forceinline__ void mbar_wait_idle_cluster(uint64_t* bar, uint32_t phase) {
  FA_MBAR_WAIT_IDLE(".acquire.cluster", bar, phase);
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

// 32-bit forms for the backward's dQ tickets (sm80::BwdParams::dq_tickets): an add that returns
// the old value with acquire semantics (atom.acquire, PTX 9.7.13.5), an acquire load, and an add
// with release semantics whose result is not needed (red.release, PTX 9.7.13.6).
__device__ __forceinline__ int atom_add_acquire_gpu(int* p, int v) {
  int old;
  asm volatile("atom.acquire.gpu.global.add.s32 %0, [%1], %2;\n" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ __forceinline__ int ld_acquire_gpu(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void red_add_release_gpu(int* p, int v) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
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
