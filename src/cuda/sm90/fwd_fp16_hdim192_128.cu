// sm90 forward, fp16, head_dim 192 with head_dim_v 128 (compiled for sm_90a only; cmake/cuda.cmake).
#include "cuda/sm90/launch.h"

namespace flashattn::cuda::sm90 {
template void launch_fwd90<__half, 192, 128>(const void*, void*);
}  // namespace flashattn::cuda::sm90
