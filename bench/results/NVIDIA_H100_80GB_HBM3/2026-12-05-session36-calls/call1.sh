#!/usr/bin/env bash
# Session 36 call 1: the trace build (tiers 64, 128) in the background, then device_call.sh's
# build, forward tests, sanitizers and same-run table.
set -u
(cmake -S . -B build-trace -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLASHATTN_CUDA=ON -DFLASHATTN_BUILD_TESTS=OFF \
  -DFLASHATTN_BUILD_CLI=OFF -DFLASHATTN_CUDA_ARCHS=90 -DFLASHATTN_HEAD_DIMS="64;128" -DCMAKE_CUDA_FLAGS=-DFLASHATTN_SM90_TRACE \
  && nice -n 10 ninja -C build-trace -j8 flashattn_gpu_bench) >/tmp/trace-build.log 2>&1 &
SAN=1 TABLE=1 AB=0 BUDGET=${BUDGET:-560} bash bench/gpu/device_call.sh
wait
tail -2 /tmp/trace-build.log >>/tmp/r/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
tail -45 /tmp/r/log.txt
