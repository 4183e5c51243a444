#!/usr/bin/env bash
# Session 54 call 1 (tree = branch s54-qregs: Q as wgmma A fragments in registers in the plain
# forward kernels with two consumers up to head_dim 128; _ab/base = main's fwd_kernel.h, variant
# "main"). Build tiers 64;96;128;256, the forward suite, the sanitizers, the A/B (3 rounds, cuDNN
# beside), then the same-run table if 200 s are left. Carry .deps/googletest and _ab.
set -u
export COMMIT=${COMMIT:-unknown}
TIERS="64;96;128;256" BASE=_ab/base SAN=1 TABLE=1 BUDGET=${CAP:-560} \
SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,512,1;128,2048,1;128,8192,1;128,16384,1;96,8192,0;96,2048,1" \
  bash bench/gpu/device_call.sh
