#!/usr/bin/env bash
# Session 48 call 11 (carry .deps/googletest): the dQ conversion from the last rows (299d910, the
# working tree) against 5f24666's src/cuda/sm80/launch.cu (_ab/base11). Tiers 64;128;256 (TIERS11);
# A/B bwd 3 rounds; the same-run table (FA2, cuDNN; 2 rounds) on the base binary (5f24666's
# kernels); then Sm90Bwd.* (and the d96, d192 grid where built: TIERS11) as time allows (LIMIT11).
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="${TIERS11:-64;128;256}" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=300 BASE=_ab/base11 BASE_SUBDIR=src/cuda/sm80 \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,512,1;128,2048,1;64,512,0;64,2048,0;256,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== same-run table on the base binary (5f24666)"
FLASHATTN_COMMIT=5f24666 timeout 240 python3 bench/gpu_bench.py --flashattn-bench /tmp/base_main/b/bin/flashattn_gpu_bench \
  --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
log "table rc=$?"
grep -E "^ +(64|128|256) " "$O/table.txt" >>"$O/log.txt"
pack
left=$((${LIMIT11:-585} - ($(date +%s) - T0)))
[[ $left -lt 60 ]] && { log "no time for the tests"; pack; cat $O/log.txt; exit 0; }
log "===== ctest Sm90Bwd (built tiers) (left $left s)"
(cd build-gpu && timeout $((left - 5)) ctest -j16 --output-on-failure --timeout 200 -R "Sm90Bwd\.|Sm90BwdGrid.*_d(96|192)_") >$O/t2.log 2>&1
log "t2 rc=$? $(grep -E 'tests passed|tests failed' $O/t2.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception' $O/t2.log | head -20 | tee -a $O/log.txt
log "===== done"
pack
cat $O/log.txt
