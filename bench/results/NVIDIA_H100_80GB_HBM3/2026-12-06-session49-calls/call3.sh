#!/usr/bin/env bash
# Session 49 call 3 (carry .deps/googletest; tree ce9e171): the forward's whole tiles by ticket
# (FLASHATTN_SM90_DYNAMIC, on) against the static rounds (=0), 3 rounds, all five tiers; the
# forward's tests (with Sm90.DynamicTilesSameBytes) and sanitizers (3 persistent CTAs: the tickets'
# handoff).
set -u
export COMMIT=ce9e171
TIERS="64;96;128;192;256" SAN=1 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=570 VARIANTS="static:FLASHATTN_SM90_DYNAMIC=0" \
  SHAPES="128,512,0;128,512,1;128,1024,0;128,1024,1;128,2048,1;128,8192,0;128,8192,1;64,512,0;64,512,1;64,2048,1;256,512,1;256,2048,0;256,8192,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
cat /tmp/r/log.txt
