#!/usr/bin/env bash
# bench/gpu/bwd_trace.sh OUT_DIR [ITERS]: the sm90 backward's per-item timeline on the GPU, to test
# whether the SMs run at unequal speeds, so that the CTAs' finish times spread and the static
# assignment of tiles loses time at the end (bench/gpu/bwd_trace.py says what it prints). Builds
# build-trace (tiers 64 and 128, arch 90, -DFLASHATTN_SM90_TRACE: src/cuda/sm90/bwd_kernel.h; the
# configuration of bench/gpu/fwd_trace.sh, so either script reuses the other's build), then runs
# flashattn_gpu_bench --pass bwd at seqlen 8192, bf16, non-causal: head_dim 128 (batch 2, 16 heads:
# 2048 key-block tiles) and 64 (batch 2, 32 heads: 4096), each with FLASHATTN_SM90_BWD_STREAMK=1 (a
# persistent grid of one CTA an SM: whole rounds, then the stream-K tail) and =0 (one CTA a tile).
# A run launches the backward 1 + 2 (warm-up) + ITERS (default 4) times; the summary leaves the
# first three out. Output in OUT_DIR: bwd-trace-d<D>-sk<K>.txt (the summary), raw-d<D>-sk<K>.txt.gz
# (every line), gpu.txt (clocks, power and throttle reasons around each run), trace-build.log.
# The trace build synchronizes after each launch to print, and its consumers store two records an
# item: compare the SMs with each other, not its speeds with the library's.
set -u
OUTD=$1
ITERS=${2:-4}
WARMUP=2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUTD"
t0=$(date +%s)
cmake -S "$ROOT" -B "$ROOT/build-trace" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLASHATTN_CUDA=ON \
  -DFLASHATTN_BUILD_TESTS=OFF -DFLASHATTN_BUILD_CLI=OFF -DFLASHATTN_CUDA_ARCHS=90 -DFLASHATTN_HEAD_DIMS="64;128" \
  -DCMAKE_CUDA_FLAGS=-DFLASHATTN_SM90_TRACE >"$OUTD/trace-build.log" 2>&1 &&
  ninja -C "$ROOT/build-trace" -j"$(nproc)" flashattn_gpu_bench >>"$OUTD/trace-build.log" 2>&1 || {
  echo "trace build failed: $OUTD/trace-build.log"; exit 1; }
echo "trace build: $(($(date +%s) - t0)) s"
gpu_state() {
  echo "$1" >>"$OUTD/gpu.txt"
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv >>"$OUTD/gpu.txt" 2>&1 || true
}
for s in 128,8192,0 64,8192,0; do
  d=${s%%,*}
  for sk in 1 0; do
    n=d$d-sk$sk
    gpu_state "before $n"
    FLASHATTN_SM90_BWD_STREAMK=$sk "$ROOT/build-trace/bin/flashattn_gpu_bench" --shapes "$s" --tokens 16384 \
      --model-dim 2048 --pass bwd --dtype bf16 --iters "$ITERS" --warmup "$WARMUP" >"$OUTD/raw-$n.txt" 2>&1
    gpu_state "after $n"
    { echo "== head_dim $d, seqlen 8192, bf16, FLASHATTN_SM90_BWD_STREAMK=$sk"; grep -v '^[TB]' "$OUTD/raw-$n.txt" | head -5
      python3 "$ROOT/bench/gpu/bwd_trace.py" --skip $((1 + WARMUP)) "$OUTD/raw-$n.txt"; } | tee "$OUTD/bwd-trace-$n.txt"
    gzip -f "$OUTD/raw-$n.txt"
  done
done
