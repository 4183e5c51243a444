#!/usr/bin/env bash
# bench/gpu/fwd_trace.sh OUT_DIR [SHAPES]: the sm90 forward's per-tile timeline on the GPU. Builds
# build-trace (tiers 64 and 128, -DFLASHATTN_SM90_TRACE: the kernels record the SM clock at fixed
# points of each tile, src/cuda/sm90/fwd_kernel.h), runs flashattn_gpu_bench once per shape (one
# warm-up launch, one timed; the launcher synchronizes to print each launch's timeline, so the
# timed call waits out the benchmark's 2 s gate) and summarizes the last launch with bench/gpu/fwd_trace.py:
# OUT_DIR/trace-<shape>.txt. The trace build's registers and timing differ a little from the
# library's (printf, the recording stores): read phases against each other, not as speeds.
set -u
OUTD=$1
SHAPES=${2:-"64,512,1 64,512,0 64,8192,0 128,512,1 128,8192,0"}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUTD"
cmake -S "$ROOT" -B "$ROOT/build-trace" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLASHATTN_CUDA=ON \
  -DFLASHATTN_BUILD_TESTS=OFF -DFLASHATTN_BUILD_CLI=OFF -DFLASHATTN_CUDA_ARCHS=90 -DFLASHATTN_HEAD_DIMS="64;128" \
  -DCMAKE_CUDA_FLAGS=-DFLASHATTN_SM90_TRACE >"$OUTD/trace-build.log" 2>&1 &&
  ninja -C "$ROOT/build-trace" -j"$(nproc)" flashattn_gpu_bench >>"$OUTD/trace-build.log" 2>&1 || {
  echo "trace build failed: $OUTD/trace-build.log"; exit 1; }
for s in $SHAPES; do
  n=${s//,/_}
  "$ROOT/build-trace/bin/flashattn_gpu_bench" --shapes "$s" --pass fwd --iters 1 --warmup 1 >"$OUTD/raw-$n.txt" 2>&1
  { echo "== $s"; grep -v '^T ' "$OUTD/raw-$n.txt" | head -5; python3 "$ROOT/bench/gpu/fwd_trace.py" <"$OUTD/raw-$n.txt"; } | tee "$OUTD/trace-$n.txt"
  gzip -f "$OUTD/raw-$n.txt"
done
