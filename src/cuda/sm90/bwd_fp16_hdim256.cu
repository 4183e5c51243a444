// sm90 backward, fp16, head_dim 256 (the default for head_dim 225-256 since session 8, 193-224 since session 10;
// compiled for sm_90a only; cmake/cuda.cmake).
#include "cuda/sm90/bwd_launch.h"

namespace flashattn::cuda::sm90 {
template void launch_bwd90<__half, 256>(const void*, void*);
}  // namespace flashattn::cuda::sm90
