#!/usr/bin/env bash
# Session 61 call 1: session 60's call 2 (the deferred epilogue after walks of >= defer_min_blocks
# key blocks: main's fwd_kernel.h/launch.cu in _ab/main beside the tree at never / every tile / the
# default 6; forward tests and sanitizers), then, with the time left, the same-run table with FA2
# and cuDNN of the tree (tiers 64/128/256). Tree: s61-defer (main + defer-min-blocks.patch).
# Carry [".deps/googletest", "_ab/main"]; run as COMMIT=<hash> bash bench/results/session61/call1.sh.
set -u
export COMMIT=${COMMIT:-unknown}
TIERS="64;128;256" BASE=_ab/main AB=1 ROUNDS=3 TABLE=1 ROUNDS_TABLE=2 BUDGET=540 CTEST_TIMEOUT=150 \
  VARIANTS="never:FLASHATTN_SM90_DEFER_MIN=100000;every:FLASHATTN_SM90_DEFER_MIN=0" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,512,1;128,1024,1;128,2048,1;128,4096,1;64,512,0;64,2048,0;64,512,1;64,2048,1" \
  TESTS="Sm90\\.|Sm90Grid|CudaVarlen" SAN=1 \
  bash bench/gpu/device_call.sh
echo "===== done" >>/tmp/r/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
