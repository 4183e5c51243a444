#!/usr/bin/env bash
# Session 41 call 2 (warm, after call1.sh; carry .deps/googletest): the rest of the whole check at
# the same commit: every ctest but the sm90 backward's (call 1 ran those), tiers as call 1 built
# them (64;96;128;192;256: the build is reused), then gpu-check's python stage (pytest with CUDA).
# Logs in $OUT/r.tgz.
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
O=/tmp/r2
rm -rf "$O" && mkdir -p "$O"
T0=$(date +%s)
GPU_CHECK_STAGES=build,test,python BUILD_DIR="$PWD/build-gpu" FLASHATTN_HEAD_DIMS="64;96;128;192;256" \
  GPU_CHECK_SM80_FORWARD=0 CTEST_ARGS="-E Sm90Bwd" CTEST_TIMEOUT=400 \
  timeout 560 tools/gpu-check "$O/gc" >"$O/gc.txt" 2>&1
echo "gpu-check rc=$? in $(($(date +%s) - T0)) s" | tee -a "$O/log.txt"
grep -E "build rc|tests (passed|failed)|passed|failed|skipped" "$O/gc/gpu-check.log" | tail -12 | tee -a "$O/log.txt"
(cd /tmp && tar czf "$OUT/r.tgz" r2 2>/dev/null)
