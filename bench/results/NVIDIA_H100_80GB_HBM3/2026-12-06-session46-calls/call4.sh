#!/usr/bin/env bash
# Session 46 call 4 (carry .deps/googletest): kDkLate (the 80-query kernel's dK after dQ^T). Tier
# 128 only (no other kernel changed); A/B: main = 12a440f's sm90 backward files (_ab/base46), new;
# 3 rounds; ctest -R Sm90Bwd (tier 128's run, the others skip); memcheck and racecheck (3
# persistent CTAs). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=560 BASE=_ab/base46 \
  SHAPES="128,1024,1;128,2048,1;128,2048,0;128,4096,0;128,8192,1;128,8192,0;128,16384,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 250 ctest -j16 --output-on-failure --timeout 240 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
S=build-gpu/bin/flashattn_cuda_sanitize
for tool in memcheck racecheck; do
  FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 50 compute-sanitizer --tool $tool --error-exitcode 3 "$S" >"$O/san_$tool.txt" 2>&1
  echo "$tool (bwd grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_$tool.txt" | tail -1)" | tee -a "$O/log.txt"
done
echo "===== done (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
pack
cat "$O/log.txt"
