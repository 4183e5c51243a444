// The attention mask, written once for every backend: a sliding window aligned to the
// bottom-right corner of the (seqlen_q x seqlen_k) score matrix; causal is the window (left, 0).
// Query i sees key j iff 0 <= j < seqlen_k and
//   i + seqlen_k - seqlen_q - left <= j <= i + seqlen_k - seqlen_q + right  (-1 = unbounded side).
#pragma once

#include "semantics/config.h"

namespace flashattn::semantics {

struct Mask {
  int seqlen_q = 0;
  int seqlen_k = 0;
  int left = -1;   // -1: unbounded
  int right = -1;  // -1: unbounded

  // The key aligned with query i (the bottom-right diagonal).
  FA_HD int64_t diag(int i) const { return int64_t(i) + seqlen_k - seqlen_q; }

  FA_HD bool visible(int i, int j) const {
    if (j < 0 || j >= seqlen_k) return false;
    if (left >= 0 && int64_t(j) < diag(i) - left) return false;
    if (right >= 0 && int64_t(j) > diag(i) + right) return false;
    return true;
  }

  // Keys visible to at least one of the rows [row_begin, row_end): [*lo, *hi), empty when
  // *lo >= *hi. A kernel iterating over key blocks visits exactly the blocks meeting this range;
  // for one row (row_end = row_begin + 1) it is exactly the keys visible(row_begin, j) accepts.
  FA_HD void key_range(int row_begin, int row_end, int* lo, int* hi) const {
    int64_t l = 0, h = seqlen_k;
    if (left >= 0 && diag(row_begin) - left > l) l = diag(row_begin) - left;
    if (right >= 0 && diag(row_end - 1) + right + 1 < h) h = diag(row_end - 1) + right + 1;
    if (h < l) h = l;
    *lo = int(l);
    *hi = int(h);
  }

  // Query rows that see at least one key of [col_begin, col_end): [*lo, *hi), clamped to
  // [0, seqlen_q). The backward pass walks a key block's query blocks with this.
  FA_HD void query_range(int col_begin, int col_end, int* lo, int* hi) const {
    // j <= diag(i) + right  <=>  i >= j - right - (seqlen_k - seqlen_q)
    // j >= diag(i) - left   <=>  i <= j + left - (seqlen_k - seqlen_q)
    const int64_t shift = int64_t(seqlen_k) - seqlen_q;
    int64_t l = 0, h = seqlen_q;
    if (right >= 0 && int64_t(col_begin) - right - shift > l) l = int64_t(col_begin) - right - shift;
    if (left >= 0 && int64_t(col_end - 1) + left - shift + 1 < h) h = int64_t(col_end - 1) + left - shift + 1;
    if (col_begin >= seqlen_k || col_end <= col_begin) h = l;
    if (h < l) h = l;
    *lo = int(l);
    *hi = int(h);
  }

  // Keys visible to every row of [row_begin, row_end): [*lo, *hi) within [0, seqlen_k], empty
  // when *lo >= *hi (key_range's intersection where key_range is the union).
  FA_HD void common_key_range(int row_begin, int row_end, int* lo, int* hi) const {
    int64_t l = 0, h = seqlen_k;
    if (left >= 0 && diag(row_end - 1) - left > l) l = diag(row_end - 1) - left;
    if (right >= 0 && diag(row_begin) + right + 1 < h) h = diag(row_begin) + right + 1;
    if (h < l) h = l;
    *lo = int(l);
    *hi = int(h);
  }

  // True iff every key of [col_begin, col_end) is visible to every row of [row_begin, row_end):
  // such a tile needs no element masking. Kernels run these tiles first and mask only the rest.
  // Two codegen forms of one predicate: early exits, or (kByRange) against common_key_range's two
  // bounds (which a kernel testing many key blocks of one row range can keep). In the sm80
  // kernels at 254-255 registers the form moves the register allocation: measured per tier
  // (session 26), early exits +6% on the head_dim-64 forward (the other form spilled 100 bytes)
  // and +4-5% on the 128 and 256 backward; by range +1.3% on the 128 forward, +1.2% on the 64
  // backward (sm80 FwdConfig / BwdConfig::kMaskByRange).
  template <bool kByRange = false>
  FA_HD bool tile_unmasked(int row_begin, int row_end, int col_begin, int col_end) const {
    if constexpr (kByRange) {
      int lo, hi;
      common_key_range(row_begin, row_end, &lo, &hi);
      return col_begin >= lo && col_end <= hi;
    } else {
      if (col_begin < 0 || col_end > seqlen_k) return false;
      if (left >= 0 && int64_t(col_begin) < diag(row_end - 1) - left) return false;
      if (right >= 0 && int64_t(col_end - 1) > diag(row_begin) + right) return false;
      return true;
    }
  }
};

// Folds causal into the window: causal means right = 0 (flash_attn's convention).
FA_HD Mask make_mask(int seqlen_q, int seqlen_k, int window_left, int window_right, bool causal) {
  Mask m;
  m.seqlen_q = seqlen_q;
  m.seqlen_k = seqlen_k;
  m.left = window_left;
  m.right = causal ? 0 : window_right;
  return m;
}

}  // namespace flashattn::semantics
