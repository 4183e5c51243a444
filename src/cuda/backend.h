// The CUDA backend as the rest of the library sees it: plain C++, no CUDA headers, so that
// src/dispatch compiles the same with FLASHATTN_CUDA on or off (it calls these only when
// FLASHATTN_WITH_CUDA is defined). Definitions live in src/cuda/sm80/launch.cu.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>

#include "dispatch/problem.h"

namespace flashattn::cuda {

// Built with CUDA and at least one device is visible (cudaGetDeviceCount > 0).
bool device_present();

struct DeviceInfo {
  int arch = 0;                 // major * 10 + minor of the current device
  std::size_t smem_optin = 0;   // largest dynamic shared memory a block may opt into
  bool has_sm80_image = false;  // this build holds machine code the device can run
};
DeviceInfo current_device();

// Launch counters for tests and diagnostics (not part of the public API): launches of kernel
// variants that an environment knob asks for but a rule may refuse, so that a test can tell the
// variant ran rather than its fallback. Process-wide.
struct LaunchCounters {
  std::atomic<long long> sm90_bwd_steps80{0};  // sm90 backward launches in 80-query steps (bwd_config.h kDqT)
  std::atomic<long long> sm90_bwd_cap{0};  // sm90 backward launches of the plain kernel with softcap (kCap)
  std::atomic<long long> sm90_bwd_alibi{0};  // ... with ALiBi (kAlibi)
  std::atomic<long long> sm90_bwd_dynamic{0};  // sm90 backward launches on the dynamic persistent grid
};
LaunchCounters& launch_counters();

// Copies device (or host) memory to the host on `stream` and waits for that stream.
void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream);

enum class Direction { Forward, Backward };

// One compiled sm80 kernel: a (direction, dtype, head_dim tier, head_dim_v tier) instantiation.
struct KernelEntry {
  Direction direction;
  DType dtype;
  int head_dim;    // tier: q/k columns the kernel holds (the problem's are zero-padded up to it)
  int head_dim_v;  // tier of v/out
  std::size_t smem_bytes;
  void (*launch)(const void* params, void* stream);  // sm80::FwdParams* or sm80::BwdParams*
};

// The table of instantiations in this build (FLASHATTN_HEAD_DIMS decides which).
const KernelEntry* sm80_kernels(int* count);

// Run a validated problem on the kernel the selector picked, on context.cuda_stream.
void sm80_forward(const Problem& p, const KernelEntry& kernel, const Context& context);
void sm80_backward(const Problem& p, const KernelEntry& kernel, const Context& context);

#ifdef FLASHATTN_WITH_SM90
// The sm90 path (Hopper, src/cuda/sm90/launch.cu): forward kernels for head_dim tiers 64, 96,
// 128, 192, 256 (head_dim == head_dim_v).
// Its KernelEntry::launch takes sm90::FwdParams90 (tensor maps included), built by sm90_forward.
const KernelEntry* sm90_kernels(int* count);
// The default forward on sm_90 devices; FLASHATTN_DISABLE_SM90=1 in the environment turns it off.
bool sm90_enabled();
// TMA can load the operands (16-byte aligned bases and strides), head_dim == head_dim_v.
bool sm90_eligible(const Problem& p);
void sm90_forward(const Problem& p, const KernelEntry& kernel, const Context& context);
// The sm90 backward (src/cuda/sm90/bwd_launch.cu): tiers 64, 128, 192 and 256, fp16/bf16,
// head_dim == head_dim_v, dropout (deterministic in key-block order, tiers 64, 128 and 192);
// enabled (sm90_bwd_enabled) by default for head_dim 33-256 (193-224 on tier 256, padded),
// FLASHATTN_EXPERIMENTAL_SM90_BWD=1 / 0 forces it on / off. Its KernelEntry::launch takes sm90::BwdParams90, built by sm90_backward.
const KernelEntry* sm90_bwd_kernels(int* count);
bool sm90_bwd_enabled(const Problem& p);
bool sm90_bwd_eligible(const Problem& p);
void sm90_backward(const Problem& p, const KernelEntry& kernel, const Context& context);
#endif

}  // namespace flashattn::cuda
