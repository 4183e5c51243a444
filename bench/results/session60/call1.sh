#!/usr/bin/env bash
# Session 60 call 1: the deferred epilogue (write_out after the next tile's S_0 issue, kDeferOut) at
# every tier (FA_DEFER_MIN_D 64 in the tree) against main's fwd_kernel.h (_ab/main: d256 only), in
# one run; the tree's forward tests and sanitizers; ALiBi and softcap at head_dim 256 beside the
# plain kernel (is kAlibi at 256 worth building). Carry [".deps/googletest", "_ab/main"];
# on an H200 also the same-run table of main's kernels; run as COMMIT=<hash> bash bench/results/session60/call1.sh.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
TIERS="64;128;256" BASE=_ab/main AB=1 ROUNDS=3 TABLE=0 BUDGET=330 CTEST_TIMEOUT=150 \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,512,1;128,1024,1;128,2048,1;128,4096,1;128,16384,1;64,512,0;64,1024,0;64,2048,0;64,8192,0;64,512,1;64,2048,1;256,512,0;256,2048,0" \
  TESTS="Sm90\\.|Sm90Grid|CudaVarlen" SAN=1 \
  bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
for pass in fwd bwd; do
  echo "===== d256 plain / softcap 30 / ALiBi, $pass (t=$(t)s)" | tee -a $R/log.txt
  for args in "" "--softcap 30" "--alibi 1"; do
    timeout 40 python3 bench/gpu/sm90_variants.py --pass $pass --bench $B --variants "new:" \
      --shapes "256,2048,0;256,8192,0;256,8192,1" --rounds 1 ${args:+--bench-args "$args"} --no-cudnn \
      --out "$R/d256-$pass-${args// /}.json" >"$R/d256-$pass-${args// /}.txt" 2>&1
    echo "[$args]" | tee -a $R/log.txt
    grep -A5 "^| shape" "$R/d256-$pass-${args// /}.txt" | tee -a $R/log.txt
  done
  pk
done
# On an H200: the same-run table of main's kernels (the A/B's base binary) with FA2 and cuDNN.
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [[ -x /tmp/base_main/b/bin/flashattn_gpu_bench ]]; then
  echo "===== H200 same-run table, main's kernels (t=$(t)s)" | tee -a $R/log.txt
  timeout 230 python3 bench/gpu_bench.py --flashattn-bench /tmp/base_main/b/bin/flashattn_gpu_bench \
    --peers fa2,cudnn --rounds 2 --results $R/table >$R/table.txt 2>&1
  echo "table rc=$?" | tee -a $R/log.txt
  grep -E "^ +(64|128|256) " $R/table.txt >>$R/log.txt
fi
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
