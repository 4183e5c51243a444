#!/usr/bin/env bash
# Session 62 call 5: the cluster kernel on by default up to 2048 keys. Carried binaries (tiers
# 64;128): the forward tests (ClusterSameBytes first in the filter's order), the A/B of the default
# against the cluster off (=0) and on everywhere it applies (=1) at 512-4k and two non-standard
# shapes (batch 2: 4 rounds; GQA 4), then the same-run table at head_dim 128.
# Run as COMMIT=<hash> bash bench/results/session62/call5.sh (timeout_s >= 480).
COMMIT=${COMMIT:-unknown} BINS=build-carry/bins.tar.xz TESTS='Sm90.*:*Sm90Grid*:CudaVarlen*:CudaShapes*' \
  CTEST_TIMEOUT=100 AB=1 ROUNDS=3 VARIANTS="off:FLASHATTN_SM90_CLUSTER=0;on:FLASHATTN_SM90_CLUSTER=1" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,2048,0,2048,1,2;128,1024,0,1024,4,16" \
  TABLE=1 TABLE_ARGS="--hdims 128" BUDGET=450 bash bench/gpu/device_call.sh
