// Host side of the sm90 path: the instantiation table, the TMA tensor maps of a problem, and the
// forward entry point the dispatcher calls. Compiled for sm_90a with the kernels
// (cmake/cuda.cmake), only when the build targets sm_90.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cuda/backend.h"
#include "cuda/sm80/check.h"
#include "cuda/sm80/host.h"
#include "cuda/sm90/fwd_kernel.h"
#include "cuda/sm90/host.h"
#include "cuda/workspace.h"

namespace flashattn::cuda {
namespace sm90 {
template <typename T, int kD, int kDv>
void launch_fwd90(const void* params, void* stream);  // src/cuda/sm90/launch.h, instantiated in fwd_*.cu

EncodeTiled encode_tiled() {
  static EncodeTiled fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q{};
    check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q),
          "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (q != cudaDriverEntryPointSuccess || f == nullptr)
      throw CudaError("flashattn: the CUDA driver has no cuTensorMapEncodeTiled (needs CUDA 12.0+ driver)");
    return reinterpret_cast<EncodeTiled>(f);
  }();
  return fn;
}

bool tma_ok(const Operand& o) {
  const auto addr = reinterpret_cast<uintptr_t>(o.data);
  return addr % 16 == 0 && o.row_stride % 8 == 0 && o.head_stride % 8 == 0 && o.batch_stride % 8 == 0;
}

// A q/k/v-like operand as a 4-D tensor (head_dim, rows, heads, batch) in boxes of 64 columns x
// box_rows rows, 128-byte swizzled; reads past any extent return zeros.
CUtensorMap make_tensor_map(const sm80::Tensor& t, DType dtype, int head_dim, int64_t rows, int heads, int batch,
                            int box_rows, int box_heads) {
  CUtensorMap map;
  const cuuint64_t elem = 2;
  const cuuint64_t row_bytes = cuuint64_t(t.row_stride) * elem;
  const cuuint64_t dims[4] = {cuuint64_t(head_dim), cuuint64_t(rows), cuuint64_t(heads), cuuint64_t(batch)};
  // Strides of dimensions 1..3 in bytes; a dimension of extent 1 gets any valid stride.
  const cuuint64_t head_bytes = heads > 1 ? cuuint64_t(t.head_stride) * elem : row_bytes;
  const cuuint64_t batch_bytes = batch > 1 ? cuuint64_t(t.batch_stride) * elem : row_bytes;
  const cuuint64_t strides[3] = {row_bytes, head_bytes, batch_bytes};
  const cuuint32_t box[4] = {64, cuuint32_t(box_rows), cuuint32_t(box_heads), 1};
  const cuuint32_t elem_strides[4] = {1, 1, 1, 1};
  const CUresult r = encode_tiled()(
      &map, dtype == DType::BFloat16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, t.data,
      dims, strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) throw CudaError("flashattn: cuTensorMapEncodeTiled failed (" + std::to_string(int(r)) + ")");
  return map;
}

}  // namespace sm90

#define FA_SM90_ENTRY(T, DT, D, DV) \
  {Direction::Forward, DType::DT, D, DV, sm90::Fwd90ConfigFor<D, false, DV>::kSmemBytes, &sm90::launch_fwd90<T, D, DV>},
const KernelEntry* sm90_kernels(int* count) {
  static const KernelEntry table[] = {
#if FLASHATTN_CUDA_HDIM_64
      FA_SM90_ENTRY(__half, Float16, 64, 64) FA_SM90_ENTRY(__nv_bfloat16, BFloat16, 64, 64)
#endif
#if FLASHATTN_CUDA_HDIM_96
      FA_SM90_ENTRY(__half, Float16, 96, 96) FA_SM90_ENTRY(__nv_bfloat16, BFloat16, 96, 96)
#endif
#if FLASHATTN_CUDA_HDIM_128
      FA_SM90_ENTRY(__half, Float16, 128, 128) FA_SM90_ENTRY(__nv_bfloat16, BFloat16, 128, 128)
#endif
#if FLASHATTN_CUDA_HDIM_192
      FA_SM90_ENTRY(__half, Float16, 192, 192) FA_SM90_ENTRY(__nv_bfloat16, BFloat16, 192, 192)
      FA_SM90_ENTRY(__half, Float16, 192, 128) FA_SM90_ENTRY(__nv_bfloat16, BFloat16, 192, 128)
#endif
#if FLASHATTN_CUDA_HDIM_256
      FA_SM90_ENTRY(__half, Float16, 256, 256) FA_SM90_ENTRY(__nv_bfloat16, BFloat16, 256, 256)
#endif
      {Direction::Forward, DType::Float32, 0, 0, 0, nullptr},  // end marker (keeps the table non-empty)
  };
  *count = int(sizeof(table) / sizeof(table[0])) - 1;
  return table;
}
#undef FA_SM90_ENTRY

bool sm90_enabled() {
  // On by default (validated on the H200, bench/NOTES.md session 4); FLASHATTN_DISABLE_SM90=1
  // sends the forward to the sm80 path (comparisons, the agreement test).
  const char* v = std::getenv("FLASHATTN_DISABLE_SM90");
  return !(v != nullptr && v[0] == '1');
}

// The forward's tile indices fit 31 bits (config.h TileMap90 decodes them with FastDiv): at
// most ceil(seqlen_q / 64) tiles a (batch, head) pair (64 rows a consumer warpgroup; packed GQA
// has fewer). Beyond reach of any GPU's memory (q alone would pass 16 TB); checked all the same.
bool sm90_tiles_fit(const Problem& p) {
  const int64_t blocks = (p.max_seqlen_q + 63) / 64;
  return int64_t(p.batch) * p.num_heads * blocks < (int64_t(1) << 31);
}

bool sm90_eligible(const Problem& p) {
  // head_dim == head_dim_v, or the (192, 128) pair (tiers: head_dim in (128, 192], head_dim_v in (96, 128]).
  const bool dims = p.head_dim == p.head_dim_v || (p.head_dim > 128 && p.head_dim <= 192 && p.head_dim_v > 96 && p.head_dim_v <= 128);
  return dims && p.head_dim % 8 == 0 && p.head_dim_v % 8 == 0 && sm90::tma_ok(p.q) && sm90::tma_ok(p.k) &&
         sm90::tma_ok(p.v) && sm90::tma_ok(p.out) && p.total_q < (int64_t(1) << 31) &&
         p.total_k < (int64_t(1) << 31) && sm90_tiles_fit(p);
}

void sm90_forward(const Problem& p, const KernelEntry& kernel, const Context& context) {
  if (p.max_seqlen_q == 0 || p.total_q == 0) return;
  sm90::FwdParams90 P;
  P.p = sm80::make_fwd_params(p);
  const int64_t rows_q = p.varlen ? p.total_q : p.max_seqlen_q;
  const int64_t rows_k = p.varlen ? p.total_k : p.max_seqlen_k;
  const int batch = p.varlen ? 1 : p.batch;
  // The key block: the tier's default (config.h fwd90_block_n) or its alternative, where that
  // measured faster: 176 keys at head_dim 128 for the plain kernel without a causal mask or window
  // from 8192 keys on (session 27, with the stream-K tail below, 3 rounds, TFLOP/s 176 / 128
  // keys: 8k 706 / 695, 16k 707 / 698; 4k 672 / 678, and -2 to -8% below 4k in sessions 25-26);
  // 64 keys at head_dim 256 for the causal plain kernel up to 1024 queries (session 35, H100, 3
  // rounds, TFLOP/s 64 / 80 keys: causal 512 278 / 271, 1k 435 / 429; 2k 553 / 559, 4k 618 / 649,
  // non-causal 1k 601 / 643: at short causal tiles less of a masked diagonal block is wasted work;
  // with the skip of masked blocks below, session 37: 1k 435 / 435); 64 keys at head_dim 192 for
  // the causal plain kernel up to 512 queries (session 37, H100, 3 rounds, with the skip, TFLOP/s
  // 64 / 96 keys: causal 512 289 / 269; 1k 419 / 427, 2k 497 / 514).
  // FLASHATTN_SM90_BLOCKN=alt / =default forces either; FLASHATTN_SM90_PINGPONG=0: no ping-pong
  // between the consumers (comparisons).
  const char* alt = std::getenv("FLASHATTN_SM90_BLOCKN");
  const bool plain = sm90::fwd90_plain(P.p);
  // Softcap alone takes the plain kernel with softcap (fwd_kernel.h kCap) at the default key block,
  // and the plain kernel's choices below (three consumers, GQA packing) but its key-block
  // alternatives. FLASHATTN_SM90_FWD_CAP=0, or a switch off its default (kCap has no build that
  // reads them: fwd90_cap_call): the kernel with extras.
  P.cap_kernel = sm90::env_choice("FLASHATTN_SM90_FWD_CAP", true);
  // ALiBi alone likewise at tiers 64 and 128 (fwd_kernel.h kAlibi), without GQA packing;
  // FLASHATTN_SM90_FWD_ALIBI=0: the kernel with extras.
  P.alibi_kernel = sm90::env_choice("FLASHATTN_SM90_FWD_ALIBI", true);
  P.alt = alt != nullptr ? alt[0] == 'a'
                         : (kernel.head_dim == 128 && plain && !p.causal && !p.varlen && P.p.window_left < 0 &&
                            P.p.window_right < 0 && p.max_seqlen_k >= 8192) ||
                               (kernel.head_dim == 256 && plain && p.causal && p.max_seqlen_q <= 1024) ||
                               (kernel.head_dim == 192 && plain && p.causal && p.max_seqlen_q <= 512);
  P.pingpong = sm90::env_choice("FLASHATTN_SM90_PINGPONG", sm90::fwd90_default::pingpong);
  P.skip_rescale = sm90::env_choice("FLASHATTN_SM90_SKIP_RESCALE", sm90::fwd90_default::skip_rescale);  // (no gain measured: session 13)
  // The variants below were measured beside cuDNN on the H200 (bench/NOTES.md, session 5, run 1);
  // each default follows the measurement, and an environment knob forces it either way
  // (FLASHATTN_SM90_PERSISTENT / _CONSUMERS / _TMA_STORE / _PACK_GQA; for comparisons).
  //
  // Persistent grid (one CTA per SM walking the tiles in a snake, fwd_kernel.h; the producer
  // loads the next tile's Q and K/V while the consumers write O): +3-20% without a causal mask
  // (session 5, run 1), and with the snake order also causal: 8k-16k +0.3-3% at head_dim 64-256
  // (run 5; plain striding had lost 8-12% there). FLASHATTN_SM90_PERSISTENT=0 launches a CTA a tile;
  // =N (N > 1): N CTAs (tests and the sanitizer give many tiles to each CTA of a small problem).
  const int sm_count = sm90::device_sm_count();  // (also the groups below)
  P.sm_count = sm90::persistent_ctas("FLASHATTN_SM90_PERSISTENT", true, sm_count);
  P.persistent = P.sm_count > 0;
  // Three consumer warpgroups (192-row tiles) where the tier has them (head_dim 64): +5-10% at
  // 2k-8k, causal or not, for the plain kernel (measured). Causal up to 1024 queries keeps two
  // without the skip below (128-row tiles: less of the tile above the diagonal and in the last
  // block's padding; session 15: 512 +6%, 1k +8%, but 2k -6%). The extras kernel (score
  // modifiers, dropout) keeps two by default: at 160 registers a consumer it spills, at 240 it
  // does not. FLASHATTN_SM90_CONSUMERS=3 / =2 forces three / two for both.
  //
  // Live warpgroups skip the key blocks at the start of a tile's walk that their rows do not see
  // (config.h fwd90_skip_blocks: causal tiles whose first warpgroups' rows end before the first
  // block's keys; with ping-pong only). Session 36 (H100, 3 rounds, TFLOP/s on / off): head_dim
  // 256 causal 512 288 / 280, 1k 445 / 435, 2k 570 / 565, 8k 735 / 731; head_dim 64 causal 2k
  // (three consumers) 420 / 406; 128 even (128-row tiles on 128-key blocks: nothing to skip).
  // FLASHATTN_SM90_SKIP_MASKED=0 computes those blocks masked.
  P.skip_masked = sm90::env_choice("FLASHATTN_SM90_SKIP_MASKED", sm90::fwd90_default::skip_masked);
  // The epilogue's normalizer and LSE by rcp.approx / lg2.approx (fwd_kernel.h finish; relative
  // error 2^-22, inside the LSE rule) instead of the IEEE division and logf, ~90 instructions a
  // thread off a tile's fixed path. Session 37 (H100, 3 rounds, TFLOP/s on / off): head_dim 64
  // causal 512 230 / 225, non-causal 1k 439 / 432; head_dim 128 512 487 / 483; 8k even.
  // FLASHATTN_SM90_FAST_FINISH=0 takes the shared semantics' softmax_finalize.
  P.fast_finish = sm90::env_choice("FLASHATTN_SM90_FAST_FINISH", sm90::fwd90_default::fast_finish);
  // A tile's first S and its softmax before the warpgroup's S_0 turn where safe (fwd_kernel.h
  // FwdParams90::early_s0): off until measured; FLASHATTN_SM90_EARLY_S0=1 turns it on.
  P.early_s0 = sm90::env_choice("FLASHATTN_SM90_EARLY_S0", sm90::fwd90_default::early_s0);
  // O's rows as 16-byte stores where not by TMA (fwd_kernel.h write_out; the base and strides are
  // 16-byte aligned: sm90_eligible's tma_ok(out)). FLASHATTN_SM90_OUT_VEC16=0: 4-byte stores.
  P.out_vec16 = sm90::env_choice("FLASHATTN_SM90_OUT_VEC16", sm90::fwd90_default::out_vec16);
  // With TMA stores, O into the shared O tile by stmatrix (session 22: +1-2% at 512-2k);
  // FLASHATTN_SM90_OUT_STSM=0: 4-byte stores (Sm90.OutStsmSameBytes compares the two).
  P.out_stsm = sm90::env_choice("FLASHATTN_SM90_OUT_STSM", sm90::fwd90_default::out_stsm);
  P.drop_kernel = sm90::env_choice("FLASHATTN_SM90_FWD_DROP", true);
  // Two Q buffers where the tier has room (Fwd90Config::kQBuffers: the next tile's Q loads while
  // this one runs); FLASHATTN_SM90_Q_PREFETCH=0: one.
  P.q_buffers = sm90::env_choice("FLASHATTN_SM90_Q_PREFETCH", sm90::fwd90_default::q_buffers == 2) ? 2 : 1;
  // Idle consumer warpgroups skip their tiles (fwd_kernel.h); FLASHATTN_SM90_SKIP_IDLE=0: they compute padding rows.
  P.skip_idle = sm90::env_choice("FLASHATTN_SM90_SKIP_IDLE", sm90::fwd90_default::skip_idle);
  // The build that reads the switches even with every one at its default (fwd_kernel.h
  // FA_SM90_FWD_SWITCHES; launch.h takes it anyway where one is off): its tests and A/Bs.
  P.switched = sm90::env_choice("FLASHATTN_SM90_SWITCHED", false);
  // (Every switch is read by here: whether kCap runs, below, takes only the switches' defaults,
  // fwd90_cap_call.)
  const bool cap = sm90::fwd90_cap_call(P), alibi = sm90::fwd90_alibi_call(P, kernel.head_dim);
  const char* consumers = std::getenv("FLASHATTN_SM90_CONSUMERS");
  // With the skip, the 192-row tiles waste no more of a short causal tile than 128-row ones
  // (their first warpgroups skip the blocks they do not see), so causal up to 1024 queries takes
  // three too (session 36: causal 512 223 against two's 213, 1k 308 / 292), from 129 queries (up
  // to 128 one 128-row tile holds them all, and packed GQA tiles skip nothing).
  const bool short_causal =
      p.causal && p.max_seqlen_q <= 1024 && !(P.skip_masked && P.pingpong && p.max_seqlen_q > 128);
  P.three_consumers = consumers != nullptr && consumers[0] == '3'   ? 1
                      : consumers != nullptr && consumers[0] == '2' ? 0
                                                                    : int((plain || cap || alibi) && !short_causal);
  const int block_m = 64 * sm90::fwd90_consumers(kernel.head_dim, P.three_consumers != 0);
  if (block_m == 192) P.alt = 0;  // three consumers: the default key block (launch.h)
  const int block_n = sm90::fwd90_block_n(kernel.head_dim, P.alt != 0);
  P.block_m = block_m;
  P.block_n = block_n;
  // GQA packing: with GQA and short queries, the most query heads of a group (a power of two
  // dividing it) whose rows still fit the tile share it: 4-5x on decoding shapes (one K/V pass
  // for the group instead of one per query head); the plain kernel only, and kCap (launch.h picks
  // it by the same rule, fwd90_takes_cap).
  if (sm90::env_choice("FLASHATTN_SM90_PACK_GQA", true) &&
      (plain || sm90::fwd90_takes_cap(P, kernel.head_dim, block_n)))
    while (p.group() % (P.pack * 2) == 0 && block_m / (P.pack * 2) >= p.max_seqlen_q) P.pack *= 2;
  // Clusters of two CTAs with K/V multicast (FwdParams90::cluster, fwd_kernel.h kCluster): each CTA
  // of a pair of query blocks of one head loads half of each K and V block for both, so an SM takes
  // half the K/V bytes from L2. Where a head's query blocks come in pairs: head_dim 128's and 256's
  // plain kernel on two consumers with the switches' defaults, no varlen or GQA packing, a
  // persistent grid, and query blocks in pairs within a head (an even count of 128-row blocks).
  // Under a causal mask or a window the pair walks the union of its tiles' key blocks, rank 0
  // passing over the extra ones at the walk's start, rank 1 (a left window) those at its end
  // (fwd_kernel.h). Its units are pairs of tiles on clusters, with the one-CTA kernel's schedule
  // (tickets, a stream-K tail over pairs; launch.h). By default over 512 keys, under a causal mask
  // over 1024, under a left window only over 2048 of its keys (below). Session 64 (H100, 2 rounds,
  // TFLOP/s the pair schedule / the pairs' static rounds / one CTA): head_dim 128 1k 603 / 612 /
  // 597, 2k 677 / 675 / 668, 4k 718 / 702 / 702, 8k 742 / 728 / 724, 16k 724 / 710 / 710. So up to
  // 1024 keys the pairs take static rounds at head_dim 128 (no tickets, no tail; session 62 call 5:
  // 1k 619 / 602 against one CTA, 1k with GQA 4 626 / 614; at head_dim 256 1k, session 65: static
  // 632, the pair schedule 646, one CTA 640), and at 512 keys none (a 4-block walk: 507 / 519,
  // the pair's lockstep costs more than the bytes). Session 65 (H100, 2-3 rounds, the pair schedule
  // in head groups of 8 (below) / one CTA): causal head_dim 128 512 306 / 326, 1k 446 / 451, 2k
  // 567 / 566, 4k 653 / 625, 8k 704 / 643, 16k 720-729 / 683; causal head_dim 256 512 294 / 288,
  // 1k 439 / 452, 2k 601 / 599, 4k 711 / 655, 8k 772 / 738, 16k 806 / 786; head_dim 256 1k 658 /
  // 651, 2k 737 / 730, 4k 778 / 771, 8k 804 / 798, 16k 774-787 / 757. Each CTA loads half of each
  // block's rows (session 63's halves by 64-column panels measured the same at head_dim 128 and
  // 0.7% slower at 256, and were dropped). FLASHATTN_SM90_CLUSTER=1 takes it wherever it applies,
  // =require fails where it does not (tests), =0 never.
  bool cluster_static = false;  // static rounds of pairs (below)
  {
    const char* cl = std::getenv("FLASHATTN_SM90_CLUSTER");
    // Query blocks in pairs within a head: an even count of blocks (a partial last tile's rows past
    // seqlen_q are the one-CTA kernel's: Q read as zeros, O and the LSE not written; a warpgroup
    // with none of its rows there idle, passing over the walk's blocks: fwd_kernel.h pass_block).
    const bool pair_rows = (p.max_seqlen_q + block_m - 1) / block_m % 2 == 0;
    // By default without a mask over 512 keys; where the rows' first keys are 0 (causal, a window
    // open on the left) over 1024; where a left window cuts them (rank 1 passes over the walk's
    // last blocks) only a wide one: its width (right side 0 if open) over 2048 keys. A side
    // reaching past every key is open. Session 66 (H100, TFLOP/s the cluster / one CTA, causal with
    // a left window of 1024 / 1536 / 2048 / 3072 / 4096 keys): head_dim 128 8k 515 / 538, 584 /
    // 578, 619 / 588, 652 / 613, 673 / 627; 16k 523 / 539, 588 / 593, 623 / 622, 660 / 644, 682 /
    // 652; head_dim 256 16k 539 / 558, 607 / 627, 655 / 661, 716 / 712 (8k at 4096: 733 / 707);
    // without a mask, 4096 on the left only, head_dim 128 8k 713 / 683; at 256 forced 254 / 300.
    const int64_t sk = p.max_seqlen_k;
    const int64_t wl = P.p.window_left >= 0 && P.p.window_left < sk ? P.p.window_left : -1;
    const int64_t wr_in = p.causal ? 0 : P.p.window_right;
    const int64_t wr = wr_in >= 0 && wr_in < sk ? wr_in : -1;
    const bool want = cl != nullptr ? cl[0] == '1' || cl[0] == 'r'
                      : wl >= 0         ? wl + std::max<int64_t>(wr, 0) > 2048
                                        : sk > (wr >= 0 ? 1024 : 512);
    const bool ok = (kernel.head_dim == 128 || kernel.head_dim == 256) && kernel.head_dim_v == kernel.head_dim &&
                    plain && block_m == 128 && P.pack == 1 && !p.varlen && P.persistent &&
                    !sm90::fwd90_switched(P) && pair_rows && P.sm_count >= 2;
    if (want && !ok && cl != nullptr && cl[0] == 'r')
      throw CudaError(
          "flashattn: FLASHATTN_SM90_CLUSTER=require: this call cannot take the cluster kernel (it needs head_dim 128 or 256 "
          "tiers with head_dim_v the same, no score "
          "modifier, dropout, varlen or GQA packing, an even count of 128-row query blocks, two consumers, "
          "the switches' defaults and a persistent grid)");
    P.cluster = want && ok ? 1 : 0;
    if (P.cluster) P.sm_count &= ~1;  // (pairs: an even grid)
    cluster_static = P.cluster != 0 && cl == nullptr && p.max_seqlen_k <= 1024 && kernel.head_dim == 128;
  }
  // Causal tiles in head groups (config.h TileMap90; sessions 14-15). Longest first over all
  // (batch, head) pairs puts about SMs / pairs tiles of each head in flight, each tile streaming
  // its head's K/V: with fewer than two a head (more pairs than half the SMs) the short causal
  // shapes were DRAM bound (2k, head_dim 128: 1.09 GB read; 0.34 GB in groups). Groups of a
  // quarter of the SMs' count in heads there (about four tiles of a head in flight); below half
  // the SMs, groups of a sixteenth (below; session 15 had taken a sixth between a quarter and
  // half at 128-row tiles, 64 pairs: head_dim 128 4k +5%, 8k +8%, head_dim 256 2k +12%, 4k +10%,
  // and none at head_dim 64's 192-row tiles, -2.5% at 8k with a sixth). Larger
  // groups keep the longest-first balance: a model of the grid (bench/gpu/causal_order_sim.py)
  // gives 96-99.8% of the ideal makespan on the standard shapes, where groups sized to fit the L2
  // fell to 56-90% at 4k-16k. A cluster's units are pairs of tiles (256 rows, half the K/V bytes
  // an SM): groups of a sixteenth of the SMs (8 on 132; session 65, H100, TFLOP/s groups of 4 / 8
  // / 12 / 16 / 24 / none: causal head_dim 128 8k 703 / 704 / 697 / 692 / 672 / 672, 16k 729 / 720
  // / 716 / 715 / 715 / 713, 4k 654 / 653 / 654 / 652 / 643 / -, head_dim 256 4k 710 / 711 / 708 /
  // 703 / 680 / 680, 8k 768 / 772 / 761 / - / - / 760). The one-CTA kernel likewise below half
  // the SMs in pairs (session 66, H100, TFLOP/s groups of 8 / the rule before: sixths over a
  // quarter of the SMs at 128-row tiles, else none): causal head_dim 128 4k 637 / 625, 8k 676 /
  // 644, 16k 694 / 685, 4000 617 / 608, 8150 670 / 638; head_dim 256 4k 701 / 656, 8k 758 / 740,
  // 16k 788 / 788 (8 heads: one group); head_dim 64 8k 539 / 527, 16k 574 / 538 (-1.3% at 4k and
  // -3.7% at 2k, which keep their quarters). FLASHATTN_SM90_CAUSAL_GROUPS=N: groups of N; 0: none.
  if (p.causal && !p.varlen) {
    const int64_t bh = int64_t(p.batch) * (p.num_heads / P.pack);
    const char* g = std::getenv("FLASHATTN_SM90_CAUSAL_GROUPS");
    const int64_t group = g != nullptr                        ? std::atoll(g)
                          : !P.cluster && bh > sm_count / 2   ? std::max(1, sm_count / 4)
                                                              : std::max(1, sm_count / 16);
    P.group_heads = group > 0 && group < bh ? int(group) : 0;
  }
  const int box_kv = P.cluster ? block_n / 2 : block_n;
  P.tma_q = sm90::make_tensor_map(P.p.q, p.dtype, p.head_dim, rows_q, p.num_heads, batch, block_m / P.pack, P.pack);
  P.tma_k = sm90::make_tensor_map(P.p.k, p.dtype, p.head_dim, rows_k, p.num_heads_kv, batch, box_kv);
  P.tma_v = sm90::make_tensor_map(P.p.v, p.dtype, p.head_dim_v, rows_k, p.num_heads_kv, batch, box_kv);
  // O through shared memory and TMA stores (not for varlen batches, whose tiles end inside the
  // next sequence's rows, nor packed tiles): +2-5% at head_dim 128 up to 2k, -1-2% at 256, so by
  // default up to head_dim_v 128.
  P.store_o = sm90::env_choice("FLASHATTN_SM90_TMA_STORE", p.head_dim_v <= 128) && !p.varlen && P.pack == 1;
  if (P.store_o) P.tma_o = sm90::make_tensor_map(P.p.out, p.dtype, p.head_dim_v, rows_q, p.num_heads, batch, 64);
  // The last rounds as stream-K (config.h StreamK) where every tile has the same keys (no
  // causal mask, no window, no varlen) and the rounds do not come out even. By default where the
  // model (key blocks a CTA) saves 2% or more and the tier is 128 or below: session 27 measured
  // (H200, 3 rounds, non-causal, TFLOP/s stream-K / whole rounds) head_dim 128 2k 646 / 636, 4k
  // 676 / 662, 8k 693 / 676 (models 2.7-3.0%), 1k even (2.3%), 512 484 / 497 (1.6%); head_dim 64
  // 2k 496 / 484 (2.8%) but 8k 535 / 550 (0.7%); head_dim 256 8k 766 / 758 and 2k 699 / 707
  // (2.9% both: each piece costs more there). FLASHATTN_SM90_STREAMK=1 splits wherever it can
  // (tests), =0 never. The tiles and the grid as launch.h computes them (it checks they agree).
  const int64_t tiles = sm90::fwd90_tiles(p.max_seqlen_q, block_m / P.pack, int64_t(p.batch) * (p.num_heads / P.pack));
  const int64_t grid = sm90::fwd90_grid(tiles, P.persistent != 0, P.sm_count);
  std::unique_ptr<Workspace> split_ws;
  const bool sk_force = sm90::env_choice("FLASHATTN_SM90_STREAMK", false);
  const bool sk_off = !sm90::env_choice("FLASHATTN_SM90_STREAMK", true);
  if (P.persistent && !p.causal && !p.varlen && P.p.window_left < 0 && P.p.window_right < 0 && !sk_off &&
      !cluster_static) {
    const int nk = int((p.max_seqlen_k + block_n - 1) / block_n);
    // (A cluster's units are pairs of tiles on clusters, launch.h launch_fwd90_cluster; its slots
    // a CTA's all the same.)
    P.sk.plan = P.cluster ? sm90::StreamK(tiles / 2, grid / 2, nk) : sm90::StreamK(tiles, grid, nk);
    if (!sk_force && (P.sk.plan.saving() < 0.02 || kernel.head_dim > 128)) P.sk.plan = sm90::StreamK();
    // A slot per CTA: each consumer warpgroup's 128 threads x (head_dim_v tier / 8 + 1) float4s, and a flag.
    const std::size_t slot_bytes = std::size_t(block_m / 64) * 128 * (kernel.head_dim_v / 8 + 1) * 16;
    if (P.sk.plan.width > 0) split_ws = P.sk.allocate(context, tiles, grid, slot_bytes, block_m / 64);
  }
  // Dynamic whole tiles on a persistent grid with more tiles than CTAs (FwdParams90::tile_tickets:
  // 16 bytes, never cleared: CTA 0 zeroes the count and flags it with this launch's epoch; the
  // tickets are ints: below 2^30 tiles), each claimed on the producer's request after its item's
  // last key-block loads (the request one key block before the last). On by default at every
  // length. Session 51 (H100, 3 rounds, TFLOP/s tickets claimed after the last load / static
  // rounds): head_dim 64 512 403 / 384, causal 512 248 / 236, causal 4k 501 / 486, causal 8k +3.7%;
  // head_dim 128 causal 512 315 / 310, causal 4k 625 / 618, causal 1k-2k even, causal 8k -0.7% and
  // 16k -1.0%. Session 52 (H200, the request a block earlier, 3 rounds): against static head_dim 64
  // causal 8k 530 / 516, 16k 550 / 541; head_dim 128 causal 8k 642 / 640, 16k 678 / 673; head_dim
  // 256 8k 786 / 784, causal 16k even; 512-2k +0.5-4.9% but head_dim 128 512 -0.4%.
  // (Session 50: tickets taken a tile ahead lost 3-4% at causal 1k-2k.)
  // FLASHATTN_SM90_DYNAMIC=1 / =0 forces either.
  std::unique_ptr<Workspace> ticket_ws;
  if (P.persistent && !cluster_static && sm90::env_choice("FLASHATTN_SM90_DYNAMIC", true)) {
    if (grid < tiles && tiles < (int64_t(1) << 30)) {
      ticket_ws = std::make_unique<Workspace>(context, 16);
      P.tile_tickets = reinterpret_cast<unsigned long long*>(ticket_ws->data());
      P.tile_epoch = sm90::fresh_epoch();
    }
  }
#ifdef FLASHATTN_SM90_TRACE
  // The diagnostic timeline (fwd_kernel.h): a zeroed buffer, then the lines on stdout. It
  // synchronizes the stream: a measurement build only.
  static uint32_t* trace = nullptr;
  if (trace == nullptr) check(cudaMalloc(&trace, sm90::kTraceAllWords * 4), "cudaMalloc(trace)");
  check(cudaMemsetAsync(trace, 0, sm90::kTraceAllWords * 4, static_cast<cudaStream_t>(context.cuda_stream)), "cudaMemsetAsync(trace)");
  P.trace = trace;
#endif
  kernel.launch(&P, context.cuda_stream);
#ifdef FLASHATTN_SM90_TRACE
  std::vector<uint32_t> h(sm90::kTraceAllWords);
  check(cudaStreamSynchronize(static_cast<cudaStream_t>(context.cuda_stream)), "cudaStreamSynchronize(trace)");
  check(cudaMemcpy(h.data(), trace, h.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy(trace)");
  for (int c = 0; c < sm90::kTraceCtas; ++c)
    for (int r = 0; r < sm90::kTraceRoles; ++r)
      for (int t = 0; t < sm90::kTraceTiles; ++t) {
        const uint32_t* e = &h[((c * sm90::kTraceRoles + r) * sm90::kTraceTiles + t) * sm90::kTraceEvents];
        if (e[0] | e[1] | e[2] | e[3] | e[4] | e[5])
          std::printf("T %d %d %d %u %u %u %u %u %u %u %u %u %u %u\n", c, r, t, e[0], e[1], e[2], e[3], e[4], e[5], e[6],
                      e[7], e[8], e[9], e[10]);
      }
  for (int c = 0; c < sm90::kTraceSpanCtas; ++c) {
    const uint32_t* e = &h[sm90::kTraceWords + c * sm90::kTraceSpanWords];
    if (e[0]) std::printf("S %d %u %u %u %u %u %u\n", c, e[0], e[1], e[2], e[3], e[4], e[5]);
  }
#endif
}

}  // namespace flashattn::cuda
