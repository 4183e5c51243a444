#!/usr/bin/env bash
# Session 36 call 2 (warm machine, build-gpu and build-trace from call 1): the forward's per-tile
# trace at the short d64 shapes, then the backward's knob A/B.
set -u
mkdir -p /tmp/r2
bash bench/gpu/fwd_trace.sh /tmp/r2/trace "64,512,1 64,512,0 64,2048,1 128,512,1" >/dev/null 2>&1
(cd /tmp && tar czf "$OUT/r2.tgz" r2)
TESTS= AB=1 PASS=bwd ROUNDS=2 BUDGET=${BUDGET:-420} TIERS="64;96;128;192;256" \
  SHAPES="128,2048,0;128,2048,1;128,4096,0;128,8192,0;64,2048,0;256,2048,0" \
  VARIANTS="nosk:FLASHATTN_SM90_BWD_STREAMK=0;norot:FLASHATTN_SM90_BWD_ROTATE=0;nohg:FLASHATTN_SM90_BWD_HEAD_GROUP=0" \
  bash bench/gpu/device_call.sh
cat /tmp/r2/trace/trace-*.txt | head -80
tail -20 /tmp/r/log.txt
