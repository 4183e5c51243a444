// CPU forward: for each (batch, kv head), K^T and V are packed once into fp32 blocks; threads
// then take (query head, query block) tiles, longest first, and run the online softmax over the
// key blocks the mask lets the tile see. Extra memory: O(seqlen * head_dim), never seqlen^2.
#include <omp.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "cpu/cpu_backend.h"
#include "cpu/dropout_bits.h"
#include "cpu/gemm.h"
#include "cpu/pack.h"
#include "cpu/scratch.h"
#include "semantics/softmax.h"

namespace flashattn::cpu {

namespace {

constexpr int kBlockM = 64;    // query rows per sub-tile (one S tile)
constexpr int kSubTiles = 4;   // sub-tiles sharing each key block while it is hot
constexpr int kTileRows = kBlockM * kSubTiles;
constexpr int kBlockN = 128;   // keys per block
static_assert(kBlockN % kW == 0, "key blocks must be whole vectors");
static_assert(kBlockN % 128 == 0, "dropout draws 128 columns of a row at a time (cpu/dropout_bits.h)");

struct Tile {
  int head_in_group;
  int row0;
};

struct ThreadBuffers {
  Buffer q, s, o, m, l;
  ThreadBuffers(int d, int dvp, const Allocator& a)
      : q(kTileRows * d, a), s(kBlockM * kBlockN, a), o(kTileRows * dvp, a), m(kTileRows, a), l(kTileRows, a) {}
};

// Applies the modifiers and the mask to one row of raw dot products in place.
void modify_row(const Problem& p, const semantics::ScoreMod<float>& mod, const semantics::Mask& mask,
                bool unmasked, int i, int col0, float* s) {
  if (p.softcap > 0 || p.alibi) {
    for (int j = 0; j < kBlockN; ++j) s[j] = mod.apply(s[j], i, col0 + j);
  } else {
    const vfloat scale = vbroadcast(mod.scale);
    for (int j = 0; j < kBlockN; j += kW) vstore(s + j, vload(s + j) * scale);
  }
  if (!unmasked)
    for (int j = 0; j < kBlockN; ++j)
      if (!mask.visible(i, col0 + j)) s[j] = -INFINITY;
}

// One key block against one 64-row sub-tile (rows r0 .. r0 + n): S = Q K^T, modifiers and mask,
// online softmax update of (m, l, O), dropout, O += P V.
void update(const Problem& p, const semantics::ScoreMod<float>& mod, const semantics::Mask& mask,
            uint64_t bh, int r0, int n, int c0, const float* q, const float* kt, const float* vp,
            float* s, float* o, float* m, float* l) {
  const int d = p.head_dim, dvp = pad_to_vec(p.head_dim_v);
  // Plain scores need only the scale, which (when positive) commutes with the row maximum.
  const bool plain = p.softcap == 0.0f && p.alibi == nullptr && mod.scale > 0.0f;
  gemm<false>(n, kBlockN, d, q, d, kt, kBlockN, s, kBlockN);
  const bool unmasked = mask.tile_unmasked(r0, r0 + n, c0, c0 + kBlockN);
  for (int r = 0; r < n; ++r) {
    float* sr = s + r * kBlockN;
    const int i = r0 + r;
    // Fast path (plain scores, whole tile visible): max of the raw dots, then one fused pass
    // exp(scale * s - max); saves a load/store pass over the tile.
    vfloat vm = vbroadcast(-INFINITY);
    float mul = 1.0f;
    if (plain && unmasked) {
      mul = mod.scale;
    } else {
      modify_row(p, mod, mask, unmasked, i, c0, sr);
    }
    for (int j = 0; j < kBlockN; j += kW) vm = vmax(vm, vload(sr + j));
    const float m_new = std::max(m[r], hmax(vm) * mul);
    if (m_new == -INFINITY) {  // nothing visible yet in this row: P = 0
      std::fill(sr, sr + kBlockN, 0.0f);
      continue;
    }
    const float alpha = m[r] == -INFINITY ? 0.0f : std::exp(m[r] - m_new);
    const vfloat shift = vbroadcast(m_new), vmul = vbroadcast(mul);
    vfloat vs{};
    for (int j = 0; j < kBlockN; j += kW) {
      const vfloat e = vexp(vload(sr + j) * vmul - shift);
      vstore(sr + j, e);
      vs += e;
    }
    l[r] = l[r] * alpha + hsum(vs);
    m[r] = m_new;
    if (alpha != 1.0f) {
      float* orow = o + int64_t(r) * dvp;
      const vfloat va = vbroadcast(alpha);
      for (int c = 0; c < dvp; c += kW) vstore(orow + c, vload(orow + c) * va);
    }
    // Dropout after the row sum: the normalizer counts every weight, kept or not.
    if (p.dropout.enabled())
      for (int j = 0; j < kBlockN; j += 128) {
        uint64_t keep[2];
        keep_bits64_pair(p.dropout, bh, i, c0 + j, i, c0 + j + 64, keep);
        for (int u = 0; u < 128; u += kW)
          vstore(sr + j + u, vkeep(vload(sr + j + u), uint32_t(keep[u / 64] >> (u % 64))));
      }
  }
  gemm<true>(n, dvp, kBlockN, s, kBlockN, vp, dvp, o, dvp);
}

// Query rows r0 .. r0 + kTileRows of one head: key blocks outside, 64-row sub-tiles inside, so
// each packed K/V block is reused by every sub-tile while it is in L2 (at seqlen 8k the packed
// K and V of a head are 4 MB: streaming them once per 64 rows cost ~15%).
void run_tile(const Problem& p, int b, int hk, const Tile& t, const float* kt, const float* vp,
              ThreadBuffers& tb) {
  const int d = p.head_dim, dv = p.head_dim_v, dvp = pad_to_vec(dv);
  const int h = hk * p.group() + t.head_in_group;
  const int r0 = t.row0, n = std::min(kTileRows, p.seqlen_q(b) - r0);
  const int subtiles = (n + kBlockM - 1) / kBlockM;
  const semantics::Mask mask = p.mask(b);
  const semantics::ScoreMod<float> mod = p.score_mod<float>(b, h);
  const uint64_t bh = uint64_t(b) * p.num_heads + h;

  int lo[kSubTiles], hi[kSubTiles];
  int klo = INT32_MAX, khi = 0;
  for (int st = 0; st < subtiles; ++st) {
    const int rs = r0 + st * kBlockM;
    mask.key_range(rs, rs + std::min(kBlockM, n - st * kBlockM), &lo[st], &hi[st]);
    if (lo[st] < hi[st]) {
      klo = std::min(klo, lo[st]);
      khi = std::max(khi, hi[st]);
    }
  }
  float* q = tb.q.data();
  float* o = tb.o.data();
  float* m = tb.m.data();
  float* l = tb.l.data();
  std::fill(m, m + n, -INFINITY);
  std::fill(l, l + n, 0.0f);
  std::fill(o, o + int64_t(n) * dvp, 0.0f);
  load_tile(p.q, p.row_begin_q(b), b, h, r0, n, n, d, q, d);

  for (int kb = klo / kBlockN; kb * kBlockN < khi; ++kb) {
    const int c0 = kb * kBlockN;
    for (int st = 0; st < subtiles; ++st) {
      if (c0 >= hi[st] || c0 + kBlockN <= lo[st]) continue;  // this block is invisible to the sub-tile
      const int off = st * kBlockM;
      update(p, mod, mask, bh, r0 + off, std::min(kBlockM, n - off), c0, q + int64_t(off) * d,
             kt + int64_t(kb) * d * kBlockN, vp + int64_t(c0) * dvp, tb.s.data(), o + int64_t(off) * dvp,
             m + off, l + off);
    }
  }

  const float keep_scale = p.dropout.enabled() ? p.dropout.keep_scale : 1.0f;
  for (int r = 0; r < n; ++r) {
    float inv, lse;
    semantics::softmax_finalize(m[r], l[r], &inv, &lse);
    float* orow = o + int64_t(r) * dvp;
    const float f = inv * keep_scale;
    for (int c = 0; c < dv; ++c) orow[c] *= f;
    if (p.has_lse)
      static_cast<float*>(p.lse.data)[p.lse.index(p.row_begin_q(b), b, r0 + r, h)] = lse;
  }
  store_tile(p.out, p.row_begin_q(b), b, h, r0, n, dv, o, dvp, 1.0f);
}

}  // namespace

int resolve_threads(int num_threads) { return num_threads > 0 ? num_threads : omp_get_max_threads(); }

void forward(const Problem& p, const Context& context) {
  const int nt = resolve_threads(context.num_threads);
  const Allocator& alloc = context.allocator;
  const int d = p.head_dim, dvp = pad_to_vec(p.head_dim_v);
  const int max_kb = (p.max_seqlen_k + kBlockN - 1) / kBlockN;

  // Work items: (batch, kv head, chunk of query blocks). Each item packs the K/V it needs into
  // its thread's buffers and runs its tiles, so threads never wait on each other (a barrier per
  // (batch, kv head) costed a scheduler quantum each whenever the cores were oversubscribed).
  // Chunks split a pair's query blocks only when there are too few pairs to balance the threads.
  struct Item {
    int b, hk, row_begin, row_end;
    int64_t cost;
  };
  std::vector<Item> items;
  const int pairs = p.batch * p.num_heads_kv;
  for (int b = 0; b < p.batch; ++b) {
    const int sq = p.seqlen_q(b), nqb = (sq + kTileRows - 1) / kTileRows;
    if (sq == 0) continue;
    const int chunks = std::max(1, std::min(nqb, (4 * nt + pairs - 1) / pairs));
    const semantics::Mask mask = p.mask(b);
    for (int hk = 0; hk < p.num_heads_kv; ++hk)
      for (int c = 0; c < chunks; ++c) {
        const int r0 = nqb * c / chunks * kTileRows, r1 = std::min(sq, nqb * (c + 1) / chunks * kTileRows);
        int64_t cost = 0;
        for (int r = r0; r < r1; r += kBlockM) {
          int lo, hi;
          mask.key_range(r, std::min(r1, r + kBlockM), &lo, &hi);
          cost += int64_t(hi - lo) + kBlockN;
        }
        items.push_back({b, hk, r0, r1, cost});
      }
  }
  // Longest first: under a causal mask the last query blocks see the most keys.
  std::stable_sort(items.begin(), items.end(), [](const Item& x, const Item& y) { return x.cost > y.cost; });

#pragma omp parallel num_threads(nt)
  {
    ThreadBuffers tb(d, dvp, alloc);
    // K^T as [block][d][kBlockN] and V as [key][dvp], zero padded: O(seqlen_k * head_dim).
    Buffer kt(std::max<int64_t>(1, int64_t(max_kb) * d * kBlockN), alloc);
    Buffer vp(std::max<int64_t>(1, int64_t(max_kb) * kBlockN * dvp), alloc);
#pragma omp for schedule(dynamic, 1)
    for (size_t it = 0; it < items.size(); ++it) {
      const Item& item = items[it];
      const int b = item.b, hk = item.hk, sk = p.seqlen_k(b);
      int klo, khi;
      p.mask(b).key_range(item.row_begin, item.row_end, &klo, &khi);
      for (int kb = klo / kBlockN; kb * kBlockN < khi; ++kb) {
        const int c0 = kb * kBlockN, nc = std::min(kBlockN, sk - c0);
        load_tile_transposed(p.k, p.row_begin_k(b), b, hk, c0, nc, d, kt.data() + int64_t(kb) * d * kBlockN, kBlockN);
        load_tile(p.v, p.row_begin_k(b), b, hk, c0, nc, kBlockN, p.head_dim_v, vp.data() + int64_t(c0) * dvp, dvp);
      }
      for (int r0 = item.row_begin; r0 < item.row_end; r0 += kTileRows)
        for (int g = 0; g < p.group(); ++g) run_tile(p, b, hk, Tile{g, r0}, kt.data(), vp.data(), tb);
    }
  }
}

}  // namespace flashattn::cpu
