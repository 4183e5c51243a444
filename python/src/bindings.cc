// flashattn._C: the C++ library seen from Python, without libtorch. Tensors arrive as
// (data_ptr, dtype, shape, strides) tuples read from torch tensors by python/flashattn/_lib.py,
// so the module does not depend on the torch version or its C++ ABI. flashattn::Error becomes
// ValueError (the package re-raises it as flashattn.FlashAttnError) at the boundary of each bound
// function (guarded, below); the GIL is released while attention runs and re-acquired only by the
// CUDA allocator hook, which calls into Python.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <exception>
#include <ios>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "flashattn/debug.h"
#include "flashattn/flashattn.h"

namespace py = pybind11;
using namespace flashattn;

namespace {

// The standard streams and the classic locale initialized in this module's C++ runtime, even
// when that runtime is a static copy inside the module (python/CMakeLists.txt): GCC 13 moved
// their initialization into the library, where a static link may leave it out.
const std::ios_base::Init ios_init;

// (data_ptr, dtype code, shape, strides); dtype codes match flashattn::DType.
using ViewTuple = std::tuple<uintptr_t, int, std::vector<int64_t>, std::vector<int64_t>>;

TensorView to_view(const std::optional<ViewTuple>& t, const char* name) {
  TensorView v;
  if (!t) return v;
  const auto& [ptr, dtype, shape, stride] = *t;
  if (shape.size() != stride.size() || shape.size() > size_t(kMaxRank))
    throw Error(name, "rank " + std::to_string(shape.size()) + " is not supported (at most 4)");
  v.data = reinterpret_cast<void*>(ptr);
  v.dtype = DType(dtype);
  v.rank = int(shape.size());
  for (int i = 0; i < v.rank; ++i) {
    v.shape[i] = shape[i];
    v.stride[i] = stride[i];
  }
  return v;
}

// Everything but the tensors, in one struct filled from keyword arguments.
struct Call {
  std::optional<uintptr_t> cu_seqlens_q, cu_seqlens_k;
  int batch = 0, max_seqlen_q = 0, max_seqlen_k = 0;
  std::optional<float> softmax_scale;
  bool causal = false;
  int window_left = -1, window_right = -1;
  float softcap = 0.0f;
  std::optional<ViewTuple> alibi_slopes;
  float dropout_p = 0.0f;
  uint64_t seed = 0, offset = 0;
  bool deterministic = false;
  std::string device = "cpu";
  uintptr_t cuda_stream = 0;
  int num_threads = 0;
  py::object allocator;  // CUDA: an object with alloc(nbytes) -> int and free(ptr); None: library's own
};

Varlen make_varlen(const Call& c) {
  Varlen v;
  if (c.cu_seqlens_q) v.cu_seqlens_q = reinterpret_cast<const int32_t*>(*c.cu_seqlens_q);
  if (c.cu_seqlens_k) v.cu_seqlens_k = reinterpret_cast<const int32_t*>(*c.cu_seqlens_k);
  v.batch = c.batch;
  v.max_seqlen_q = c.max_seqlen_q;
  v.max_seqlen_k = c.max_seqlen_k;
  return v;
}

Options make_options(const Call& c) {
  Options o;
  o.softmax_scale = c.softmax_scale;
  o.causal = c.causal;
  o.window_left = c.window_left;
  o.window_right = c.window_right;
  o.softcap = c.softcap;
  o.alibi_slopes = to_view(c.alibi_slopes, "alibi_slopes");
  o.dropout_p = c.dropout_p;
  o.seed = c.seed;
  o.offset = c.offset;
  o.deterministic = c.deterministic;
  return o;
}

// The hook into a Python allocator (PyTorch's caching allocator on the current stream).
// Called on the calling thread with the GIL released, so it takes the GIL back.
void* py_allocate(std::size_t bytes, void* user) {
  py::gil_scoped_acquire gil;
  try {
    py::object alloc = py::reinterpret_borrow<py::object>(static_cast<PyObject*>(user)).attr("alloc");
    return reinterpret_cast<void*>(py::cast<uintptr_t>(alloc(bytes)));
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("flashattn allocator");
    return nullptr;
  }
}

void py_deallocate(void* ptr, std::size_t, void* user) {
  py::gil_scoped_acquire gil;
  try {
    py::reinterpret_borrow<py::object>(static_cast<PyObject*>(user))
        .attr("free")(reinterpret_cast<uintptr_t>(ptr));
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("flashattn allocator");
  }
}

Context make_context(const Call& c) {
  Context ctx;
  if (c.device == "cpu") {
    ctx.backend = Backend::Cpu;
  } else if (c.device == "cuda") {
    ctx.backend = Backend::Cuda;
  } else {
    throw Error("device", "must be 'cpu' or 'cuda', got '" + c.device + "'");
  }
  ctx.num_threads = c.num_threads;
  ctx.cuda_stream = reinterpret_cast<void*>(c.cuda_stream);
  if (ctx.backend == Backend::Cuda && !c.allocator.is_none()) {
    ctx.allocator.allocate = py_allocate;
    ctx.allocator.deallocate = py_deallocate;
    ctx.allocator.user = c.allocator.ptr();
  }
  return ctx;
}

Call read_call(const py::kwargs& kw) {
  Call c;
  for (auto item : kw) {
    const std::string key = py::cast<std::string>(item.first);
    py::handle v = item.second;
    if (key == "cu_seqlens_q") c.cu_seqlens_q = py::cast<std::optional<uintptr_t>>(v);
    else if (key == "cu_seqlens_k") c.cu_seqlens_k = py::cast<std::optional<uintptr_t>>(v);
    else if (key == "batch") c.batch = py::cast<int>(v);
    else if (key == "max_seqlen_q") c.max_seqlen_q = py::cast<int>(v);
    else if (key == "max_seqlen_k") c.max_seqlen_k = py::cast<int>(v);
    else if (key == "softmax_scale") c.softmax_scale = py::cast<std::optional<float>>(v);
    else if (key == "causal") c.causal = py::cast<bool>(v);
    else if (key == "window_left") c.window_left = py::cast<int>(v);
    else if (key == "window_right") c.window_right = py::cast<int>(v);
    else if (key == "softcap") c.softcap = py::cast<float>(v);
    else if (key == "alibi_slopes") c.alibi_slopes = py::cast<std::optional<ViewTuple>>(v);
    else if (key == "dropout_p") c.dropout_p = py::cast<float>(v);
    else if (key == "seed") c.seed = py::cast<uint64_t>(v);
    else if (key == "offset") c.offset = py::cast<uint64_t>(v);
    else if (key == "deterministic") c.deterministic = py::cast<bool>(v);
    else if (key == "device") c.device = py::cast<std::string>(v);
    else if (key == "cuda_stream") c.cuda_stream = py::cast<uintptr_t>(v);
    else if (key == "num_threads") c.num_threads = py::cast<int>(v);
    else if (key == "allocator") c.allocator = py::reinterpret_borrow<py::object>(v);
    else throw py::type_error("flashattn._C: unknown keyword argument '" + key + "'");
  }
  return c;
}

using OptView = std::optional<ViewTuple>;

std::string run_forward(const OptView& q, const OptView& k, const OptView& v, const OptView& out,
                        const OptView& lse, const py::kwargs& kw) {
  const Call c = read_call(kw);
  ForwardArgs a;
  a.q = to_view(q, "q");
  a.k = to_view(k, "k");
  a.v = to_view(v, "v");
  a.out = to_view(out, "out");
  a.softmax_lse = to_view(lse, "softmax_lse");
  a.varlen = make_varlen(c);
  a.options = make_options(c);
  const Context ctx = make_context(c);
  py::gil_scoped_release nogil;
  return forward(a, ctx).path;
}

std::string run_backward(const OptView& q, const OptView& k, const OptView& v, const OptView& out,
                         const OptView& dout, const OptView& lse, const OptView& dq,
                         const OptView& dk, const OptView& dv, const py::kwargs& kw) {
  const Call c = read_call(kw);
  BackwardArgs a;
  a.q = to_view(q, "q");
  a.k = to_view(k, "k");
  a.v = to_view(v, "v");
  a.out = to_view(out, "out");
  a.dout = to_view(dout, "dout");
  a.softmax_lse = to_view(lse, "softmax_lse");
  a.dq = to_view(dq, "dq");
  a.dk = to_view(dk, "dk");
  a.dv = to_view(dv, "dv");
  a.varlen = make_varlen(c);
  a.options = make_options(c);
  const Context ctx = make_context(c);
  py::gil_scoped_release nogil;
  return backward(a, ctx).path;
}

void run_probs(const OptView& q, const OptView& k, const OptView& v, const OptView& out,
               const OptView& probs, const py::kwargs& kw) {
  const Call c = read_call(kw);
  ForwardArgs a;
  a.q = to_view(q, "q");
  a.k = to_view(k, "k");
  a.v = to_view(v, "v");
  a.out = to_view(out, "out");
  a.varlen = make_varlen(c);
  a.options = make_options(c);
  const TensorView p = to_view(probs, "probs");
  py::gil_scoped_release nogil;
  attention_probs(a, p);
}

bool run_backend_available(const std::string& name) {
  if (name == "cpu") return backend_available(Backend::Cpu);
  if (name == "cuda") return backend_available(Backend::Cuda);
  throw Error("device", "must be 'cpu' or 'cuda', got '" + name + "'");
}

// The C++ exception in flight becomes the Python exception, here, with the GIL held; the message
// is what() unchanged: flashattn::Error (a std::invalid_argument) -> ValueError, std::bad_alloc ->
// MemoryError, pybind11's own (type_error, cast_error, ...) -> their Python types, any other
// std::exception -> RuntimeError. pybind11's dispatcher takes the error_already_set thrown here as
// an error already set and runs no exception translator. The translators are not relied on: their
// list lives in pybind11's internals, shared by every pybind11 module with the same internals ID
// in the process (torch's, and what torch loads), and the ones other modules registered run before
// pybind11's default one, so a foreign translator (another C++ runtime, another pybind11) would
// handle our exception first. A CUDA test run on an H200 machine (torch 2.11) died of a
// segmentation fault in _C.forward on the first flashattn::Error, which this path avoids.
[[noreturn]] void raise_as_python_error() {
  try {
    throw;
  } catch (py::error_already_set&) {
    throw;
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const std::bad_alloc&) {
    PyErr_SetString(PyExc_MemoryError, "std::bad_alloc");
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  throw py::error_already_set();
}

// fn as bound to Python: the same signature, with C++ exceptions converted by
// raise_as_python_error once fn has returned, i.e. after its gil_scoped_release has ended.
template <typename R, typename... Args>
auto guarded(R (*fn)(Args...)) {
  return [fn](Args... args) -> R {
    try {
      return fn(std::forward<Args>(args)...);
    } catch (...) {
      raise_as_python_error();
    }
  };
}

}  // namespace

PYBIND11_MODULE(_C, m) {
  m.doc() = "flashattn C++ library bindings (tensors as (data_ptr, dtype, shape, strides) tuples)";
  m.def("forward", guarded(&run_forward), py::arg("q"), py::arg("k"), py::arg("v"), py::arg("out"),
        py::arg("softmax_lse"),
        "Runs flashattn::forward; returns the kernel path that ran. Options as keyword arguments.");
  m.def("backward", guarded(&run_backward), py::arg("q"), py::arg("k"), py::arg("v"),
        py::arg("out"), py::arg("dout"), py::arg("softmax_lse"), py::arg("dq"), py::arg("dk"),
        py::arg("dv"), "Runs flashattn::backward; returns the kernel path that ran.");
  m.def("attention_probs", guarded(&run_probs), py::arg("q"), py::arg("k"), py::arg("v"),
        py::arg("out"), py::arg("probs"),
        "Materializes the attention probabilities (host memory, tests only).");
  m.def("backend_available", guarded(&run_backend_available));
#ifdef FLASHATTN_PYTHON_WITH_CUDA
  m.attr("built_with_cuda") = true;
#else
  m.attr("built_with_cuda") = false;
#endif
  m.attr("max_head_dim") = kMaxHeadDim;
}
