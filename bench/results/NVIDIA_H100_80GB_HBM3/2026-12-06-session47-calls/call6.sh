#!/usr/bin/env bash
# Session 47 call 6: a third K/V stage at head_dim 128 (overlay _ab/s3: config.h's fwd90_stages
# gives 3 on 128-key blocks, which leaves one Q buffer and no O tile), against main (2 stages, two Q
# buffers, the O tile) and main without the O tile (notma). Tier 128 only; A/B fwd, 3 rounds.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
TIERS="128" TESTS= SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=400 BASES="s3=_ab/s3" \
  VARIANTS="notma:FLASHATTN_SM90_TMA_STORE=0" \
  SHAPES="128,512,0;128,512,1;128,1024,0;128,1024,1;128,2048,0;128,2048,1;128,4096,0;128,8192,0;128,8192,1;128,16384,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
cat /tmp/r/log.txt
