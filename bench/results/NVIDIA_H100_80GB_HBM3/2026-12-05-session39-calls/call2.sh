#!/usr/bin/env bash
# Session 39 call 2 (carry .deps/googletest and _ab39): the backward with its run-time switches
# compiled in (_ab39/bwdlean: bwd_kernel.h with deterministic=false, dq_tensor=true,
# rotate_walk=true, right only for non-deterministic padded batches, which these shapes are) as
# "lean", the tree's own bwd_kernel.h overlaid as "aa" (the A/A control), the tree as "new", and
# _ab39/nolag (bwd90_lag false at tier 128: the d128 plain kernels without the dQ lag, the
# schedule 80-query steps would need, NOTES session 39) as "nolag".
set -u
export COMMIT=${COMMIT:-unknown}
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=${BUDGET:-480} \
  BASES="lean=_ab39/bwdlean;aa=_ab39/bwdaa;nolag=_ab39/nolag" \
  SHAPES="128,2048,0;128,4096,0;128,8192,0;128,8192,1;128,2048,1;64,2048,0;64,8192,0" \
  bash bench/gpu/device_call.sh
tail -30 /tmp/r/log.txt
