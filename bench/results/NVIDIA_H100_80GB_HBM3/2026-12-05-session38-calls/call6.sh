#!/usr/bin/env bash
# Session 38 call 5 (branch s38-lean; carry _ab38): the knob switches' defaults compiled in
# (FLASHATTN_SM90_LEAN, overlaid as "main") against the runtime knobs ("new", = main's code),
# beside cuDNN; tiers 64/128/256, no tests.
set -u
export COMMIT=${COMMIT:-unknown}
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 ROUNDS=3 BASE=${BASE:-_ab38/lean} BUDGET=${BUDGET:-400} \
  VARIANTS="${VARIANTS-early:FLASHATTN_SM90_EARLY_S0=1}" \
  SHAPES="64,512,1;64,1024,1;64,2048,1;64,8192,1;64,512,0;64,8192,0;128,512,1;128,1024,1;128,2048,1;128,8192,1;128,2048,0;128,8192,0;256,512,1;256,8192,0" \
  bash bench/gpu/device_call.sh
tail -30 /tmp/r/log.txt
