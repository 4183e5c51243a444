#!/usr/bin/env bash
# Session 63 call 2: the cluster with the one-CTA kernel's schedule (pair tickets, the stream-K
# tail over pairs). Binaries built here (bench/gpu/pack_bins.sh /tmp/bgpu; carry build-carry), run
# as COMMIT=<hash> bash bench/results/session63/call2.sh (timeout_s 540). The forward's tests, the
# sanitizer, then A/B: the default (cluster over 512 and up to 2k keys), the cluster wherever it
# applies (cl1; cl1p with halves by panels) and never (off), 3 rounds.
set -u
SH="128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,0,2048,1,2;256,2048,0;256,8192,0"
BINS=build-carry/bins.tar.xz TESTS="Sm90.*:*Sm90Grid*:CudaVarlen*:CudaShapes*" SAN=1 AB=1 ROUNDS=3 \
  SHAPES="$SH" VARIANTS="cl1:FLASHATTN_SM90_CLUSTER=1;cl1p:FLASHATTN_SM90_CLUSTER=1,FLASHATTN_SM90_CLUSTER_SPLIT=panels;off:FLASHATTN_SM90_CLUSTER=0" BUDGET=500 bash bench/gpu/device_call.sh
tail -40 /tmp/r/log.txt
