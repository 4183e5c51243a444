// Shared by the generated tuning translation units (cmake/cuda.cmake writes one per variant):
// a variant is an sm80 FwdConfig/BwdConfig with overridden tile shape, launched plain (no
// dropout or score modifier) on bf16.
#pragma once

#include "cuda/sm80/launch.h"

struct TuneEntry {
  const char* name;
  bool backward;
  int head_dim;
  int smem_bytes;
  void (*launch)(const void* params, void* stream);
};

template <typename C>
void tune_fwd_launch(const void* params, void* stream) {
  using namespace flashattn::cuda::sm80;
  launch_fwd_config<__nv_bfloat16, C, false>(*static_cast<const FwdParams*>(params), static_cast<cudaStream_t>(stream));
}

template <typename C>
void tune_bwd_launch(const void* params, void* stream) {
  using namespace flashattn::cuda::sm80;
  launch_bwd_config<__nv_bfloat16, C, false>(*static_cast<const BwdParams*>(params), static_cast<cudaStream_t>(stream));
}
