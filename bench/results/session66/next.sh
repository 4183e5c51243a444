#!/usr/bin/env bash
# Session 67's first device call, prepared in session 66 (bench/NOTES.md "Plan for session 67").
# Binaries of main (tiers 64;128;256: cmake -S . -B /tmp/bgpu3 -G Ninja -DCMAKE_BUILD_TYPE=Release
# -DFLASHATTN_CUDA=ON -DFLASHATTN_CUDA_ARCHS=90 "-DFLASHATTN_HEAD_DIMS=64;128;256"; then
# bash bench/gpu/pack_bins.sh /tmp/bgpu3; carry build-carry), on the device:
#   COMMIT=<hash> bash bench/results/session66/next.sh      (timeout 600)
# 1. The forward's tests with 200 s a shard (session 66's shard 3 ran past 120 s: ClusterSameBytes
#    takes ~60 s with its window shapes), including ClusterSameBytes' 1024 x 600 causal window
#    shape added after session 66's call (never run on a GPU), and compute-sanitizer.
# 2. The same-run table with FA2 and cuDNN (tiers 64, 128, 256; wanted on an H200: issue 4 and
#    5's figures are the H200's, and none was lent in sessions 65-66). Prediction: as session 65's
#    H100 table in ratio, d64 causal 8k-16k +2-6% over it (the one-CTA groups of 8).
# 3. The one-CTA causal groups' rule as built (new) against no groups and the old sixth at the
#    cells it changed (d64 causal 8k / 16k, d128 causal 4000 with FLASHATTN_SM90_CLUSTER=0).
set -u
BINS=build-carry/bins.tar.xz CTEST_TIMEOUT=200 SAN=1 AB=1 ROUNDS=2 \
  SHAPES="64,8192,1;64,16384,1;128,4000,1;128,8192,1" \
  VARIANTS="none:FLASHATTN_SM90_CLUSTER=0,FLASHATTN_SM90_CAUSAL_GROUPS=0;sixth:FLASHATTN_SM90_CLUSTER=0,FLASHATTN_SM90_CAUSAL_GROUPS=22;one:FLASHATTN_SM90_CLUSTER=0" \
  TABLE=1 ROUNDS_TABLE=2 TABLE_ARGS="--hdims 64,128,256" BUDGET=560 bash bench/gpu/device_call.sh
