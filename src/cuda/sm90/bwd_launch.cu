// Host side of the sm90 backward (the default for head_dim tiers 64, 128, 192 and 256; FLASHATTN_EXPERIMENTAL_SM90_BWD
// =1/0 forces it on/off): its instantiation table, eligibility, and the entry point the
// dispatcher calls. The workspace, D = rowsum(dO * O) and the dq conversion are the sm80 path's
// (sm80::run_backward); only the main kernel differs. Compiled for sm_90a with the kernels
// (cmake/cuda.cmake).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

#include "cuda/backend.h"
#include "cuda/sm80/check.h"
#include "cuda/sm80/host.h"
#include "cuda/sm90/bwd_kernel.h"
#include "cuda/sm90/host.h"
#include "cuda/workspace.h"
#ifdef FLASHATTN_SM90_TRACE
#include <cstdio>
#include <vector>
#endif

namespace flashattn::cuda {
namespace sm90 {
template <typename T, int kD>
void launch_bwd90(const void* params, void* stream);  // src/cuda/sm90/bwd_launch.h, instantiated in bwd_*.cu

namespace {

// Shared memory of the largest of the entry's kernels (with and without the dQ variant; 64 and,
// at tier 64 without a score modifier, 128 queries a step).
template <int kD>
constexpr int Bwd90Max = std::max({Bwd90Config<kD, true>::kSmemBytes, Bwd90Config<kD>::kSmemBytes,
                                   kD == 64 ? Bwd90Config<64, true, 128>::kSmemBytes : 0,
                                   kD == 64 ? Bwd90Config<64, false, 128>::kSmemBytes : 0});
// (The 80-query steps' kernel, an opt-in that needs more, is not counted here: launch_main takes
// it only where the device's opt-in shared memory holds it.)
using Steps80 = Bwd90Config<128, true, 80>;

// The dQ variant's target: the fp32 workspace (rows, heads, dq_accum_dim) of a padded batch as a
// 4-D tensor (dq_accum_dim, seqlen_q, heads, batch), boxes of dq_accum_dim + kPadColsdQ columns
// (the pad lies past the extent: never written) x kBlockM rows, no swizzle (the consumers store
// plain rows of Bwd90Config::kRowdQ bytes).
// boxes32 - head_dim 256 (kDqStage) and 80-query steps (kDqT): boxes of 32 columns x kBlockM rows, 128-byte
// swizzle (the consumers store dQ into the ring stage, or kDqT's buffer, as sdq_stage_offset
// places it).
CUtensorMap make_dq_tensor_map(const sm80::BwdParams& bp, int block_m, bool boxes32) {
  using C = Bwd90Config<64, true>;  // kPadColsdQ: the same in every configuration
  CUtensorMap map;
  const sm80::FwdParams& f = bp.fwd;
  const cuuint64_t dim = cuuint64_t(bp.dq_accum_dim);
  const cuuint64_t dims[4] = {dim, cuuint64_t(f.seqlen_q), cuuint64_t(f.num_heads), cuuint64_t(f.batch)};
  const cuuint64_t strides[3] = {dim * f.num_heads * 4, dim * 4, dim * f.num_heads * cuuint64_t(f.seqlen_q) * 4};
  const cuuint32_t box[4] = {cuuint32_t(boxes32 ? Bwd90Config<256, true>::kDqBoxCols : bp.dq_accum_dim + C::kPadColsdQ),
                             cuuint32_t(block_m), 1, 1};
  const cuuint32_t elem_strides[4] = {1, 1, 1, 1};
  const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, bp.dq_accum, dims, strides, box,
                                    elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                    boxes32 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw CudaError("flashattn: cuTensorMapEncodeTiled (dq workspace) failed (" + std::to_string(int(r)) + ")");
  return map;
}


struct Launch {
  const KernelEntry* kernel;
  const Problem* p;
  const Context* context;
  int dq_store_mode;  // sm80::BwdParams::dq_store_mode (sm90_backward reads its knob)
};

// sm80::run_backward's main step: the tensor maps of q, dout (boxes of the step's query rows)
// and k, v (boxes of bwd90_block_n rows, Bwd90Config::kBlockN), then the kernel.
// Queries per step: 128 at head_dim tier 64 without a score modifier or with softcap or ALiBi alone (kCap, kAlibi;
// dropout included: kDrop; twice the GEMM work per synchronization of the consumer warpgroups;
// session 7 measured it 7-10% faster than 64-query steps since the consumer loop's rewrite,
// bench/NOTES.md), else 64 (registers: tier 128, and the kernel with extras, whose S^T and dP^T
// are live at once), or 80 at tier 128 (kCap and kAlibi included) where bwd90_steps80_ok
// allows them and the device's opt-in shared memory holds the kernel (bwd_config.h kDqT:
// FlashAttention-3's d128 step, which it keeps for calls without a mask; here masks take it too;
// the default since session 40 measured it against 64-query steps on the H100, d128 seqlen
// 512-16k: +1.4-2.0% without a mask at 512, 1k, 2k, 8k, 16k, -0.6% at 4k, causal 2k -0.8%, 8k
// +2.7%, bench/NOTES.md). FLASHATTN_SM90_BWD_BLOCK_M=64 takes 64 at both tiers; any other value
// changes nothing.
float launch_main(sm80::BwdParams& bp, const void* user, void* stream) {
  const Launch& l = *static_cast<const Launch*>(user);
  const Problem& p = *l.p;
  BwdParams90 P;
  P.bp = bp;
  if (P.dropout()) {
    P.lse_ks = float(std::log2(double(bp.fwd.dropout.keep_scale)));
    P.inv_ks = float(1.0 / double(bp.fwd.dropout.keep_scale));
  }
  // dQ through shared memory and a writer warp's bulk reductions: the default since session 5
  // measured it against the consumers' red.global.add (seqlen 8k: d128 327 vs 288 TFLOP/s, d64
  // 203 vs 202); FLASHATTN_SM90_BWD_DQ_TMA=0 keeps red.global.
  // Deterministic: always this scheme (its writer warp adds in key-block order). The workspace
  // is 256-byte aligned (sm80's Workspace), as the bulk reductions need.
  // Head_dim 256: the dQ staged in the ring stage (kDqStage), padded batch only (its tensor form);
  // varlen there by red.global (deterministic varlen goes to the sm80 path, sm90_bwd_eligible).
  const int tier = l.kernel->head_dim;
  const bool stage = bwd90_dq_staged(tier);
  P.dq_smem = (bp.deterministic || env_choice("FLASHATTN_SM90_BWD_DQ_TMA", true)) &&
              !(stage && bp.fwd.cu_seqlens_q != nullptr);
  P.dq_tensor = P.dq_smem && bp.fwd.cu_seqlens_q == nullptr;  // padded batch: rows b * seqlen_q + i
  // K's A fragments in registers at 128-query steps (bwd_launch.h): the default since session 8
  // measured it (seqlen 8k, d64: 429 -> 444 TFLOP/s, causal 401 -> 430); =0 opts out.
  P.k_regs = env_choice("FLASHATTN_SM90_BWD_K_REGS", true);
  const char* block_m_env = std::getenv("FLASHATTN_SM90_BWD_BLOCK_M");
  const std::string block_m = block_m_env != nullptr ? block_m_env : "";
  // The steps of a call whose scores take the plain kernel's schedule (plain) or not.
  auto steps_for = [&](bool plain) {
    if (block_m != "64" && bwd90_steps80_ok(tier, !plain, P.dropout(), bp.deterministic, P.dq_tensor) &&
        current_device().smem_optin >= std::size_t(Steps80::kSmemBytes))
      return Steps80::kBlockM;
    return p.head_dim <= 64 && plain && block_m != "64" ? 128 : 64;
  };
  // Softcap alone, or ALiBi alone (a scale of at least 2^-20): the plain kernel's steps with kCap /
  // kAlibi where that configuration has them (bwd90_has_mod), else the kernel with extras;
  // FLASHATTN_SM90_BWD_CAP=0 / FLASHATTN_SM90_BWD_ALIBI=0 always the latter. Session 59 measured
  // them (bench/NOTES.md).
  P.cap = sm80::softcap_alone(bp.fwd) && env_choice("FLASHATTN_SM90_BWD_CAP", true);
  P.alibi = sm80::alibi_alone(bp.fwd) && env_choice("FLASHATTN_SM90_BWD_ALIBI", true);
  P.block_m = steps_for(!P.extras() || P.one_mod());
  if (P.one_mod() && !bwd90_has_mod(tier, P.block_m, P.dq_smem, P.k_regs)) {
    P.cap = P.alibi = false;
    P.block_m = steps_for(false);
  }
  const int64_t rows_q = p.varlen ? p.total_q : p.max_seqlen_q;
  const int64_t rows_k = p.varlen ? p.total_k : p.max_seqlen_k;
  const int batch = p.varlen ? 1 : p.batch;
  P.tma_q = make_tensor_map(bp.fwd.q, p.dtype, p.head_dim, rows_q, p.num_heads, batch, P.block_m);
  P.tma_do = make_tensor_map(bp.dout, p.dtype, p.head_dim_v, rows_q, p.num_heads, batch, P.block_m);
  P.block_n = bwd90_block_n(tier);
  P.tma_k = make_tensor_map(bp.fwd.k, p.dtype, p.head_dim, rows_k, p.num_heads_kv, batch, P.block_n);
  P.tma_v = make_tensor_map(bp.fwd.v, p.dtype, p.head_dim_v, rows_k, p.num_heads_kv, batch, P.block_n);
  if (P.dq_tensor) P.tma_dq = make_dq_tensor_map(bp, P.block_m, stage || P.block_m == Steps80::kBlockM);
  // dq_accum uncleared (sm90_backward's dq_first_store): the writer warp's tickets count steps per
  // query block of block_m rows.
  if (bp.dq_tickets != nullptr && !P.dq_tensor)
    throw CudaError("flashattn: internal error: dQ tickets without the sm90 backward's tensor-form dQ writer");
  bp.dq_ticket_rows = P.block_m;
  // dK and dV through shared memory and TMA stores (BwdParams90::dkdv_tma): padded batches (a box
  // of a varlen batch would cross into the next sequence's rows) on tiers without kSplitD.
  P.dkdv_tma = !p.varlen && !bwd90_split_d(tier) && env_choice("FLASHATTN_SM90_BWD_DKDV_TMA", true);
  P.dv_early = env_choice("FLASHATTN_SM90_BWD_DV_EARLY", true);
  if (P.dkdv_tma) {
    P.tma_dk = make_tensor_map(bp.dk, p.dtype, p.head_dim, rows_k, p.num_heads_kv, batch, 64);
    P.tma_dv = make_tensor_map(bp.dv, p.dtype, p.head_dim_v, rows_k, p.num_heads_kv, batch, 64);
  }
  P.bp.dq_store_mode = l.dq_store_mode;
  P.serial_sdp = env_choice("FLASHATTN_SM90_BWD_SERIAL_SDP", false);  // (tiers 192, 256; bwd_kernel.h)
  // Query walks rotated per key block (sm80::QueryWalk; not when deterministic): the default since
  // session 20 measured it (bf16, 2 rounds: d256 2k / 8k +2.5% / +1.8%, d64 8k causal +2%, d128
  // +-1%); FLASHATTN_SM90_BWD_ROTATE=0 opts out.
  P.bp.rotate_walk = !bp.deterministic && env_choice("FLASHATTN_SM90_BWD_ROTATE", true);
  // The last rounds as stream-K (config.h StreamK, bwd_kernel.h) where every tile walks the same
  // query blocks (no causal mask, no window, no varlen) and the order of dQ's additions is free
  // (not deterministic): on the standard shapes every tier has 2048 or 4096 tiles, 15.5 or 31.03
  // rounds on 132 SMs, so the last round leaves half or nearly all of them idle (3%). By default
  // where the model (steps a CTA) saves 2% or more: session 28 measured (H200, non-causal,
  // TFLOP/s split / one CTA a tile, 2-3 rounds) d128 512 331 / 315, 1k 439 / 421, 2k 521 / 494,
  // 8k 528-531 / 516-528; d64 512 294 / 253, 2k 454 / 434, 8k 484 / 470; d256 512 271 / 268, 1k
  // 344 / 340, 2k 399 / 389, 8k 411 / 411 (the persistent grid also saves each tile's CTA launch,
  // which weighs most on short tiles). FLASHATTN_SM90_BWD_STREAMK=1 splits wherever it can
  // (tests), =0 never; FLASHATTN_SM90_BWD_PERSISTENT=N sets the grid (tests).
  std::unique_ptr<Workspace> split_ws;
  const bool sk_force = env_choice("FLASHATTN_SM90_BWD_STREAMK", false);
  const bool sk_off = !env_choice("FLASHATTN_SM90_BWD_STREAMK", true);
  const sm80::FwdParams& f = bp.fwd;
  // The kernel's tiles (bwd_launch.h: key blocks of P.block_n keys x batch x kv heads).
  const int64_t n_blocks = (f.seqlen_k + P.block_n - 1) / P.block_n;
  const int64_t tiles = n_blocks * f.batch * f.num_heads_kv;
  if (!bp.deterministic && !f.causal && f.window_left < 0 && f.window_right < 0 && f.cu_seqlens_q == nullptr &&
      f.cu_seqlens_k == nullptr && !sk_off) {
    const int64_t grid =
        std::min<int64_t>(tiles, persistent_ctas("FLASHATTN_SM90_BWD_PERSISTENT", true, device_sm_count()));
    const int steps = (f.seqlen_q + P.block_m - 1) / P.block_m * f.group;
    if (grid > 0) P.sk.plan = StreamK(tiles, grid, steps);
    if (!sk_force && P.sk.plan.saving() < 0.02) P.sk.plan = StreamK();
    // A slot per CTA: 256 consumer threads x their dK and dV accumulators (kSplitD: one of the
    // two, bwd_config.h), and two flags (one a consumer warpgroup).
    const std::size_t slot_bytes = std::size_t(256) * (bwd90_split_d(tier) ? tier / 2 : tier) * 4;
    if (P.sk.plan.width > 0) split_ws = P.sk.allocate(*l.context, tiles, grid, slot_bytes, 2);
  }
  // Where that leaves one CTA a tile (causal, windows, varlen, deterministic, non-causal without
  // a tail), a persistent grid that takes its tiles dynamically (BwdParams90::tile_counter;
  // sm80::run_backward zeroes the counter): session 44 measured it (H100, 2 rounds, TFLOP/s
  // dynamic / one CTA a tile before it, bench/NOTES.md): d128 causal 1k 311 / 299, 2k 414 / 402,
  // 4k 495 / 477, 8k 505 / 498, 16k 530 / 529; d64 causal 2k 361 / 336, 8k 445 / 434; d256
  // causal 2k 313 / 313, 8k 373 / 366. (Deterministic: a tile waits only for tiles taken before
  // it, every taken tile belongs to a running CTA (a CTA's first tile too comes from the counter)
  // and each CTA works through its tiles in order: the smallest unfinished tile waits for none.)
  // FLASHATTN_SM90_BWD_DYNAMIC=0 keeps one CTA a tile; FLASHATTN_SM90_BWD_PERSISTENT=N sets the
  // grid here too (tests).
  if (P.sk.plan.width == 0 && bp.tile_counter != nullptr && env_choice("FLASHATTN_SM90_BWD_DYNAMIC", true)) {
    const int64_t grid = persistent_ctas("FLASHATTN_SM90_BWD_PERSISTENT", true, device_sm_count());
    if (grid > 0 && grid < tiles) {
      P.tile_counter = bp.tile_counter;
      P.dyn_grid = grid;
    }
  }
  // Causal: tiles in groups of (batch, kv head) pairs, longest walks first (BwdParams90::head_group):
  // 8 pairs up to 16 key blocks, 4 up to 64, else 2. Session 28 measured (H200, 2 rounds, TFLOP/s
  // this rule / the (batch, kv head) order; groups of 2, 4, 8 beside, bench/NOTES.md): d128 1k 303
  // / 300, 2k 414 / 400, 4k 499 (G = 4) / 478, 8k 497 / 467, 16k 515-519 / 519; d64 2k 336 / 333,
  // 8k 436-464 / 433; d256 2k 340 / 332, 8k 397-407 / 387. FLASHATTN_SM90_BWD_HEAD_GROUP=N takes
  // N (0: the (batch, kv head) order).
  if (f.causal && !bp.deterministic && f.cu_seqlens_q == nullptr && f.cu_seqlens_k == nullptr) {
    P.head_group = n_blocks <= 16 ? 8 : n_blocks <= 64 ? 4 : 2;
    const char* hg = std::getenv("FLASHATTN_SM90_BWD_HEAD_GROUP");
    if (hg != nullptr && hg[0] >= '0' && hg[0] <= '9') P.head_group = std::atoi(hg);
    // At most every pair in one group: head_group x key blocks <= the tiles (< 2^31, check_grid),
    // so the kernel's 32-bit tile arithmetic cannot wrap.
    P.head_group = int(std::min<int64_t>(std::max(P.head_group, 0), int64_t(f.batch) * f.num_heads_kv));
  }
  float dq_scale = 1.0f;  // set by the launcher of the kernel it picks (bwd_launch.h)
  P.dq_scale_out = &dq_scale;
#ifdef FLASHATTN_SM90_TRACE
  // The diagnostic timeline (bwd_kernel.h): a zeroed buffer, then the lines on stdout, ns from the
  // launch's earliest CTA entry: "BK launch=L grid= tiles= dp_rounds= width= steps= head_dim=",
  // then "BC L cta smid t_start t_end items" a CTA, "B L cta smid item tile role steps t_start
  // t_end cycles" an item and "BX L cta item t_kv t_s1 t_last t_bar t_read t_kvi" its phases (-1
  // where not reached; bench/gpu/bwd_trace.py). It synchronizes the stream: a measurement build only.
  constexpr std::size_t kTraceRecs = std::size_t(kBwdTraceCtas) * (kBwdTraceItems + 1);
  static BwdTraceRec* trace = nullptr;
  static int trace_launch = 0;
  const cudaStream_t trace_stream = static_cast<cudaStream_t>(stream);
  if (trace == nullptr) check(cudaMalloc(&trace, kTraceRecs * sizeof(BwdTraceRec)), "cudaMalloc(bwd trace)");
  check(cudaMemsetAsync(trace, 0, kTraceRecs * sizeof(BwdTraceRec), trace_stream), "cudaMemsetAsync(bwd trace)");
  P.trace = trace;
#endif
  l.kernel->launch(&P, stream);
#ifdef FLASHATTN_SM90_TRACE
  {
    std::vector<BwdTraceRec> h(kTraceRecs);
    check(cudaStreamSynchronize(trace_stream), "cudaStreamSynchronize(bwd trace)");
    check(cudaMemcpy(h.data(), trace, kTraceRecs * sizeof(BwdTraceRec), cudaMemcpyDeviceToHost), "cudaMemcpy(bwd trace)");
    // The grid as bwd_launch.h launches it: the plan's, the dynamic one, or one CTA a tile.
    const int64_t grid = P.sk.plan.width > 0 ? P.sk.grid : P.tile_counter != nullptr ? P.dyn_grid : tiles;
    const int ctas = int(std::min<int64_t>(grid, kBwdTraceCtas));
    const int L = trace_launch++;
    unsigned long long t_ref = ~0ull;
    for (int c = 0; c < ctas; ++c) {
      const unsigned long long t = h[std::size_t(c) * (kBwdTraceItems + 1)].t_start;
      if (t != 0) t_ref = std::min(t_ref, t);
    }
    std::printf("BK launch=%d grid=%lld tiles=%lld dp_rounds=%d width=%d steps=%d head_dim=%d\n", L, (long long)grid,
                (long long)tiles, P.sk.plan.width > 0 ? P.sk.plan.dp_rounds : 1, P.sk.plan.width,
                (f.seqlen_q + P.block_m - 1) / P.block_m * f.group, tier);
    for (int c = 0; c < ctas; ++c) {
      const BwdTraceRec* r = &h[std::size_t(c) * (kBwdTraceItems + 1)];
      if (r[0].t_start == 0) continue;
      std::printf("BC %d %d %u %lld %lld %u\n", L, c, r[0].smid, (long long)(r[0].t_start - t_ref),
                  r[0].t_end != 0 ? (long long)(r[0].t_end - t_ref) : -1ll, r[0].steps);
      for (int i = 0; i < kBwdTraceItems && i < int(r[0].steps); ++i) {
        const BwdTraceRec& e = r[1 + i];
        std::printf("B %d %d %u %d %u %u %u %lld %lld %u\n", L, c, e.smid, i, e.tile, e.role, e.steps,
                    (long long)(e.t_start - t_ref), (long long)(e.t_end - t_ref), e.c_end - e.c_start);
        auto rel = [&](unsigned long long t) { return t != 0 ? (long long)(t - t_ref) : -1ll; };
        std::printf("BX %d %d %d %lld %lld %lld %lld %lld %lld\n", L, c, i, rel(e.t_kv), rel(e.t_s1), rel(e.t_last),
                    rel(e.t_bar), rel(e.t_read), rel(e.t_kvi));
      }
    }
    std::fflush(stdout);
  }
#endif
  return dq_scale;
}

}  // namespace
}  // namespace sm90

#define FA_SM90_BWD_ENTRY(T, DT, D) \
  {Direction::Backward, DType::DT, D, D, sm90::Bwd90Max<D>, &sm90::launch_bwd90<T, D>},
const KernelEntry* sm90_bwd_kernels(int* count) {
  static const KernelEntry table[] = {
#if FLASHATTN_CUDA_HDIM_64
      FA_SM90_BWD_ENTRY(__half, Float16, 64) FA_SM90_BWD_ENTRY(__nv_bfloat16, BFloat16, 64)
#endif
#if FLASHATTN_CUDA_HDIM_128
      FA_SM90_BWD_ENTRY(__half, Float16, 128) FA_SM90_BWD_ENTRY(__nv_bfloat16, BFloat16, 128)
#endif
#if FLASHATTN_CUDA_HDIM_192
      FA_SM90_BWD_ENTRY(__half, Float16, 192) FA_SM90_BWD_ENTRY(__nv_bfloat16, BFloat16, 192)
#endif
#if FLASHATTN_CUDA_HDIM_256
      FA_SM90_BWD_ENTRY(__half, Float16, 256) FA_SM90_BWD_ENTRY(__nv_bfloat16, BFloat16, 256)
#endif
      {Direction::Backward, DType::Float32, 0, 0, 0, nullptr},  // end marker (keeps the table non-empty)
  };
  *count = int(sizeof(table) / sizeof(table[0])) - 1;
  return table;
}
#undef FA_SM90_BWD_ENTRY

bool sm90_bwd_enabled(const Problem& p) {
  // On by default where it beats the sm80 backward: head_dim tier 128 (session 5: +20-30%;
  // session 6: 355 vs 246 TFLOP/s at 8k) and, since its producer stopped spinning, tier 64 from
  // head_dim 40 (session 6, seqlen 2k-8k, causal and not: +8-13%); head_dim <= 32 keeps the sm80
  // path's own tier 32; tier 256 (head_dim 225-256) since session 8 (seqlen 8k: 262 vs 194
  // TFLOP/s, causal 254 vs 187); tier 192 (head_dim 129-192) since session 10 (head_dim 192,
  // seqlen 8k: 342 vs 178 TFLOP/s, causal 331 vs 177, 2k 312 vs 164); head_dim 193-224 on tier
  // 256, padded, since session 10 (run 6, seqlen 8k: head_dim 200 260 vs the sm80 tier 224's 166
  // TFLOP/s, 224 294 vs 186, causal 290 vs 184; 2k, 200: 228 vs 152).
  // FLASHATTN_EXPERIMENTAL_SM90_BWD=1 takes it for every head_dim it covers, =0 for none.
  return sm90::env_choice("FLASHATTN_EXPERIMENTAL_SM90_BWD", p.head_dim > 32 && p.head_dim <= 256);
}

bool sm90_bwd_eligible(const Problem& p) {
  // Dropout: here by default since session 8 (seqlen 8k, dropout 0.1: d64 158 -> 192 TFLOP/s,
  // d128 176 -> 311); FLASHATTN_SM90_BWD_DROPOUT=0 sends it to the sm80 path. Deterministic: here too (the dQ writer warp adds in key-block
  // order; Sm90Bwd.Deterministic passed on the H200 in session 6, runs 3 and 5);
  // FLASHATTN_SM90_BWD_DETERMINISTIC=0 sends it to the sm80 path, and so does varlen where tier
  // 256 stages dQ (bwd90_dq_staged: its kernel adds dQ by red.global there; tiers 64-192 and
  // padded 256 have the writer warp). No query or key rows at all: the sm80 path too (a tensor map cannot have an extent of 0).
  const bool det_ok = !p.deterministic || ((!sm90::bwd90_dq_staged_head_dim(p.head_dim) || !p.varlen) &&
                                           sm90::env_choice("FLASHATTN_SM90_BWD_DETERMINISTIC", true));
  const bool dropout_ok = !p.dropout.enabled() || sm90::env_choice("FLASHATTN_SM90_BWD_DROPOUT", true);
  return sm90_eligible(p) && p.head_dim == p.head_dim_v && dropout_ok && det_ok &&
         p.max_seqlen_q > 0 && p.total_q > 0 && p.max_seqlen_k > 0 && p.total_k > 0 && sm90::tma_ok(p.dout) &&
         sm90::tma_ok(p.dk) && sm90::tma_ok(p.dv);
}

void sm90_backward(const Problem& p, const KernelEntry& kernel, const Context& context) {
  // Each query block's first dQ stored rather than added into a cleared workspace (BwdParams::
  // dq_tickets; the writer warp's tensor form: padded batch, not deterministic, launch_main's
  // P.dq_tensor): no memset of dq_accum. The default since session 42 measured it (H100, 2
  // rounds, TFLOP/s tickets / memset: d128 512 320 / 284, 1k 441 / 410, 2k 515 / 505, 8k 544 /
  // 545, causal 8k 528 / 490; d64 512 274 / 259, 2k 452 / 445; d256 512 255 / 228, 2k 374 / 370;
  // bench/NOTES.md). FLASHATTN_SM90_BWD_DQ_STORE=0 clears dq_accum and adds every step's dQ; 1-3
  // forces a ticket mode (BwdParams::dq_store_mode) at any length; unset, it is on up to
  // FLASHATTN_SM90_BWD_DQ_STORE_MAX_SK keys (no limit by default).
  const char* store_env = std::getenv("FLASHATTN_SM90_BWD_DQ_STORE");
  const char* max_sk_env = std::getenv("FLASHATTN_SM90_BWD_DQ_STORE_MAX_SK");
  const int64_t max_sk = max_sk_env != nullptr && max_sk_env[0] >= '0' && max_sk_env[0] <= '9'
                             ? std::atoll(max_sk_env)
                             : int64_t(1) << 40;
  const bool forced = store_env != nullptr && store_env[0] >= '1' && store_env[0] <= '3';
  const bool off = store_env != nullptr && store_env[0] == '0';
  const bool store_on = forced || (!off && p.max_seqlen_k <= max_sk);
  const bool first_store =
      !p.deterministic && !p.varlen && sm90::env_choice("FLASHATTN_SM90_BWD_DQ_TMA", true) && store_on;
  const sm90::Launch l{&kernel, &p, &context, forced ? store_env[0] - '0' : 2};
  sm80::run_backward(p, kernel.head_dim, context, &sm90::launch_main, &l, false, first_store);
}

}  // namespace flashattn::cuda
