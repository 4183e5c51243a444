#!/usr/bin/env bash
# Session 47 call 7 (carry .deps/googletest): one exponential in four of the d128 80-query backward
# step on the FMA pipe (prim::exp2_poly; the working tree, uncommitted) against main's bwd_kernel.h
# (_ab/base47). Tier 128; A/B bwd, 3 rounds; then ctest Sm90Bwd.Block80 and the d128 grid.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=400 BASE=_ab/base47 \
  SHAPES="128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,8192,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== ctest Block80, d128 grid"
(cd build-gpu && timeout 130 ctest -j16 --output-on-failure --timeout 120 -R "Sm90Bwd\.Block80|Sm90BwdGrid.Backward/.*d1(04|28)_") >$O/t1.log 2>&1
log "t1 rc=$? $(grep -E 'tests passed|tests failed' $O/t1.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception' $O/t1.log | head -20 | tee -a $O/log.txt
log "===== done"
pack
cat $O/log.txt
