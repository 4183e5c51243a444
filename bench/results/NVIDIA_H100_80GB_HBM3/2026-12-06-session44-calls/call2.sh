#!/usr/bin/env bash
# Session 44 call 2 (carry .deps/googletest): 55001a3 (the dynamic grid + the mask test held an
# item). Tiers 64;128;256; HEAD's (74ad7ff) sm90 backward files beside as "main"; A/B main / new /
# static (FLASHATTN_SM90_BWD_DYNAMIC=0), 2 rounds, cuDNN beside; then every Sm90Bwd test, and
# memcheck / racecheck on flashattn_cuda_sanitize with FLASHATTN_SM90_BWD_PERSISTENT=3 (its
# backward cases on the dynamic grid where they have more than 3 tiles). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=300 BASE=_ab/s44head \
  VARIANTS="static:FLASHATTN_SM90_BWD_DYNAMIC=0" \
  SHAPES="128,1024,1;128,2048,1;128,4096,1;128,8192,1;128,16384,1;64,2048,1;64,8192,1;256,2048,1;256,8192,1;128,2048,0;128,8192,0;64,2048,0;64,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 280 ctest -j16 --output-on-failure --timeout 250 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
S=build-gpu/bin/flashattn_cuda_sanitize
for tool in memcheck racecheck; do
  FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 80 compute-sanitizer --tool $tool --error-exitcode 3 "$S" >"$O/san_$tool.txt" 2>&1
  echo "$tool (bwd grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_$tool.txt" | tail -1)" | tee -a "$O/log.txt"
done
pack
cat "$O/log.txt"
