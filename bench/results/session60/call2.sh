#!/usr/bin/env bash
# Session 60 call 2: the deferred epilogue at head_dim 64 and 128 after walks of at least
# FwdParams90::defer_min_blocks key blocks (FLASHATTN_SM90_DEFER_MIN; the tree's default 6): main's
# fwd_kernel.h/launch.cu (_ab/main) beside the tree at never / every tile / 6 blocks, one
# binary; the tree's forward tests and sanitizers (tiles of both kinds in one launch).
# Carry [".deps/googletest", "_ab/main"];
# run as COMMIT=<hash> bash bench/results/session60/call2.sh.
# Not run in session 60 (no machine started). The tree is main with defer-min-blocks.patch applied
# (`git apply bench/results/session60/defer-min-blocks.patch`); _ab/main holds main's fwd_kernel.h
# and launch.cu (`mkdir -p _ab/main && git show HEAD:src/cuda/sm90/fwd_kernel.h > _ab/main/fwd_kernel.h`, likewise launch.cu).
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
TIERS="64;128;256" BASE=_ab/main AB=1 ROUNDS=3 TABLE=0 BUDGET=280 CTEST_TIMEOUT=150 \
  VARIANTS="never:FLASHATTN_SM90_DEFER_MIN=100000;every:FLASHATTN_SM90_DEFER_MIN=0" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,512,1;128,1024,1;128,2048,1;128,4096,1;64,512,0;64,2048,0;64,512,1;64,2048,1" \
  TESTS="Sm90\\.|Sm90Grid|CudaVarlen" SAN=1 \
  bash bench/gpu/device_call.sh
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
