// The public entry points: resolve the backend, validate into a Problem (nothing is written when
// that throws), then hand the Problem to the backend the selector picks.
#include "cpu/cpu_backend.h"
#include "dispatch/problem.h"

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
    case Backend::Cuda: return false;  // the CUDA backend is not built yet
    default: return false;
  }
}

void validate(const ForwardArgs& args, const Context& context) {
  make_problem(args, resolve_backend(context));
}

void validate(const BackwardArgs& args, const Context& context) {
  make_problem(args, resolve_backend(context));
}

RunInfo forward(const ForwardArgs& args, const Context& context) {
  const Backend backend = resolve_backend(context);
  const Problem p = make_problem(args, backend);
  cpu::forward(p, context.num_threads);
  return RunInfo{backend, "cpu"};
}

RunInfo backward(const BackwardArgs& args, const Context& context) {
  const Backend backend = resolve_backend(context);
  const Problem p = make_problem(args, backend);
  cpu::backward(p, context.num_threads);
  return RunInfo{backend, "cpu"};
}

}  // namespace flashattn
