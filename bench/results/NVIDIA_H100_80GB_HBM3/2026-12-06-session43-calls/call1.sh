#!/usr/bin/env bash
# Session 43 call 1 (carry .deps/googletest), at main 087c018: tiers 64;128;256; session 42's call3
# A/B (backward: dQ tickets = new against the memset = old, FLASHATTN_SM90_BWD_DQ_STORE=0, at
# head_dim 256 causal 4k-16k and 128 causal 8k-16k; b64 = FLASHATTN_SM90_BWD_BLOCK_M=64 at d128
# causal 512-2k), then the same-run table with FA2 and cuDNN (2 rounds) at the default.
# $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
TIERS="64;128;256" TESTS= SAN=0 TABLE=1 AB=1 PASS=bwd ROUNDS=2 BUDGET=570 \
  VARIANTS="old:FLASHATTN_SM90_BWD_DQ_STORE=0;b64:FLASHATTN_SM90_BWD_BLOCK_M=64" \
  SHAPES="256,4096,1;256,8192,1;256,16384,1;128,8192,1;128,16384,1;128,512,1;128,1024,1;128,2048,1;64,512,1;64,1024,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
cat /tmp/r/log.txt
