// The one kernel selector: is_supported() and forward()/backward() both ask select_kernel, so
// "supported" and "what runs" cannot disagree. Key: backend, device arch, dtype, head_dim tiers.
#pragma once

#include <string>

#include "dispatch/problem.h"

namespace flashattn {

#ifdef FLASHATTN_WITH_CUDA
namespace cuda {
struct KernelEntry;
}
#endif

enum class Pass { Forward, Backward };

struct KernelChoice {
  bool supported = false;
  std::string argument;  // the argument the refusal is about (for flashattn::Error)
  std::string reason;    // why not, when unsupported
  std::string path;      // "cpu", "cuda-sm80", "cuda-sm90"
  bool sm90 = false;     // kernel is an sm90 entry (cuda::sm90_forward runs it)
#ifdef FLASHATTN_WITH_CUDA
  const cuda::KernelEntry* kernel = nullptr;
#endif
};

// The head_dim tier a CUDA kernel holds for `head_dim` columns (32, 64, 96, ..., 256).
int head_dim_tier(int head_dim);

KernelChoice select_kernel(const Problem& p, Pass pass);

}  // namespace flashattn
