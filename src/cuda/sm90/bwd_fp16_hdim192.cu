// sm90 backward, fp16, head_dim 192 (head_dim 129-192, padded; the default since session 10;
// compiled for sm_90a only; cmake/cuda.cmake).
#include "cuda/sm90/bwd_launch.h"

namespace flashattn::cuda::sm90 {
template void launch_bwd90<__half, 192>(const void*, void*);
}  // namespace flashattn::cuda::sm90
