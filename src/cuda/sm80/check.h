// Every CUDA runtime call is checked: a failure throws CudaError with the call and the CUDA
// error string, never a silent wrong answer.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace flashattn::cuda {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw CudaError(std::string("flashattn: CUDA error in ") + what + ": " + cudaGetErrorName(status) + " (" +
                    cudaGetErrorString(status) + ")");
}

// Grids are one-dimensional in x (2^31 - 1 blocks), so batch * heads never meets the 65535
// limit of y and z.
inline void check_grid(int64_t blocks) {
  if (blocks > 2147483647LL)
    throw CudaError("flashattn: problem too large: " + std::to_string(blocks) + " thread blocks exceed 2^31 - 1");
}

}  // namespace flashattn::cuda
