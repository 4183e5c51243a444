#!/usr/bin/env bash
# Session 60 call 2: the deferred epilogue at head_dim 64 and 128 after walks of at least
# FwdParams90::defer_min_blocks key blocks (FLASHATTN_SM90_DEFER_MIN; the tree's default 6): main's
# fwd_kernel.h/launch.cu (_ab/main) beside the tree at never / every tile / 5 / 6 / 9 blocks, one
# binary; the tree's forward tests and sanitizers (tiles of both kinds in one launch); on an H200
# the same-run table of main's kernels. Carry [".deps/googletest", "_ab/main"];
# run as COMMIT=<hash> bash bench/results/session60/call2.sh.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
TIERS="64;128;256" BASE=_ab/main AB=1 ROUNDS=3 TABLE=0 BUDGET=330 CTEST_TIMEOUT=150 \
  VARIANTS="never:FLASHATTN_SM90_DEFER_MIN=100000;every:FLASHATTN_SM90_DEFER_MIN=0;m5:FLASHATTN_SM90_DEFER_MIN=5;m9:FLASHATTN_SM90_DEFER_MIN=9" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,512,1;128,1024,1;128,2048,1;128,4096,1;128,8192,1;64,512,0;64,1024,0;64,2048,0;64,8192,0;64,512,1;64,1024,1;64,2048,1" \
  TESTS="Sm90\\.|Sm90Grid|CudaVarlen" SAN=1 \
  bash bench/gpu/device_call.sh
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [[ -x /tmp/base_main/b/bin/flashattn_gpu_bench ]]; then
  echo "===== H200 same-run table, main's kernels (t=$(t)s)" | tee -a $R/log.txt
  timeout 230 python3 bench/gpu_bench.py --flashattn-bench /tmp/base_main/b/bin/flashattn_gpu_bench \
    --peers fa2,cudnn --rounds 2 --results $R/table >$R/table.txt 2>&1
  echo "table rc=$?" | tee -a $R/log.txt
  grep -E "^ +(64|128|256) " $R/table.txt >>$R/log.txt
fi
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
