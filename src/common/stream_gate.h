// A CUDA stream's timing gate: a host function queued on the stream holds it until the calls to be
// timed are queued behind it, so that CUDA events around each call bracket the GPU's work alone
// (with the stream idle, an event recorded before a call would also count the host's launch path:
// tensor maps, attributes). The hold gives up after 2 s (timed_out): a call that synchronizes the
// stream itself would otherwise wait on it forever. Used by the CLI's bench (src/cli/device.cc) and
// bench/gpu/flashattn_gpu_bench.cc. Host code only.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>

namespace flashattn {

class StreamGate {
 public:
  // Queues the hold on stream s; the gate must outlive it: release() and then synchronize s.
  cudaError_t close(cudaStream_t s) { return cudaLaunchHostFunc(s, &StreamGate::hold, this); }
  void release() { open_.store(true, std::memory_order_release); }
  bool timed_out() const { return timed_out_.load(std::memory_order_acquire); }

 private:
  static void CUDART_CB hold(void* self) {
    auto* g = static_cast<StreamGate*>(self);
    const auto t0 = std::chrono::steady_clock::now();
    while (!g->open_.load(std::memory_order_acquire))
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(2)) {
        g->timed_out_.store(true, std::memory_order_release);
        return;
      }
  }
  std::atomic<bool> open_{false}, timed_out_{false};
};

}  // namespace flashattn
