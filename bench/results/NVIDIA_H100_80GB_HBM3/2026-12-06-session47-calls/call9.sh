#!/usr/bin/env bash
# Session 47 call 9 (carry .deps/googletest): the handed-over epilogue as the default (the working
# tree: o_handoff 1 compiled in) against f4f949c's fwd_kernel.h (_ab/base48: 0). Tiers 64;128; A/B
# fwd, 3 rounds; then the forward's tests as time allows.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=200 BASE=_ab/base48 \
  SHAPES="128,512,0;128,512,1;128,1024,0;128,1024,1;128,2048,0;128,8192,0;64,512,0;64,512,1;64,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== ctest forward"
(cd build-gpu && timeout 100 ctest -j16 --output-on-failure --timeout 95 -R "Sm90\.|Sm90Grid|CudaShapes" -E Sm90Bwd) >$O/t1.log 2>&1
log "t1 rc=$? $(grep -E 'tests passed|tests failed' $O/t1.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception' $O/t1.log | head -20 | tee -a $O/log.txt
log "===== done"
pack
cat $O/log.txt
