// The kernel selector. CUDA: the sm80 path (mma.sync) covers every option; what decides is the
// device (compute capability 8.0+, a kernel image in this build, enough shared memory) and
// whether the head_dim tier was built (FLASHATTN_HEAD_DIMS). head_dim and head_dim_v share one
// tier (the larger; both zero-padded up to it), except the dedicated 192/128 instantiation.
#include "dispatch/select.h"

#include <string>

#ifdef FLASHATTN_WITH_CUDA
#include "cuda/backend.h"
#endif

namespace flashattn {

int head_dim_tier(int head_dim) {
  constexpr int kTiers[] = {32, 64, 96, 128, 160, 192, 224, 256};
  for (int t : kTiers)
    if (head_dim <= t) return t;
  return 0;
}

namespace {

KernelChoice refuse(std::string argument, std::string reason) {
  KernelChoice c;
  c.argument = std::move(argument);
  c.reason = std::move(reason);
  return c;
}

#ifdef FLASHATTN_WITH_CUDA
KernelChoice select_cuda(const Problem& p, Pass pass) {
  const cuda::DeviceInfo dev = cuda::current_device();
  if (dev.arch < 80)
    return refuse("context.backend", "the CUDA kernels need compute capability 8.0 or newer, this device is sm_" +
                                         std::to_string(dev.arch));
  if (!dev.has_sm80_image)
    return refuse("context.backend", "this build has no kernel image for sm_" + std::to_string(dev.arch) +
                                         " (rebuild with it in FLASHATTN_CUDA_ARCHS)");
  if (p.dtype != DType::Float16 && p.dtype != DType::BFloat16)
    return refuse("q", "the CUDA kernels take float16 or bfloat16");
  const int td = head_dim_tier(p.head_dim), tv = head_dim_tier(p.head_dim_v);
  int want_d = td > tv ? td : tv, want_v = want_d;
  if (td == 192 && tv == 128) want_v = 128;  // the dedicated (192, 128) instantiation
  const cuda::Direction dir = pass == Pass::Forward ? cuda::Direction::Forward : cuda::Direction::Backward;
#ifdef FLASHATTN_WITH_SM90
  // Hopper, when the operands suit TMA: the sm90 forward for its tiers (64, 96, 128, 192, 256, and
  // head_dim 192 with head_dim_v 128); the sm90 backward (by default for head_dim 33-256;
  // FLASHATTN_EXPERIMENTAL_SM90_BWD=1/0 forces it on/off) for tiers 64, 128, 192, 256 with
  // head_dim == head_dim_v, GQA/MQA, masks, varlen, score modifiers, dropout, and deterministic
  // (not varlen at tier 256) (sm90_bwd_eligible). Everything else (other tiers and pairs) runs on
  // the sm80 path.
  const bool sm90 = dev.arch == 90 && cuda::sm90_enabled() &&
                    (pass == Pass::Forward ? cuda::sm90_eligible(p)
                                           : cuda::sm90_bwd_enabled(p) && cuda::sm90_bwd_eligible(p));
  if (sm90) {
    int n90 = 0;
    const cuda::KernelEntry* t90 = pass == Pass::Forward ? cuda::sm90_kernels(&n90) : cuda::sm90_bwd_kernels(&n90);
    // The sm90 backward has no tiers 96, 160 and 224: head_dim 72-96 runs its tier 128, padded, as
    // 104 does (session 8, head_dim 96 at seqlen 8k: 405 TFLOP/s against the sm80 tier 96's 224);
    // 129-160 its tier 192, 193-224 its tier 256 (session 10).
    auto bwd_tier = [&](int t) {
      return pass != Pass::Backward ? t : t == 96 ? 128 : t == 160 ? 192 : t == 224 ? 256 : t;
    };
    const int want90 = bwd_tier(want_d), want90_v = bwd_tier(want_v);
    for (int i = 0; i < n90; ++i)
      if (t90[i].dtype == p.dtype && t90[i].head_dim == want90 && t90[i].head_dim_v == want90_v &&
          t90[i].smem_bytes <= dev.smem_optin) {
        KernelChoice c;
        c.supported = true;
        c.path = "cuda-sm90";
        c.kernel = &t90[i];
        c.sm90 = true;
        return c;
      }
  }
#endif
  int count = 0;
  const cuda::KernelEntry* table = cuda::sm80_kernels(&count);
  for (int i = 0; i < count; ++i) {
    const cuda::KernelEntry& e = table[i];
    if (e.direction != dir || e.dtype != p.dtype || e.head_dim != want_d || e.head_dim_v != want_v) continue;
    if (e.smem_bytes > dev.smem_optin)
      return refuse("q", "head_dim tier " + std::to_string(want_d) + " needs " + std::to_string(e.smem_bytes) +
                             " bytes of shared memory per block; this device (sm_" + std::to_string(dev.arch) +
                             ") allows " + std::to_string(dev.smem_optin));
    KernelChoice c;
    c.supported = true;
    c.path = "cuda-sm80";
    c.kernel = &e;
    return c;
  }
  std::string tier = std::to_string(want_d);
  if (want_v != want_d) tier += "x" + std::to_string(want_v);
  return refuse("q", "head_dim tier " + tier + " (" + dtype_name(p.dtype) + ", " +
                         (pass == Pass::Forward ? "forward" : "backward") +
                         ") is not in this build (FLASHATTN_HEAD_DIMS)");
}
#endif

}  // namespace

KernelChoice select_kernel(const Problem& p, Pass pass) {
  if (p.backend == Backend::Cpu) {
    KernelChoice c;
    c.supported = true;
    c.path = "cpu";
    return c;
  }
#ifdef FLASHATTN_WITH_CUDA
  if (p.backend == Backend::Cuda) return select_cuda(p, pass);
#else
  (void)pass;
#endif
  return refuse("context.backend", std::string(backend_name(p.backend)) + " is not built");
}

}  // namespace flashattn
