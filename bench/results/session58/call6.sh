#!/usr/bin/env bash
# Session 58 call 6: O's rescale skipped by default at head_dim_v tier 256 (fwd_kernel.h
# skip_rescale 2) against main's files (_ab/base: a7f81d0's fwd_kernel.h and launch.cu), medians
# beside cuDNN (3 rounds) and sustained 2 s (bench/gpu/energy.py); the switch-reading build with
# and without the skip at head_dim 192. Carry [".deps/googletest", "_ab"]; run as
# COMMIT=<hash> bash bench/results/session58/call6.sh.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
TIERS="${TIERS:-192;256}" BASE=_ab/base ROUNDS=3 BUDGET=400 CTEST_TIMEOUT=120 \
SHAPES="256,512,0;256,1024,0;256,2048,0;256,4096,0;256,8192,0;256,16384,0;256,2048,1;256,8192,1" \
TESTS="Sm90\\.VariantSkipRescale|Sm90\\.SwitchedSameBytes|Sm90\\.Options|Sm90\\.SoftcapKernel|Sm90Grid|Sm90\\.VariantDefaultsOff|Sm90\\.HeadDim192WithValue128" \
  bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
echo "===== sustained 2 s: main / new at d256, cuDNN beside (t=$(t)s)" | tee -a $R/log.txt
timeout 120 python3 bench/gpu/energy.py --bench $B --pass fwd --sustain 2 \
  --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
  --shapes "256,2048,0;256,8192,0;256,16384,0;256,8192,1" --out $R/energy-256.json >$R/energy-256.txt 2>&1
echo "energy 256 rc=$? (t=$(t)s)" | tee -a $R/log.txt
grep -A6 "^| shape" $R/energy-256.txt | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
echo "===== sustained 2 s: the skip at d192 (switch-reading build) (t=$(t)s)" | tee -a $R/log.txt
timeout 60 python3 bench/gpu/energy.py --bench $B --pass fwd --sustain 2 --no-cudnn \
  --variants "switched:FLASHATTN_SM90_SWITCHED=1,FLASHATTN_SM90_SKIP_RESCALE=0;skip:FLASHATTN_SM90_SKIP_RESCALE=1" \
  --shapes "192,8192,0;192,16384,0" --out $R/energy-192.json >$R/energy-192.txt 2>&1
echo "energy 192 rc=$? (t=$(t)s)" | tee -a $R/log.txt
grep -A4 "^| shape" $R/energy-192.txt | tee -a $R/log.txt
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
