#!/usr/bin/env bash
# Session 40 call 5 (carry .deps/googletest and _ab40; bash make_overlays.sh first): the A/B of
# branch s40-scaleout's d128 80-query kernel without the per-element scale multiply ("scaleout",
# overlaid, flashattn_gpu_bench only) against main ("new"), tiers 64;128, 3 rounds, cuDNN beside.
# Prediction (NOTES session 40): +1-3% at d128 2k-16k (42 of 788 loop instructions), causal +0-2%.
# If it wins: merge the branch, then call4.sh at the merged commit (its tests run the kernel).
set -u
export COMMIT=${COMMIT:-unknown}
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=${BUDGET:-400} \
  BASES="scaleout=_ab40/scaleout" \
  SHAPES="128,512,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,8192,1;128,16384,1" \
  bash bench/gpu/device_call.sh
tail -20 /tmp/r/log.txt
