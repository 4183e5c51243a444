// sm90 backward (experimental), bf16, head_dim 64 (compiled for sm_90a only; cmake/cuda.cmake).
#include "cuda/sm90/bwd_launch.h"

namespace flashattn::cuda::sm90 {
template void launch_bwd90<__nv_bfloat16, 64>(const void*, void*);
}  // namespace flashattn::cuda::sm90
