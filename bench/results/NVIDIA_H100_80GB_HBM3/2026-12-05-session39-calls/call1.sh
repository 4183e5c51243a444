#!/usr/bin/env bash
# Session 39 call 1 (carry .deps/googletest), to run at a commit whose config.h
# fwd90_defaults_built returns true for every tier (not yet on main: no device was lent in
# session 39, e2723f6 had it and e2723f6's successor took it back): every tier with both forward builds - the forward
# suites (Sm90.SwitchedSameBytes on all five tiers), the sanitizers on the default builds, and the
# A/B of the compiled-in defaults ("new") against the switch-reading build (FLASHATTN_SM90_SWITCHED=1).
set -u
export COMMIT=${COMMIT:-unknown}
SAN=1 AB=1 ROUNDS=3 TABLE=0 BUDGET=${BUDGET:-560} VARIANTS="switched:FLASHATTN_SM90_SWITCHED=1" \
  SHAPES="96,1024,1;96,8192,0;192,512,1;192,2048,1;192,8192,0;256,512,1;256,1024,1;256,8192,0;256,8192,1;64,512,1;128,8192,0" \
  bash bench/gpu/device_call.sh
tail -45 /tmp/r/log.txt
