#!/usr/bin/env bash
# Session 48 call 10 (carry .deps/googletest): the dQ writer's coordinates warp-uniform (5f24666,
# the mended form of b9eb04f) against b9eb04f^'s bwd_kernel.h (_ab/base10). Tiers 64;128;256
# (tier 256 takes the staged dQ path); A/B bwd 3 rounds; then Sm90Bwd and the backward sanitizers.
set -u
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=570 BASE=_ab/base10 \
  BWD_TESTS=1 BWD_TESTS_S=260 SAN_BWD=1 \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,2048,1;128,8192,1;64,2048,0;64,8192,0;256,2048,0;256,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
cat /tmp/r/log.txt
