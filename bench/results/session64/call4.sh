#!/usr/bin/env bash
# Session 64 call 4 (call 3 never started: no device): the default's clusters at head_dim 128 over
# 512 keys (904fbe3) and causal pairs by FLASHATTN_SM90_CLUSTER=1 (the pair walks the union of its
# tiles' key blocks, rank 0's warpgroups skipping the extra ones by waiting on them and releasing
# them). Binaries packed here from a tiers 64;128;256 build (bench/gpu/pack_bins.sh; carry
# build-carry); run as COMMIT=<hash> bash bench/results/session64/call4.sh (timeout 600).
# The sm90 forward's tests (the default filter: Sm90.ClusterSameBytes has the causal pairs),
# the A/B new (default) / cl1 (the cluster wherever it applies: causal too) / off (one CTA), 2
# rounds, compute-sanitizer (memcheck, racecheck, synccheck, racecheck on 3 CTAs), then the same-run
# table with FA2 and cuDNN.
set -u
SH="128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,4096,1;128,8192,1;128,16384,1;256,8192,1"
BINS=build-carry/bins.tar.xz CTEST_TIMEOUT=150 SAN=1 AB=1 ROUNDS=2 SHAPES="$SH" \
  VARIANTS="cl1:FLASHATTN_SM90_CLUSTER=1;off:FLASHATTN_SM90_CLUSTER=0" TABLE=1 ROUNDS_TABLE=2 \
  TABLE_ARGS="--hdims 64,128,256" BUDGET=560 bash bench/gpu/device_call.sh
tail -40 /tmp/r/log.txt
