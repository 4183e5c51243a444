// Scratch buffers of the CPU backend. Every temporary goes through here so that the peak amount
// of scratch memory is known (the benchmark shows it is linear in seqlen, never quadratic).
#pragma once

#include <cstddef>

#include "flashattn/flashattn.h"

namespace flashattn::cpu {

// From the caller's Allocator when it has one (it must be thread-safe: worker threads allocate),
// else aligned_alloc. Either way the bytes are counted for cpu_scratch_peak_bytes().
void* scratch_allocate(std::size_t bytes, const Allocator& allocator);
void scratch_free(void* ptr, std::size_t bytes, const Allocator& allocator);

// A 64-byte aligned, zero-initialized float buffer, freed when it goes out of scope.
class Buffer {
 public:
  explicit Buffer(const Allocator& allocator) : allocator_(allocator) {}
  Buffer(std::size_t count, const Allocator& allocator) : allocator_(allocator) { resize(count); }
  ~Buffer() { release(); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void resize(std::size_t count);  // contents become zero
  float* data() { return data_; }
  float& operator[](std::size_t i) { return data_[i]; }
  std::size_t size() const { return count_; }

 private:
  void release();
  Allocator allocator_;
  float* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace flashattn::cpu
