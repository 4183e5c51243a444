// A handful of configurations end to end: the first thing to run after touching a backend.
#include "harness.h"

namespace flashattn::test {

TEST(Smoke, ForwardFp32) {
  Spec s;
  s.seqlen_q = 113;
  s.seqlen_k = 203;
  s.head_dim = 59;
  check_forward(s);
}
TEST(Smoke, BackwardFp32Causal) {
  Spec s;
  s.seqlen_q = 97;
  s.seqlen_k = 130;
  s.causal = true;
  check_backward(s);
}
TEST(Smoke, BackwardBf16AllOptions) {
  Spec s;
  s.dtype = DType::BFloat16;
  s.heads = 4;
  s.heads_kv = 2;
  s.seqlen_q = 70;
  s.seqlen_k = 90;
  s.window_left = 20;
  s.window_right = 5;
  s.softcap = 5;
  s.alibi = 2;
  s.dropout = 0.2f;
  check_forward(s);
  check_backward(s);
}
TEST(Smoke, VarlenFp16) {
  Spec s;
  s.dtype = DType::Float16;
  s.batch = 3;
  s.lens_q = {5, 0, 77};
  s.lens_k = {9, 4, 66};
  s.causal = true;
  check_forward(s);
  check_backward(s);
}

}  // namespace flashattn::test
