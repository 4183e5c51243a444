#!/usr/bin/env bash
# Session 64 call 3: the default's clusters at head_dim 128 over 512 keys (the pair schedule above
# 1024 keys, static pairs up to it). Binaries packed here from a tiers 64;128;256 build of 904fbe3
# (bench/gpu/pack_bins.sh; carry build-carry); run as COMMIT=<hash> bash bench/results/session64/call3.sh.
# The sm90 forward's tests (the default filter), compute-sanitizer (memcheck, racecheck, synccheck),
# then the default against one CTA (CLUSTER=0), 2 rounds.
set -u
SH="128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,8192,1"
BINS=build-carry/bins.tar.xz CTEST_TIMEOUT=150 SAN=1 AB=1 ROUNDS=2 SHAPES="$SH" \
  VARIANTS="off:FLASHATTN_SM90_CLUSTER=0" BUDGET=480 bash bench/gpu/device_call.sh
tail -30 /tmp/r/log.txt
