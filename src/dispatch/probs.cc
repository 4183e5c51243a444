// attention_probs (include/flashattn/debug.h): the attention probabilities of a forward call,
// in double, from the shared semantics. The sign carries the dropout decision: it is the same
// Philox function of (seed, offset, batch, head, row, col) that every backend uses.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dispatch/problem.h"
#include "flashattn/debug.h"
#include "semantics/softmax.h"

namespace flashattn {

void attention_probs(const ForwardArgs& args, const TensorView& probs) {
  const Problem p = make_problem(args, Backend::Cpu);
  if (!probs.defined()) throw Error("probs", "must be defined");
  if (probs.dtype != DType::Float32) throw Error("probs", "must be float32");
  if (probs.rank != 4 || probs.shape[0] != p.batch || probs.shape[1] != p.num_heads ||
      probs.shape[2] < p.max_seqlen_q || probs.shape[3] < p.max_seqlen_k)
    throw Error("probs", "must have shape (batch, num_heads, >= max_seqlen_q, >= max_seqlen_k) = (" +
                             std::to_string(p.batch) + ", " + std::to_string(p.num_heads) + ", " +
                             std::to_string(p.max_seqlen_q) + ", " + std::to_string(p.max_seqlen_k) + ")");
  if (probs.stride[3] != 1) throw Error("probs", "last dimension must be contiguous (stride 1)");

  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  float* base = static_cast<float*>(probs.data);
  std::vector<double> s;
  for (int b = 0; b < p.batch; ++b) {
    const int sq = p.seqlen_q(b), sk = p.seqlen_k(b), d = p.head_dim;
    const semantics::Mask mask = p.mask(b);
    for (int h = 0; h < p.num_heads; ++h) {
      const semantics::ScoreMod<double> mod = p.score_mod<double>(b, h);
      const int hk = p.kv_head(h);
      const uint64_t bh = uint64_t(b) * p.num_heads + h;
      for (int64_t i = 0; i < probs.shape[2]; ++i) {
        float* row = base + b * probs.stride[0] + h * probs.stride[1] + i * probs.stride[2];
        for (int64_t j = 0; j < probs.shape[3]; ++j) row[j] = 0.0f;
        if (i >= sq) continue;
        s.assign(sk, kNegInf);
        double mx = kNegInf;
        for (int j = 0; j < sk; ++j) {
          if (!mask.visible(int(i), j)) continue;
          double dot = 0.0;
          for (int c = 0; c < d; ++c)
            dot += double(load_float(p.q.data, p.dtype, p.q.index(p.row_begin_q(b), b, i, h) + c)) *
                   double(load_float(p.k.data, p.dtype, p.k.index(p.row_begin_k(b), b, j, hk) + c));
          s[j] = mod.apply(dot, int(i), j);
          mx = std::max(mx, s[j]);
        }
        double sum = 0.0;
        for (int j = 0; j < sk; ++j) sum += s[j] == kNegInf ? 0.0 : std::exp(s[j] - mx);
        double inv = 0.0, lse = 0.0;
        semantics::softmax_finalize(mx, sum, &inv, &lse);
        for (int j = 0; j < sk; ++j) {
          const double prob = s[j] == kNegInf ? 0.0 : std::exp(s[j] - mx) * inv;
          const bool dropped = p.dropout.enabled() && !p.dropout.keep(bh, int(i), j);
          row[j] = float(dropped ? -prob : prob);
        }
      }
    }
  }
}

}  // namespace flashattn
