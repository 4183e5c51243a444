#!/usr/bin/env bash
# Session 43 call 5 (carry .deps/googletest), at main with dK/dV by TMA stores
# (FLASHATTN_SM90_BWD_DKDV_TMA, default on): tiers 64;128 built; the backward A/B new (TMA
# stores) / old (=0, 16-byte stores from registers), 2 rounds, cuDNN beside; then every sm90
# backward test (Sm90Bwd*, DkDvTmaSameBytes among them) and compute-sanitizer memcheck / racecheck on flashattn_cuda_sanitize (its backward configurations). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=200 \
  VARIANTS="old:FLASHATTN_SM90_BWD_DKDV_TMA=0" \
  SHAPES="128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,2048,1;128,8192,1;64,2048,0;64,2048,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 200 ctest -j16 --output-on-failure --timeout 200 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception|DkDvTma' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
S=build-gpu/bin/flashattn_cuda_sanitize
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 "$S" >"$O/san_$tool.txt" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_$tool.txt" | tail -1)" | tee -a "$O/log.txt"
done
pack
cat "$O/log.txt"
