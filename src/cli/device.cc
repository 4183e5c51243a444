// Device: the CPU side is trivial; the CUDA side uses the runtime API only (no kernels), on the
// legacy default stream, which the library's calls also use (Context::cuda_stream = nullptr).
#include "cli/device.h"

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>

#if defined(FLASHATTN_CLI_CUDA)
#include <cuda_runtime_api.h>

#include <cstdio>

#include "common/stream_gate.h"
#endif

namespace flashattn::cli {
namespace {

double wall_seconds(const std::function<void()>& run) {
  const auto t0 = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

Context cpu_context(Backend backend, int threads) {
  Context c;
  c.backend = backend;
  c.num_threads = threads;
  return c;
}

}  // namespace

#if defined(FLASHATTN_CLI_CUDA)

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

}  // namespace

// Events for timing and the scratch counter the allocator callbacks update.
struct Device::Cuda {
  cudaEvent_t start = nullptr, stop = nullptr;
  bool gate_warned = false;
  std::atomic<std::size_t> current{0}, peak{0};

  static void* allocate(std::size_t bytes, void* user) {
    auto* self = static_cast<Cuda*>(user);
    void* p = nullptr;
    if (cudaMallocAsync(&p, bytes, nullptr) != cudaSuccess) return nullptr;
    const std::size_t now = self->current.fetch_add(bytes) + bytes;
    std::size_t peak = self->peak.load();
    while (now > peak && !self->peak.compare_exchange_weak(peak, now)) {
    }
    return p;
  }
  // The library calls this once the work using ptr is queued: cudaFreeAsync on the same stream
  // keeps the memory alive until that work has finished.
  static void deallocate(void* ptr, std::size_t bytes, void* user) {
    cudaFreeAsync(ptr, nullptr);
    static_cast<Cuda*>(user)->current.fetch_sub(bytes);
  }
};

Device::Device(Backend backend) : backend_(backend) {
  if (backend_ != Backend::Cuda) return;
  cuda_ = std::make_unique<Cuda>();
  check(cudaEventCreate(&cuda_->start), "cudaEventCreate");
  check(cudaEventCreate(&cuda_->stop), "cudaEventCreate");
}

Device::~Device() {
  if (!cuda_) return;
  cudaEventDestroy(cuda_->start);
  cudaEventDestroy(cuda_->stop);
}

Context Device::context(int threads) const {
  Context c = cpu_context(backend_, threads);
  if (cuda_) {
    c.allocator.allocate = &Cuda::allocate;
    c.allocator.deallocate = &Cuda::deallocate;
    c.allocator.user = cuda_.get();
  }
  return c;
}

// The run is queued behind a gate (common/stream_gate.h), so the events time the GPU's work and
// not the host's launch path; the gate is released (and the stream drained) on every way out.
double Device::time(const std::function<void()>& run) {
  if (!cuda_) return wall_seconds(run);
  StreamGate gate;
  check(gate.close(nullptr), "cudaLaunchHostFunc");
  struct Opener {
    StreamGate& g;
    ~Opener() {
      g.release();
      cudaStreamSynchronize(nullptr);
    }
  } opener{gate};
  check(cudaEventRecord(cuda_->start, nullptr), "cudaEventRecord");
  run();
  check(cudaEventRecord(cuda_->stop, nullptr), "cudaEventRecord");
  gate.release();
  check(cudaEventSynchronize(cuda_->stop), "cudaEventSynchronize");
  if (gate.timed_out() && !cuda_->gate_warned) {
    cuda_->gate_warned = true;
    std::fprintf(stderr, "warning: the timing gate timed out (a call synchronized the stream?): times include the host\n");
  }
  float ms = 0.0f;
  check(cudaEventElapsedTime(&ms, cuda_->start, cuda_->stop), "cudaEventElapsedTime");
  return double(ms) * 1e-3;
}

std::size_t Device::scratch_peak() const { return cuda_ ? cuda_->peak.load() : cpu_scratch_peak_bytes(); }

void Device::reset_scratch_peak() {
  if (cuda_) cuda_->peak.store(cuda_->current.load());
  else reset_cpu_scratch_peak();
}

std::size_t Device::free_memory() const {
  if (!cuda_) return 0;
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

void Device::Mirror::Free::operator()(void* p) const { cudaFree(p); }

Device::Mirror::Mirror(Device& device, HostTensor* host) : host_(host), view_(host->view()) {
  if (!device.cuda_) return;
  void* p = nullptr;
  check(cudaMalloc(&p, host->bytes() == 0 ? 1 : host->bytes()), "cudaMalloc");
  data_.reset(p);
  view_.data = p;
}

void Device::Mirror::upload() {
  if (data_) check(cudaMemcpy(data_.get(), host_->view().data, host_->bytes(), cudaMemcpyHostToDevice), "upload");
}

void Device::Mirror::download() {
  if (data_) check(cudaMemcpy(host_->view().data, data_.get(), host_->bytes(), cudaMemcpyDeviceToHost), "download");
}

// All-ones bytes are a NaN in float32, float16 and bfloat16 alike.
void Device::Mirror::poison() {
  if (data_) check(cudaMemsetAsync(data_.get(), 0xFF, host_->bytes(), nullptr), "cudaMemsetAsync");
  else host_->poison();
}

#else  // CPU only

struct Device::Cuda {};

Device::Device(Backend backend) : backend_(backend) {
  if (backend_ == Backend::Cuda)
    throw std::runtime_error("this flashattn command was built without CUDA: use --device cpu");
}

Device::~Device() = default;

Context Device::context(int threads) const { return cpu_context(backend_, threads); }
double Device::time(const std::function<void()>& run) { return wall_seconds(run); }

std::size_t Device::scratch_peak() const { return cpu_scratch_peak_bytes(); }
void Device::reset_scratch_peak() { reset_cpu_scratch_peak(); }
std::size_t Device::free_memory() const { return 0; }

void Device::Mirror::Free::operator()(void*) const {}

Device::Mirror::Mirror(Device&, HostTensor* host) : host_(host), view_(host->view()) {}
void Device::Mirror::upload() {}
void Device::Mirror::download() {}
void Device::Mirror::poison() { host_->poison(); }

#endif

}  // namespace flashattn::cli
