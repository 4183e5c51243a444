#!/usr/bin/env bash
# Session 49 call 2 (carry .deps/googletest; tree ab4c2bf): the forward's short shapes. A/B of the
# stream-K tail forced (FLASHATTN_SM90_STREAMK=1) at 512-2k non-causal against the default rule,
# 3 rounds (tiers 64;128); ctest -R "Sm90Bwd\." (after the PDL code's removal); then the trace
# build (bench/gpu/fwd_trace.sh: per tile phases of 4 CTAs, and now every CTA's span) at d128 512,
# 512 causal, 1k and d64 512 causal.
set -u
export COMMIT=ab4c2bf
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=300 VARIANTS="sk:FLASHATTN_SM90_STREAMK=1" \
  TESTS_AFTER="Sm90Bwd\." TESTS_AFTER_S=120 \
  SHAPES="128,512,0;128,1024,0;128,2048,0;64,512,0;64,1024,0;64,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== fwd_trace.sh"
timeout 200 bash bench/gpu/fwd_trace.sh $O/trace "128,512,0 128,512,1 128,1024,0 64,512,1" >$O/trace.log 2>&1
log "trace rc=$?"
grep -E "^==|^CTAs|items:|^role|^[123] \||waits of|epilogue of|producer" $O/trace.log >>$O/log.txt
log "===== done"
pack
cat $O/log.txt
