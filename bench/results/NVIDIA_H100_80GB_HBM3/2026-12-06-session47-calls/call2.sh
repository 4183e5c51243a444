#!/usr/bin/env bash
# Session 47 call 2 (carry .deps/googletest): the fused dQ conversion (FLASHATTN_SM90_BWD_DQ_FUSED).
# Build tiers 64;128;192;256; ctest Sm90Bwd.FusedDqConversion and neighbours; A/B (bwd, 3 rounds):
# new (off), f64 / f256 / f4096 units a step; memcheck and racecheck (3 persistent backward CTAs)
# with FUSED=256; then, as time allows, ctest -R Sm90Bwd with FUSED=256 for every test.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="64;128;192;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=560 \
  VARIANTS="f64:FLASHATTN_SM90_BWD_DQ_FUSED=64;f256:FLASHATTN_SM90_BWD_DQ_FUSED=256;f4096:FLASHATTN_SM90_BWD_DQ_FUSED=4096" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,8192,1;64,2048,0;64,8192,0;256,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== ctest FusedDqConversion|UnclearedWorkspace|Block80"
(cd build-gpu && timeout 150 ctest -j16 --output-on-failure --timeout 140 -R "Sm90Bwd\.(FusedDqConversion|UnclearedWorkspace|Block80)") >$O/t1.log 2>&1
log "t1 rc=$? $(grep -E 'tests passed|tests failed' $O/t1.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception|Failure|error' $O/t1.log | head -20 | tee -a $O/log.txt
pack
S=build-gpu/bin/flashattn_cuda_sanitize
for tool in memcheck racecheck; do
  FLASHATTN_SM90_BWD_DQ_FUSED=256 FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 "$S" >"$O/san_$tool.txt" 2>&1
  log "$tool (bwd grid 3, fused 256) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_$tool.txt" | tail -1)"
done
pack
log "===== ctest -R Sm90Bwd with FLASHATTN_SM90_BWD_DQ_FUSED=256"
LEFT=$((570 - ($(date +%s) - T0)))
(cd build-gpu && FLASHATTN_SM90_BWD_DQ_FUSED=256 timeout $LEFT ctest -j16 --output-on-failure --timeout 200 -R Sm90Bwd) >$O/bwdtests.log 2>&1
log "bwd ctest (fused) rc=$? $(grep -E 'tests passed|tests failed' $O/bwdtests.log)"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' $O/bwdtests.log | head -20 | tee -a $O/log.txt
log "===== done"
pack
cat $O/log.txt
