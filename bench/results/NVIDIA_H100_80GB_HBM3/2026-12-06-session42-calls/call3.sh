#!/usr/bin/env bash
# Session 42 call 3 (carry .deps/googletest), at main from a9fe613 on: tiers 128;256; the backward A/B of the
# causal long shapes (dQ tickets, mode 2 = new, against old = FLASHATTN_SM90_BWD_DQ_STORE=0), which
# call 2's A/B left out and whose table cells sat lower than session 41's at head_dim 256 causal
# 8k-16k; and b64 (FLASHATTN_SM90_BWD_BLOCK_M=64: 64-query steps, 80% of the computed pairs
# useful at causal 512 against the 80-query steps' 64%, bench/NOTES.md session 42) at d128 causal
# 512-2k; 2 rounds, cuDNN beside. Not run in session 42 (no device time left). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
TIERS="128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=240 \
  VARIANTS="old:FLASHATTN_SM90_BWD_DQ_STORE=0;b64:FLASHATTN_SM90_BWD_BLOCK_M=64" \
  SHAPES="256,4096,1;256,8192,1;256,16384,1;128,8192,1;128,16384,1;128,512,1;128,1024,1;128,2048,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
cat /tmp/r/log.txt
