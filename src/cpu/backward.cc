// CPU backward, FlashAttention-2 style: a work item owns a range of key blocks of one
// (batch, kv head); for each key block it walks every query head of the group and every query
// block that can see it, recomputes P from the saved LSE, and accumulates dK, dV for the block
// and dQ into a buffer the work item owns. No atomics, so every run is bitwise identical.
// Q and dO of the work item's (batch, kv head) are converted to fp32 once (O(seqlen * head_dim)
// per thread), not once per key block: re-reading them from the user's tensors for every key
// block streamed 2 x seqlen x head_dim values per block and cost 15-20% at seqlen 8k.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "cpu/cpu_backend.h"
#include "cpu/dropout_bits.h"
#include "cpu/gemm.h"
#include "cpu/pack.h"
#include "cpu/scratch.h"
#include "semantics/softmax.h"

namespace flashattn::cpu {

namespace {

constexpr int kBlockM = 64;  // query rows per tile
constexpr int kBlockN = 64;  // keys per block
static_assert(kBlockN % kW == 0 && kBlockM % kW == 0, "blocks must be whole vectors");
static_assert(kBlockN == 64, "dropout: one 64-column stretch a row (cpu/dropout_bits.h)");

struct Dims {
  int d, dv, dp, dvp;  // head dims and their vector-padded widths
};

struct ThreadBuffers {
  // Key block: K (row-major, padded), K^T, V^T, and the dK/dV accumulators.
  Buffer k, kt, vt, dk, dv;
  // Q and dO of every query head of the group, fp32, padded rows of dp / dvp.
  Buffer q, dout;
  // Query tile: raw dots, P, Z = dropped P, dS and the transposes.
  Buffer dot, prob, z, ds, trans;
  ThreadBuffers(const Dims& m, int64_t q_rows, const Allocator& a)
      : k(kBlockN * m.dp, a), kt(m.d * kBlockN, a), vt(m.dv * kBlockN, a), dk(kBlockN * m.dp, a),
        dv(kBlockN * m.dvp, a), q(std::max<int64_t>(1, q_rows * m.dp), a), dout(std::max<int64_t>(1, q_rows * m.dvp), a),
        dot(kBlockM * kBlockN, a), prob(kBlockM * kBlockN, a), z(kBlockM * kBlockN, a), ds(kBlockM * kBlockN, a),
        trans(kBlockN * kBlockM, a) {}
};

// One query tile against one key block: accumulates dK, dV (tb.dk, tb.dv) and dQ (dq rows r0..).
// q and dout: the packed rows r0.. of this head (the GEMMs read exactly n of them).
void tile(const Problem& p, const Dims& m, int b, int h, int r0, int n, int c0, const float* D,
          const float* q, const float* dout, float* dq, ThreadBuffers& tb) {
  const semantics::Mask mask = p.mask(b);
  const semantics::ScoreMod<float> mod = p.score_mod<float>(b, h);
  const uint64_t bh = uint64_t(b) * p.num_heads + h;
  const bool unmasked = mask.tile_unmasked(r0, r0 + n, c0, c0 + kBlockN);
  const bool dropout = p.dropout.enabled();
  const float keep_scale = dropout ? p.dropout.keep_scale : 1.0f;
  float* dot = tb.dot.data();
  float* prob = tb.prob.data();
  float* z = dropout ? tb.z.data() : prob;
  float* ds = tb.ds.data();
  float* trans = tb.trans.data();

  // The tile's keep bits, row r's at keep[r] (two rows a draw: cpu/dropout_bits.h).
  uint64_t keep[kBlockM];
  if (dropout)
    for (int r = 0; r < n; r += 2) {
      uint64_t two[2];
      keep_bits64_pair(p.dropout, bh, r0 + r, c0, r0 + r + 1, c0, two);
      keep[r] = two[0];
      if (r + 1 < n) keep[r + 1] = two[1];
    }

  // S = Q K^T, then P = exp(modified S - lse) on visible keys.
  gemm<false>(n, kBlockN, m.d, q, m.dp, tb.kt.data(), kBlockN, dot, kBlockN);
  const float* lse = static_cast<const float*>(p.lse.data);
  for (int r = 0; r < n; ++r) {
    const int i = r0 + r;
    const float row_lse = lse[p.lse.index(p.row_begin_q(b), b, i, h)];
    float* pr = prob + r * kBlockN;
    const float* sr = dot + r * kBlockN;
    if (row_lse == -INFINITY) {
      std::fill(pr, pr + kBlockN, 0.0f);
    } else if (p.softcap > 0 || p.alibi || !unmasked) {
      for (int j = 0; j < kBlockN; ++j)
        pr[j] = mask.visible(i, c0 + j) ? std::exp(mod.apply(sr[j], i, c0 + j) - row_lse) : 0.0f;
    } else {
      const vfloat scale = vbroadcast(mod.scale), shift = vbroadcast(row_lse);
      for (int j = 0; j < kBlockN; j += kW) vstore(pr + j, vexp(vload(sr + j) * scale - shift));
    }
    if (dropout) {
      float* zr = z + r * kBlockN;
      const vfloat ks = vbroadcast(keep_scale);
      for (int j = 0; j < kBlockN; j += kW) vstore(zr + j, vkeep(vload(pr + j) * ks, uint32_t(keep[r] >> j)));
    }
  }
  // Rows n..kBlockM of the transposes must be zero: they multiply the zero padding of Q and dO.
  // dV += Z^T dO
  std::fill(trans, trans + kBlockN * kBlockM, 0.0f);
  transpose(z, kBlockN, n, kBlockN, trans, kBlockM);
  gemm<true>(kBlockN, m.dvp, n, trans, kBlockM, dout, m.dvp, tb.dv.data(), m.dvp);
  // dZ = dO V^T; dS = P * (dZ * keep - D) * d(score)/d(dot)
  gemm<false>(n, kBlockN, m.dv, dout, m.dvp, tb.vt.data(), kBlockN, ds, kBlockN);
  for (int r = 0; r < n; ++r) {
    const float Di = D[r];
    float* dr = ds + r * kBlockN;
    const float* pr = prob + r * kBlockN;
    if (dropout) {
      const vfloat ks = vbroadcast(keep_scale);
      for (int j = 0; j < kBlockN; j += kW) vstore(dr + j, vkeep(vload(dr + j) * ks, uint32_t(keep[r] >> j)));
    }
    if (p.softcap > 0) {
      const float* sr = dot + r * kBlockN;
      for (int j = 0; j < kBlockN; ++j) dr[j] = pr[j] * (dr[j] - Di) * mod.grad(sr[j]);
    } else {
      const vfloat vd = vbroadcast(Di), vscale = vbroadcast(mod.scale);
      for (int j = 0; j < kBlockN; j += kW) vstore(dr + j, vload(pr + j) * (vload(dr + j) - vd) * vscale);
    }
  }
  // dK += dS^T Q; dQ += dS K
  std::fill(trans, trans + kBlockN * kBlockM, 0.0f);
  transpose(ds, kBlockN, n, kBlockN, trans, kBlockM);
  gemm<true>(kBlockN, m.dp, n, trans, kBlockM, q, m.dp, tb.dk.data(), m.dp);
  gemm<true>(n, m.dp, kBlockN, ds, kBlockN, tb.k.data(), m.dp, dq + int64_t(r0) * m.dp, m.dp);
}

// Key blocks [kb0, kb1) of (b, hk): dK and dV are written; dQ accumulates into
// dq_acc[g][row][dp] for the group's query heads g.
void key_range_item(const Problem& p, const Dims& m, int b, int hk, int kb0, int kb1,
                    const float* D_all, float* dq_acc, ThreadBuffers& tb) {
  const int sq = p.seqlen_q(b), sk = p.seqlen_k(b);
  const semantics::Mask mask = p.mask(b);
  for (int g = 0; g < p.group(); ++g) {
    const int h = hk * p.group() + g;
    load_tile(p.q, p.row_begin_q(b), b, h, 0, sq, sq, m.d, tb.q.data() + int64_t(g) * sq * m.dp, m.dp);
    load_tile(p.dout, p.row_begin_q(b), b, h, 0, sq, sq, m.dv, tb.dout.data() + int64_t(g) * sq * m.dvp, m.dvp);
  }
  for (int kb = kb0; kb < kb1; ++kb) {
    const int c0 = kb * kBlockN, nc = std::min(kBlockN, sk - c0);
    std::fill(tb.dk.data(), tb.dk.data() + kBlockN * m.dp, 0.0f);
    std::fill(tb.dv.data(), tb.dv.data() + kBlockN * m.dvp, 0.0f);
    int qlo, qhi;
    mask.query_range(c0, c0 + nc, &qlo, &qhi);
    if (qlo < qhi) {
      load_tile(p.k, p.row_begin_k(b), b, hk, c0, nc, kBlockN, m.d, tb.k.data(), m.dp);
      load_tile_transposed(p.k, p.row_begin_k(b), b, hk, c0, nc, m.d, tb.kt.data(), kBlockN);
      load_tile_transposed(p.v, p.row_begin_k(b), b, hk, c0, nc, m.dv, tb.vt.data(), kBlockN);
      for (int g = 0; g < p.group(); ++g) {
        const int h = hk * p.group() + g;
        float* dq = dq_acc + int64_t(g) * sq * m.dp;
        const float* D = D_all + int64_t(h) * p.total_q + p.cu_q[b];
        const float* q = tb.q.data() + int64_t(g) * sq * m.dp;
        const float* dout = tb.dout.data() + int64_t(g) * sq * m.dvp;
        for (int r0 = qlo; r0 < qhi; r0 += kBlockM)
          tile(p, m, b, h, r0, std::min(kBlockM, qhi - r0), c0, D + r0, q + int64_t(r0) * m.dp,
               dout + int64_t(r0) * m.dvp, dq, tb);
      }
    }
    store_tile(p.dk, p.row_begin_k(b), b, hk, c0, nc, m.d, tb.dk.data(), m.dp, 1.0f);
    store_tile(p.dv, p.row_begin_k(b), b, hk, c0, nc, m.dv, tb.dv.data(), m.dvp, 1.0f);
  }
}

void store_dq(const Problem& p, const Dims& m, int b, int hk, const float* dq_acc) {
  const int sq = p.seqlen_q(b);
  for (int g = 0; g < p.group(); ++g)
    store_tile(p.dq, p.row_begin_q(b), b, hk * p.group() + g, 0, sq, m.d,
               dq_acc + int64_t(g) * sq * m.dp, m.dp, 1.0f);
}

}  // namespace

void backward(const Problem& p, const Context& context) {
  const int nt = resolve_threads(context.num_threads);
  const Allocator& alloc = context.allocator;
  const Dims m{p.head_dim, p.head_dim_v, pad_to_vec(p.head_dim), pad_to_vec(p.head_dim_v)};
  const int H = p.num_heads;

  // D = rowsum(dO * O), per (head, token).
  Buffer D(std::max<int64_t>(1, int64_t(H) * p.total_q), alloc);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int b = 0; b < p.batch; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < p.seqlen_q(b); ++i) {
        const int64_t io = p.out.index(p.row_begin_q(b), b, i, h);
        const int64_t id = p.dout.index(p.row_begin_q(b), b, i, h);
        double acc = 0.0;
        for (int c = 0; c < m.dv; ++c)
          acc += double(load_float(p.out.data, p.out.dtype, io + c)) *
                 double(load_float(p.dout.data, p.dout.dtype, id + c));
        D[int64_t(h) * p.total_q + p.cu_q[b] + i] = float(acc);
      }

  const int pairs = p.batch * p.num_heads_kv;
  const int64_t dq_rows = int64_t(p.group()) * p.max_seqlen_q;
  if (pairs >= nt) {
    // Enough (batch, kv head) pairs to keep every thread busy: each owns its pair's dQ.
#pragma omp parallel num_threads(nt)
    {
      ThreadBuffers tb(m, dq_rows, alloc);
      Buffer dq_acc(std::max<int64_t>(1, dq_rows * m.dp), alloc);
#pragma omp for schedule(dynamic, 1)
      for (int pair = 0; pair < pairs; ++pair) {
        const int b = pair / p.num_heads_kv, hk = pair % p.num_heads_kv;
        const int nkb = (p.seqlen_k(b) + kBlockN - 1) / kBlockN;
        std::fill(dq_acc.data(), dq_acc.data() + dq_rows * m.dp, 0.0f);
        key_range_item(p, m, b, hk, 0, nkb, D.data(), dq_acc.data(), tb);
        store_dq(p, m, b, hk, dq_acc.data());
      }
    }
    return;
  }
  // Few pairs: split each pair's key blocks into chunks, one dQ partial per chunk, summed in
  // chunk order (deterministic for a given thread count).
  const int chunks = nt;
  std::vector<std::unique_ptr<Buffer>> partial;
  for (int c = 0; c < chunks; ++c)
    partial.push_back(std::make_unique<Buffer>(std::max<int64_t>(1, dq_rows * m.dp), alloc));
  for (int pair = 0; pair < pairs; ++pair) {
    const int b = pair / p.num_heads_kv, hk = pair % p.num_heads_kv;
    const int nkb = (p.seqlen_k(b) + kBlockN - 1) / kBlockN;
    const int64_t count = int64_t(p.group()) * p.seqlen_q(b) * m.dp;
#pragma omp parallel num_threads(nt)
    {
      ThreadBuffers tb(m, dq_rows, alloc);
#pragma omp for schedule(static)
      for (int c = 0; c < chunks; ++c) {
        std::fill(partial[c]->data(), partial[c]->data() + count, 0.0f);
        key_range_item(p, m, b, hk, nkb * c / chunks, nkb * (c + 1) / chunks, D.data(), partial[c]->data(), tb);
      }
#pragma omp for schedule(static)
      for (int64_t e = 0; e < count; ++e)
        for (int c = 1; c < chunks; ++c) (*partial[0])[e] += (*partial[c])[e];
    }
    store_dq(p, m, b, hk, partial[0]->data());
  }
}

}  // namespace flashattn::cpu
