// A stream-K launch's kernel arguments (the forward's and the backward's last rounds, config.h
// StreamK) and their workspace, one struct for both paths: the plan, what it was planned for, the
// partial results' slots (one a CTA) and their flags, which each piece sets to this launch's epoch
// (unique per launch, so the workspace needs no clearing).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "cuda/sm90/config.h"
#include "cuda/workspace.h"

namespace flashattn::cuda::sm90 {

// A 64-bit tag unique per launch in this process (and, from the clock, unlike another process's):
// a flag or counter left in reused memory never matches it.
inline unsigned long long fresh_epoch() {
  static std::atomic<unsigned long long> next{
      (static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count()) << 20) | 1};
  return next.fetch_add(1);
}

struct StreamKLaunch {
  StreamK plan;                  // width 0: no tail (the launchers fill in whole rounds only)
  int64_t tiles = 0, grid = 0;   // what the plan is for (the kernels' launchers check them)
  float4* part = nullptr;        // grid slots of slot_bytes
  unsigned long long* flag = nullptr;  // grid x flags_per_slot
  unsigned long long epoch = 0;

  // The workspace of `plan` (width > 0) over `grid` CTAs of `tiles` tiles: slot_bytes of partials
  // and flags_per_slot flags a CTA, and a fresh epoch. Host side; the caller keeps the returned
  // workspace alive until the launch is queued (it is freed in stream order).
  std::unique_ptr<Workspace> allocate(const Context& ctx, int64_t tiles_, int64_t grid_, std::size_t slot_bytes,
                                      int flags_per_slot) {
    tiles = tiles_;
    grid = grid_;
    const std::size_t part_bytes = std::size_t(grid) * slot_bytes;
    auto ws = std::make_unique<Workspace>(ctx, part_bytes + std::size_t(grid) * flags_per_slot * 8);
    part = reinterpret_cast<float4*>(ws->data());
    flag = reinterpret_cast<unsigned long long*>(ws->data() + part_bytes);
    epoch = fresh_epoch();
    return ws;
  }
};

}  // namespace flashattn::cuda::sm90
