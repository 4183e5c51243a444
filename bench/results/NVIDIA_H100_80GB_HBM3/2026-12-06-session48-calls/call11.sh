#!/usr/bin/env bash
# Session 48 call 11 (carry .deps/googletest; few device seconds left): one build (tiers 64;128;256)
# of the working tree; A/B bwd of FLASHATTN_BWD_DQ_CONVERT_REVERSE=1 (rev) against the default,
# 3 rounds; the same-run table (FA2, cuDNN; 2 rounds) of the default; then Sm90Bwd tests with rev
# on as time allows (LIMIT11).
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=200 VARIANTS="rev:FLASHATTN_BWD_DQ_CONVERT_REVERSE=1" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,8192,0;128,512,1;64,512,0;64,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== same-run table"
timeout 150 python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
  --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
log "table rc=$?"
grep -E "^ +(64|128|256) " "$O/table.txt" >>"$O/log.txt"
pack
left=$((${LIMIT11:-585} - ($(date +%s) - T0)))
[[ $left -lt 30 ]] && { log "no time for the tests"; pack; cat $O/log.txt; exit 0; }
log "===== ctest Sm90Bwd. with rev on (left $left s)"
(cd build-gpu && FLASHATTN_BWD_DQ_CONVERT_REVERSE=1 timeout $((left - 5)) ctest -j16 --output-on-failure --timeout 200 -R "Sm90Bwd\.") >$O/t2.log 2>&1
log "t2 rc=$? $(grep -E 'tests passed|tests failed' $O/t2.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception' $O/t2.log | head -20 | tee -a $O/log.txt
log "===== done"
pack
cat $O/log.txt
