#!/usr/bin/env bash
# Session 38 call 7 (branch s38-switches): tiers 64/128, the forward suites (defaults on the
# build with the switches compiled in, knob tests on the other), then the two builds in one
# binary (FLASHATTN_SM90_SWITCHED=1) beside cuDNN.
set -u
export COMMIT=${COMMIT:-unknown}
TIERS="64;128" SAN=0 TABLE=0 AB=1 ROUNDS=2 BUDGET=${BUDGET:-200} VARIANTS="switched:FLASHATTN_SM90_SWITCHED=1" \
  SHAPES="64,512,1;64,1024,1;64,8192,0;128,512,1;128,2048,1;128,8192,0;128,8192,1" \
  bash bench/gpu/device_call.sh
grep -E "tests passed|tests failed|Failed|Timeout" /tmp/r/gc/tests.log | head; grep -E "Switched|SameBytes" /tmp/r/gc/tests.log | grep -v Start | head -12
