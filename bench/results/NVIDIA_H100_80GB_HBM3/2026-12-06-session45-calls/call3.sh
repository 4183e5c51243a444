#!/usr/bin/env bash
# Session 45 call 3 (carry .deps/googletest, build-carry): tiers 64;128;256. Variants: main =
# 74ad7ff's sm90 backward files, held = b8ff132's, new = this commit (dV stored before the
# barrier, FLASHATTN_SM90_BWD_DV_EARLY), late = new with DV_EARLY=0. Plain shapes 3 rounds, then
# softcap 30 main / held / new 2 rounds; then ctest -R Sm90Bwd; then memcheck and racecheck with
# FLASHATTN_SM90_BWD_PERSISTENT=3. $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=560 BASE=_ab/s44head BASES="held=_ab/b8ff" \
  VARIANTS="late:FLASHATTN_SM90_BWD_DV_EARLY=0" \
  SHAPES="128,1024,1;128,2048,1;128,4096,1;128,8192,1;128,2048,0;128,8192,0;64,2048,1;64,8192,1;256,2048,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
VAR="main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;held:BENCH=/tmp/base_held/b/bin/flashattn_gpu_bench;new:"
echo "===== A/B softcap 30 (t=$(($(date +%s) - T0))s)" | tee -a $O/log.txt
timeout 150 python3 bench/gpu/sm90_variants.py --pass bwd --bench build-gpu/bin/flashattn_gpu_bench --variants "$VAR" \
  --shapes "64,2048,1;128,2048,1;128,8192,1;128,8192,0" --rounds 2 --bench-args "--softcap 30" >"$O/ab-softcap.txt" 2>&1
grep -A10 "^| shape" "$O/ab-softcap.txt" >>$O/log.txt
pack
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 170 ctest -j16 --output-on-failure --timeout 160 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
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
