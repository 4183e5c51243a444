// The public entry points: resolve the backend, validate into a Problem (nothing is written when
// that throws), ask the selector which kernel runs (the same answer is_supported() gives), run it.
#include "cpu/cpu_backend.h"
#include "dispatch/problem.h"
#include "dispatch/select.h"
#ifdef FLASHATTN_WITH_CUDA
#include "cuda/backend.h"
#endif

namespace flashattn {

const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::Auto: return "auto";
    case Backend::Cpu: return "cpu";
    case Backend::Cuda: return "cuda";
  }
  return "unknown";
}

Backend default_backend() { return backend_available(Backend::Cuda) ? Backend::Cuda : Backend::Cpu; }

bool backend_available(Backend backend) {
  switch (backend) {
    case Backend::Cpu: return true;
#ifdef FLASHATTN_WITH_CUDA
    case Backend::Cuda: {
      static const bool present = cuda::device_present();
      return present;
    }
#endif
    default: return false;
  }
}

void validate(const ForwardArgs& args, const Context& context) {
  make_problem(args, resolve_backend(context), context.cuda_stream);
}

void validate(const BackwardArgs& args, const Context& context) {
  make_problem(args, resolve_backend(context), context.cuda_stream);
}

namespace {

template <typename Args>
Support query(const Args& args, const Context& context, Pass pass) {
  Support s;
  try {
    const Problem p = make_problem(args, resolve_backend(context), context.cuda_stream);
    const KernelChoice k = select_kernel(p, pass);
    s.supported = k.supported;
    s.reason = k.reason;
    s.path = k.path;
  } catch (const Error& e) {
    s.reason = e.what();
  }
  return s;
}

KernelChoice choose(const Problem& p, Pass pass) {
  KernelChoice k = select_kernel(p, pass);
  if (!k.supported) throw Error(k.argument, k.reason);
  return k;
}

}  // namespace

Support is_supported(const ForwardArgs& args, const Context& context) { return query(args, context, Pass::Forward); }
Support is_supported(const BackwardArgs& args, const Context& context) {
  return query(args, context, Pass::Backward);
}

RunInfo forward(const ForwardArgs& args, const Context& context) {
  const Backend backend = resolve_backend(context);
  const Problem p = make_problem(args, backend, context.cuda_stream);
  const KernelChoice k = choose(p, Pass::Forward);
#ifdef FLASHATTN_WITH_CUDA
  if (backend == Backend::Cuda) {
#ifdef FLASHATTN_WITH_SM90
    if (k.sm90) {
      cuda::sm90_forward(p, *k.kernel, context);
      return RunInfo{backend, k.path};
    }
#endif
    cuda::sm80_forward(p, *k.kernel, context);
    return RunInfo{backend, k.path};
  }
#endif
  cpu::forward(p, context);
  return RunInfo{backend, k.path};
}

RunInfo backward(const BackwardArgs& args, const Context& context) {
  const Backend backend = resolve_backend(context);
  const Problem p = make_problem(args, backend, context.cuda_stream);
  const KernelChoice k = choose(p, Pass::Backward);
#ifdef FLASHATTN_WITH_CUDA
  if (backend == Backend::Cuda) {
#ifdef FLASHATTN_WITH_SM90
    if (k.sm90) {
      cuda::sm90_backward(p, *k.kernel, context);
      return RunInfo{backend, k.path};
    }
#endif
    cuda::sm80_backward(p, *k.kernel, context);
    return RunInfo{backend, k.path};
  }
#endif
  cpu::backward(p, context);
  return RunInfo{backend, k.path};
}

}  // namespace flashattn
