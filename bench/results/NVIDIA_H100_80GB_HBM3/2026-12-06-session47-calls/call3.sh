#!/usr/bin/env bash
# Session 47 call 3: where the fused conversion's cost lies (tier 128 only; A/B bwd, 2 rounds):
# c1 counts only (at the step's top), c2 counts after the commit (wait_group 1), v32 / v128 = c2's
# count with 32 / 128 units converted a step.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
TIERS="128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=400 \
  VARIANTS="c1:FLASHATTN_SM90_BWD_DQ_FUSED=64,FLASHATTN_SM90_BWD_DQ_FUSED_MODE=1;c2:FLASHATTN_SM90_BWD_DQ_FUSED=64,FLASHATTN_SM90_BWD_DQ_FUSED_MODE=2;v32:FLASHATTN_SM90_BWD_DQ_FUSED=32,FLASHATTN_SM90_BWD_DQ_FUSED_MODE=3;v128:FLASHATTN_SM90_BWD_DQ_FUSED=128,FLASHATTN_SM90_BWD_DQ_FUSED_MODE=3" \
  SHAPES="128,1024,0;128,2048,0;128,8192,0;128,2048,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
cat /tmp/r/log.txt
