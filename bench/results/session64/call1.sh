#!/usr/bin/env bash
# Session 64 call 1 (session 63 call 2 with cl1p and 1k): the cluster with the one-CTA kernel's schedule (pair tickets, the stream-K
# tail over pairs; halves by rows or panels; head_dim 256). Binaries built here
# (bench/gpu/pack_bins.sh of a tiers 64;128;256 build; carry build-carry), run as
# COMMIT=<hash> bash bench/results/session63/call2.sh (timeout_s 500). The cluster's tests (the
# one-CTA kernels' SASS is unchanged), A/B: the default (cluster over 512 and up to 2k keys at
# head_dim 128), the cluster wherever it applies (cl1; cl1p with halves by panels) and never
# (off), 2 rounds; then compute-sanitizer memcheck.
set -u
SH="128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;256,8192,0"
BINS=build-carry/bins.tar.xz TESTS="Sm90.Cluster*" CTEST_TIMEOUT=120 AB=1 ROUNDS=2 SHAPES="$SH" \
  VARIANTS="cl1:FLASHATTN_SM90_CLUSTER=1;cl1p:FLASHATTN_SM90_CLUSTER=1,FLASHATTN_SM90_CLUSTER_SPLIT=panels;off:FLASHATTN_SM90_CLUSTER=0" \
  BUDGET=420 bash bench/gpu/device_call.sh
echo "===== memcheck" | tee -a /tmp/r/log.txt
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bins/flashattn_cuda_sanitize >/tmp/r/san_memcheck.txt 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' /tmp/r/san_memcheck.txt | tail -1)" | tee -a /tmp/r/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
tail -40 /tmp/r/log.txt
