#!/usr/bin/env bash
# Session 62 call 6: the final check of the cluster's default (over 512 and up to 2048 keys).
# Carried binaries (tiers 64;128): the forward tests, then default against off at 512-2k
# (default = off at 512, = on at 1k-2k).
# Run as COMMIT=<hash> bash bench/results/session62/call6.sh (timeout_s >= 300).
COMMIT=${COMMIT:-unknown} BINS=build-carry/bins.tar.xz TESTS='Sm90.*:*Sm90Grid*:CudaVarlen*:CudaShapes*' \
  CTEST_TIMEOUT=100 AB=1 ROUNDS=3 VARIANTS="off:FLASHATTN_SM90_CLUSTER=0" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,2048,0,2048,1,2" BUDGET=300 bash bench/gpu/device_call.sh
