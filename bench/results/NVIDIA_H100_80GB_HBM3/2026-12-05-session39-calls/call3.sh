#!/usr/bin/env bash
# Session 39 call 3 (carry .deps/googletest; builds tiers 64 and 128 with the tests into build-gpu
# unless call2.sh already did, so it may run first): the
# d128 backward's 80-query steps (FLASHATTN_SM90_BWD_BLOCK_M=80, bwd_config.h kDqT), never run on
# a GPU before: their tests first (each step bounded: a hang must not eat the call), then the A/B
# against the 64-query steps beside cuDNN, then compute-sanitizer with the knob on.
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
O=/tmp/r3
rm -rf "$O" && mkdir -p "$O"
pack() { (cd /tmp && tar czf "$OUT/r3.tgz" r3 2>/dev/null); }
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >"$O/smi.txt" 2>&1
B=build-gpu/bin
if [[ ! -x "$B/flashattn_cuda_tests" || ! -x "$B/flashattn_gpu_bench" ]]; then
  GPU_CHECK_STAGES=build BUILD_DIR="$PWD/build-gpu" FLASHATTN_HEAD_DIMS="64;128" GPU_CHECK_SM80_FORWARD=0 \
    tools/gpu-check "$O/gc" >/dev/null 2>&1
  echo "build: $(grep -E 'build rc' "$O/gc/gpu-check.log")" | tee "$O/log.txt"
fi
timeout 300 "$B/flashattn_cuda_tests" --gtest_filter='Sm90Bwd.Block80:Sm90BwdDqTmaOptions.*/1' >"$O/tests.txt" 2>&1
rc=$?
echo "tests rc=$rc $(grep -E '^\[  (PASSED|FAILED)' "$O/tests.txt" | tr '\n' ' ')" | tee -a "$O/log.txt"
pack
[[ $rc == 0 ]] || { tail -60 "$O/tests.txt"; exit 1; }
timeout 200 python3 bench/gpu/sm90_variants.py --pass bwd --bench "$B/flashattn_gpu_bench" \
  --variants "new:;b80:FLASHATTN_SM90_BWD_BLOCK_M=80" \
  --shapes "128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,8192,1;128,1024,0;128,512,0" \
  --rounds 3 --out "$O/ab.json" >"$O/ab.txt" 2>&1
echo "ab rc=$?" | tee -a "$O/log.txt"
grep -A20 "^| shape" "$O/ab.txt" | tee -a "$O/log.txt"
pack
for tool in memcheck racecheck; do
  FLASHATTN_SM90_BWD_BLOCK_M=80 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 "$B/flashattn_cuda_sanitize" \
    >"$O/san_$tool.txt" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_$tool.txt" | tail -1)" | tee -a "$O/log.txt"
  pack
done
# ... and the stream-K tail's pieces in 80-query steps (three persistent CTAs).
FLASHATTN_SM90_BWD_BLOCK_M=80 FLASHATTN_SM90_BWD_STREAMK=1 FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 120 \
  compute-sanitizer --tool racecheck --error-exitcode 3 "$B/flashattn_cuda_sanitize" >"$O/san_race_sk.txt" 2>&1
echo "racecheck stream-K rc=$? $(grep -E 'RACECHECK SUMMARY' "$O/san_race_sk.txt" | tail -1)" | tee -a "$O/log.txt"
pack
tail -30 "$O/log.txt"
