// Tracked, aligned scratch allocation for the CPU backend.
#include "cpu/scratch.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "flashattn/flashattn.h"

namespace flashattn {
namespace {
std::atomic<std::size_t> g_current{0};
std::atomic<std::size_t> g_peak{0};
}  // namespace

std::size_t cpu_scratch_peak_bytes() { return g_peak.load(); }
void reset_cpu_scratch_peak() { g_peak.store(g_current.load()); }

namespace cpu {

void* scratch_allocate(std::size_t bytes, const Allocator& allocator) {
  const std::size_t rounded = (bytes + 63) / 64 * 64;
  void* p = allocator.allocate ? allocator.allocate(rounded == 0 ? 64 : rounded, allocator.user)
                               : std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (p == nullptr) throw std::bad_alloc();
  const std::size_t now = g_current.fetch_add(bytes) + bytes;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return p;
}

void scratch_free(void* ptr, std::size_t bytes, const Allocator& allocator) {
  if (ptr == nullptr) return;
  const std::size_t rounded = (bytes + 63) / 64 * 64;
  if (allocator.deallocate) allocator.deallocate(ptr, rounded == 0 ? 64 : rounded, allocator.user);
  else if (!allocator.allocate) std::free(ptr);
  g_current.fetch_sub(bytes);
}

void Buffer::resize(std::size_t count) {
  if (count > count_) {
    release();
    data_ = static_cast<float*>(scratch_allocate(count * sizeof(float), allocator_));
    count_ = count;
  }
  std::memset(data_, 0, count_ * sizeof(float));
}

void Buffer::release() {
  scratch_free(data_, count_ * sizeof(float), allocator_);
  data_ = nullptr;
  count_ = 0;
}

}  // namespace cpu
}  // namespace flashattn
