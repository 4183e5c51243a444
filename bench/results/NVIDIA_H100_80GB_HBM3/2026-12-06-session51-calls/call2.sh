#!/usr/bin/env bash
# Session 51 call 2 (carry .deps/googletest): the same-run table (FA2, cuDNN, 2 rounds) with the
# new default (tile tickets up to 4096 queries, c638825). Both ticket states passed the forward
# suite in call 1b (919ad5f, the same kernel).
set -u
export COMMIT=c638825
export FLASHATTN_COMMIT=$COMMIT
T0=$(date +%s)
O=/tmp/r
rm -rf "$O" && mkdir -p "$O"
pack() { (cd /tmp && tar czf "$OUT/r.tgz.$BASHPID" r 2>/dev/null && mv -f "$OUT/r.tgz.$BASHPID" "$OUT/r.tgz"); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv >"$O/smi.txt" 2>&1
GPU_CHECK_STAGES=build BUILD_DIR="$PWD/build-gpu" FLASHATTN_HEAD_DIMS="64;128;256" GPU_CHECK_SM80_FORWARD=0 \
  tools/gpu-check "$O/gc" >/dev/null 2>&1
grep -E "build rc" "$O/gc/gpu-check.log" | tee -a "$O/log.txt"; pack
timeout 150 python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
  --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
log "table rc=$?"; pack
cat "$O/table.txt"
