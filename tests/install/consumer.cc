// A C++ user's program against the installed package: find_package(flashattn) and
// flashattn::flashattn must be enough. Exit 0 iff a call runs and a bad one raises Error.
#include <flashattn/flashattn.h>
#include <cstdio>
#include <vector>
int main() {
  using namespace flashattn;
  const int b = 1, s = 33, h = 2, d = 16;
  std::vector<float> q(b * s * h * d, 0.5f), k(q), v(q), out(q.size()), lse(b * h * s);
  for (size_t i = 0; i < q.size(); ++i) { q[i] = float(i % 7) / 7; k[i] = float(i % 5) / 5; v[i] = float(i % 3); }
  ForwardArgs a;
  a.q = TensorView::contiguous(q.data(), DType::Float32, {b, s, h, d});
  a.k = TensorView::contiguous(k.data(), DType::Float32, {b, s, h, d});
  a.v = TensorView::contiguous(v.data(), DType::Float32, {b, s, h, d});
  a.out = TensorView::contiguous(out.data(), DType::Float32, {b, s, h, d});
  a.softmax_lse = TensorView::contiguous(lse.data(), DType::Float32, {b, h, s});
  a.options.causal = true;
  RunInfo r = forward(a, Context{Backend::Cpu});
  std::printf("path %s out[0]=%f lse[0]=%f\n", r.path.c_str(), out[0], lse[0]);
  if (r.path != "cpu" || !(lse[0] > 0.0f)) return 1;
  try {
    a.k.shape[2] = 3;
    forward(a);
  } catch (const Error& e) {
    std::printf("error as expected: %s\n", e.what());
    return 0;
  }
  return 1;
}
