// Scratch buffers of the CPU backend. Every temporary goes through here so that the peak amount
// of scratch memory is known (the benchmark shows it is linear in seqlen, never quadratic).
#pragma once

#include <cstddef>

namespace flashattn::cpu {

void* scratch_allocate(std::size_t bytes);
void scratch_free(void* ptr, std::size_t bytes);

// A 64-byte aligned, zero-initialized float buffer, freed when it goes out of scope.
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count) { resize(count); }
  ~Buffer() { release(); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void resize(std::size_t count);  // contents become zero
  float* data() { return data_; }
  float& operator[](std::size_t i) { return data_[i]; }
  std::size_t size() const { return count_; }

 private:
  void release();
  float* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace flashattn::cpu
