#!/usr/bin/env bash
# Session 58 call 8: one exponential in four on the FMA pipe in kCap at head_dim 64 (branch
# s58-expfma) against main's fwd_kernel.h (_ab/base). Carry [".deps/googletest"] (_ab travels
# untracked); run as COMMIT=<hash> bash bench/results/session58/call8.sh.
set -u
export COMMIT=${COMMIT:-unknown}
R=/tmp/r
TIERS=64 BASE=_ab/base AB=0 TABLE=0 BUDGET=100 CTEST_TIMEOUT=60 \
TESTS="Sm90\\.SoftcapKernel|Sm90\\.Options|Sm90\\.PackedGqa|Cuda/Options" bash bench/gpu/device_call.sh
echo "===== softcap 30 A/B (d64)" | tee -a $R/log.txt
timeout 60 python3 bench/gpu/sm90_variants.py --pass fwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" --shapes "64,2048,0;64,8192,0;64,8192,1;64,1024,1" \
  --rounds 3 --bench-args "--softcap 30" --no-cudnn --out $R/ab-expfma.json >$R/ab-expfma.txt 2>&1
grep -A7 "^| shape" $R/ab-expfma.txt | tee -a $R/log.txt
grep -E "tests passed|tests failed|\(Failed\)" $R/gc/tests.log | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
