#!/usr/bin/env bash
# Session 46 call 3 (carry .deps/googletest): the stagger in the kLag kernels, on by default.
# Tiers 64;128;256; A/B: main = 0c74549's sm90 backward files (_ab/base46), new (stagger on),
# off, b64 (64-query steps forced: FLASHATTN_SM90_BWD_BLOCK_M=64), b64off; 3 rounds; ctest -R
# Sm90Bwd (default: stagger on); memcheck and racecheck (3 persistent CTAs). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=560 BASE=_ab/base46 \
  VARIANTS="off:FLASHATTN_SM90_BWD_STAGGER=0;b64:FLASHATTN_SM90_BWD_BLOCK_M=64;b64off:FLASHATTN_SM90_BWD_BLOCK_M=64,FLASHATTN_SM90_BWD_STAGGER=0" \
  SHAPES="64,1024,0;64,1024,1;64,2048,0;64,2048,1;64,4096,0;64,4096,1;64,8192,0;64,8192,1;64,16384,0;64,16384,1;128,2048,1;128,8192,1;128,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 200 ctest -j16 --output-on-failure --timeout 190 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
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
