#!/usr/bin/env bash
# Session 47 call 8 (carry .deps/googletest): the handed-over TMA-store epilogue
# (FLASHATTN_SM90_O_HANDOFF). Tiers 64;128; A/B fwd, 3 rounds: new (default build), switched (the
# switch-reading build, the baseline), ho (switched with the handoff); then the new tests and a
# racecheck of the sanitize program with the knob on 3 persistent CTAs.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=300 \
  VARIANTS="switched:FLASHATTN_SM90_SWITCHED=1;ho:FLASHATTN_SM90_O_HANDOFF=1" \
  SHAPES="128,512,0;128,512,1;128,1024,0;128,2048,0;128,2048,1;128,8192,0;64,512,0;64,512,1;64,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== ctest OHandoff"
(cd build-gpu && timeout 60 ctest -j16 --output-on-failure --timeout 55 -R "Sm90\.(OHandoffSameBytes|VariantOHandoff)") >$O/t1.log 2>&1
log "t1 rc=$? $(grep -E 'tests passed|tests failed' $O/t1.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception' $O/t1.log | head -20 | tee -a $O/log.txt
pack
FLASHATTN_SM90_O_HANDOFF=1 FLASHATTN_SM90_PERSISTENT=3 timeout 40 compute-sanitizer --tool racecheck --error-exitcode 3 build-gpu/bin/flashattn_cuda_sanitize >$O/san_race.txt 2>&1
log "racecheck (handoff, 3 CTAs) rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $O/san_race.txt | tail -1)"
log "===== done"
pack
cat $O/log.txt
