#!/usr/bin/env bash
# Session 50 call 2 (carry .deps/googletest; tree COMMIT): the tickets claimed late (at the item's
# last key block, on request) and the 3-consumer producer at 32 registers. Forward suite with the
# knob on (FLASHATTN_SM90_DYNAMIC=1); racecheck + memcheck on 3 persistent CTAs; A/B, 3 rounds:
# new (late tickets), static (this tree, knob off); no BASE build (device time short).
set -u
export COMMIT=d7e5b7f
export FLASHATTN_COMMIT=$COMMIT
T0=$(date +%s); LIMIT=${LIMIT:-190}
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
left() { echo $((LIMIT - ($(date +%s) - T0))); }
FLASHATTN_SM90_DYNAMIC=1 TIERS="64;128;256" TESTS="Sm90\\." SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=190 \
  VARIANTS="static:FLASHATTN_SM90_DYNAMIC=0" \
  SHAPES="128,512,0;128,512,1;128,1024,1;128,2048,0;128,2048,1;128,8192,1;64,512,0;64,512,1;64,1024,1;64,2048,1;64,8192,0;64,8192,1;256,512,0;256,1024,1;256,2048,0;256,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
for tool in racecheck memcheck; do
  log "===== $tool, 3 persistent CTAs (tickets)"
  FLASHATTN_SM90_DYNAMIC=1 FLASHATTN_SM90_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >"$O/san3_$tool.txt" 2>&1
  log "$tool (grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san3_$tool.txt" | tail -1)"
  pack
done
if [[ $(left) -gt 40 ]]; then
  log "===== Sm90Grid with the knob on (left $(left) s)"
  (cd build-gpu && FLASHATTN_SM90_DYNAMIC=1 timeout $(( $(left) - 8 )) ctest -j16 --output-on-failure --timeout 140 \
     -R "Sm90Grid|CudaVarlen|CudaShapes" -E Sm90Bwd) >$O/grid_on.log 2>&1
  log "grid on rc=$? $(grep -E 'tests passed|tests failed' $O/grid_on.log)"
  grep -E '\(Failed\)|\(Timeout\)' $O/grid_on.log | head >>$O/log.txt
fi
log "===== done"
pack
cat $O/log.txt
