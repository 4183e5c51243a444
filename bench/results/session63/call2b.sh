#!/usr/bin/env bash
# Session 63 call 2b (what device time was left after eight failed starts): the cluster's tests
# (pair tickets, the stream-K tail over pairs, panels, head_dim 256), then head_dim 128 at 4k and 8k
# with the cluster asked for (cl1) and without (off), one round. Carry build-carry (tiers
# 64;128;256 binaries of f09328e).
set -u
BINS=build-carry/bins.tar.xz TESTS="Sm90.Cluster*" CTEST_TIMEOUT=90 AB=1 ROUNDS=1 SHAPES="128,8192,0;128,4096,0" \
  VARIANTS="cl1:FLASHATTN_SM90_CLUSTER=1;off:FLASHATTN_SM90_CLUSTER=0" BUDGET=120 bash bench/gpu/device_call.sh
tail -25 /tmp/r/log.txt
