#!/usr/bin/env bash
# Session 48 call 9 (carry .deps/googletest). The working tree (tiers 64;128) against _ab/base9
# (the same tree with fwd_kernel.h at o_handoff 0 and b9eb04f^'s bwd_kernel.h):
#  forward: the handed-over epilogue (warp-uniform storer) compiled in as the default;
#  backward: the dQ writer's coordinates warp-uniform (b9eb04f).
# A/B fwd and bwd, 3 rounds; then the forward's and the backward's tests as time allows.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=560 BASE=_ab/base9 \
  SHAPES="128,512,0;128,512,1;128,1024,0;128,1024,1;128,2048,0;128,2048,1;128,8192,0;64,512,0;64,512,1;64,2048,0;64,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== A/B bwd"
python3 bench/gpu/sm90_variants.py --pass bwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" --rounds 3 --out $O/ab_bwd.json \
  --shapes "128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,2048,1;128,8192,1;64,2048,0;64,8192,0" >$O/ab_bwd.txt 2>&1
log "ab bwd rc=$?"
grep -A20 "^| shape" $O/ab_bwd.txt | tee -a $O/log.txt
pack
log "===== ctest forward"
(cd build-gpu && timeout 120 ctest -j16 --output-on-failure --timeout 110 -R "Sm90\.|Sm90Grid" -E Sm90Bwd) >$O/t1.log 2>&1
log "t1 rc=$? $(grep -E 'tests passed|tests failed' $O/t1.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception' $O/t1.log | head -20 | tee -a $O/log.txt
pack
left=$((590 - ($(date +%s) - T0)))
log "===== ctest Sm90Bwd (left $left s)"
(cd build-gpu && timeout $((left - 10)) ctest -j16 --output-on-failure --timeout 200 -R "Sm90Bwd") >$O/t2.log 2>&1
log "t2 rc=$? $(grep -E 'tests passed|tests failed' $O/t2.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception' $O/t2.log | head -20 | tee -a $O/log.txt
log "===== done"
pack
cat $O/log.txt
