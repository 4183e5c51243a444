// Where the library reads and writes during the benchmark. On the CPU that is the host tensors
// themselves. On CUDA every host tensor gets a device mirror (uploaded after filling, downloaded
// for checking), runs are timed with CUDA events, and the library's scratch memory goes through
// a counting stream-ordered allocator so that its peak is known, as cpu_scratch_peak_bytes() is
// on the CPU. CUDA support is compiled in with FLASHATTN_CLI_CUDA (a CUDA build of flashattn).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "cli/tensors.h"
#include "flashattn/flashattn.h"

namespace flashattn::cli {

class Device {
 public:
  // Throws std::runtime_error for CUDA when this program was built without it.
  explicit Device(Backend backend);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  Backend backend() const { return backend_; }
  // The context of library calls: backend, CPU threads, and on CUDA the stream and allocator.
  Context context(int threads) const;
  // Seconds that run() takes: wall clock on the CPU, CUDA events around it on CUDA (the GPU's time
  // alone: the run is queued behind a gate, common/stream_gate.h).
  double time(const std::function<void()>& run);
  // The library's scratch memory: peak bytes since the last reset.
  std::size_t scratch_peak() const;
  void reset_scratch_peak();
  // Free device memory (CUDA), 0 on the CPU.
  std::size_t free_memory() const;

  // A tensor as the library sees it: the host tensor itself on the CPU, a device copy on CUDA.
  class Mirror {
   public:
    Mirror() = default;
    Mirror(Device& device, HostTensor* host);
    const TensorView& view() const { return view_; }
    void upload();    // host -> device (nothing to do on the CPU)
    void download();  // device -> host (nothing to do on the CPU)
    void poison();    // every element NaN, where the library writes it

   private:
    struct Free {
      void operator()(void* p) const;
    };
    HostTensor* host_ = nullptr;
    std::unique_ptr<void, Free> data_;  // CUDA only
    TensorView view_;
  };

 private:
  struct Cuda;
  Backend backend_;
  std::unique_ptr<Cuda> cuda_;
};

}  // namespace flashattn::cli
