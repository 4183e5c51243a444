#!/usr/bin/env bash
# Session 64 call 2 (session 63 call 3 without the table): what the backward's Q / dO bytes from L2 cost (the
# measurement builds of bench/results/session62/call-for-session63.sh: qdo0 skips half of the Q /
# dO loads, qdo2 loads them twice; wrong results by design), then the same-run table with FA2 and
# cuDNN (tiers 64, 128, 256). Carry build-carry (bins-qdo.tar.xz: flashattn_gpu_bench of tiers
# 64;128;256 and the two measurement builds); run as COMMIT=<hash> bash bench/results/session63/call3.sh.
# Build here first (X an empty folder; B64 a tiers 64;128 build, B256 a tiers 64;128;256 build):
#   bench/gpu/measure_build.sh $B64 src/cuda/sm90/bwd_bf16_hdim128.cu FLASHATTN_SM90_MEASURE_QDO_LOADS=0 $X/flashattn_gpu_bench_qdo0
#   bench/gpu/measure_build.sh $B64 src/cuda/sm90/bwd_bf16_hdim128.cu FLASHATTN_SM90_MEASURE_QDO_LOADS=2 $X/flashattn_gpu_bench_qdo2
#   ninja -C $B256 flashattn_gpu_bench && cp $B256/bin/flashattn_gpu_bench $X/ && tar cJf build-carry/bins-qdo.tar.xz -C $X .
set -u
SH="128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,8192,1"
V="qdo2:BENCH=/tmp/bins/flashattn_gpu_bench_qdo2;qdo0:BENCH=/tmp/bins/flashattn_gpu_bench_qdo0"
BINS=build-carry/bins-qdo.tar.xz TESTS= AB=1 PASS=bwd ROUNDS=2 SHAPES="$SH" VARIANTS="$V" TABLE=0 \
  TABLE_ARGS="--hdims 64,128,256" BUDGET=240 bash bench/gpu/device_call.sh
tail -45 /tmp/r/log.txt
