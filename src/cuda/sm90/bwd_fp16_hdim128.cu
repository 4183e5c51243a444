// sm90 backward (experimental), fp16, head_dim 128 (compiled for sm_90a only; cmake/cuda.cmake).
#include "cuda/sm90/bwd_launch.h"

namespace flashattn::cuda::sm90 {
template void launch_bwd90<__half, 128>(const void*, void*);
}  // namespace flashattn::cuda::sm90
