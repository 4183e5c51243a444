#!/usr/bin/env bash
# Session 57 call 2: fa_tanh as tanh.approx.f32 (branch s57-tanh) against main (1b3314e's
# semantics/config.h and score_mod.h in _ab/base, BASE_SUBDIR=src). Carry [".deps/googletest",
# "_ab"]; run as COMMIT=<hash> bash bench/results/session57/call2.sh (timeout_s ~480).
# Tests: the forward suite's softcap users (Sm90., Sm90Grid, the Cuda options, CudaVsCpu,
# CudaShapes), then the backward's softcap users; A/Bs of softcap 30 in both passes.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
# (Lean form, ~200 s: TIERS="64;128" FTESTS="Sm90\\.Options|Sm90\\.AgreesWithSm80|Cuda/Options|CudaVsCpu"
#  BTESTS="Sm90BwdOptions|Sm90Bwd\\.AgreesWithSm80" SHAPES="128,2048,0;64,8192,0")
TIERS="${TIERS:-64;128;256}" BASE=_ab/base BASE_SUBDIR=src AB=0 TABLE=0 BUDGET=250 CTEST_TIMEOUT=100 \
TESTS="${FTESTS:-Sm90\\.|Sm90Grid|Cuda/Options|CudaVsCpu|CudaShapes}" bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
for pass in fwd bwd; do
  echo "===== softcap A/B $pass (t=$(t)s)" | tee -a $R/log.txt
  timeout 60 python3 bench/gpu/sm90_variants.py --pass $pass --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
    --shapes "${SHAPES:-128,2048,0;128,8192,1;64,8192,0;64,2048,1;256,8192,0}" --rounds 2 --bench-args "--softcap 30" --no-cudnn \
    --out $R/ab-softcap-$pass.json >$R/ab-softcap-$pass.txt 2>&1
  echo "softcap $pass rc=$?" | tee -a $R/log.txt
  grep -A8 "^| shape" $R/ab-softcap-$pass.txt | tee -a $R/log.txt
  (cd /tmp && tar czf "$OUT/r.tgz" r)
done
echo "===== sm90 backward's softcap users (t=$(t)s)" | tee -a $R/log.txt
(cd build-gpu && timeout 150 ctest -j16 --output-on-failure --timeout 120 \
  -R "${BTESTS:-Sm90BwdOptions|Sm90BwdDqTmaOptions|Sm90BwdDropout/|Sm90BwdStreamK|Sm90Bwd\\.(AgreesWithSm80|Block80|Block64|StreamKDefaultsAndAgreement|DropoutDeterministicAndBlock64)}") >$R/bwd-tests.log 2>&1
echo "bwd tests rc=$? $(grep -E 'tests passed|tests failed' $R/bwd-tests.log)" | tee -a $R/log.txt
grep -hE '\(Failed\)|\(Timeout\)' $R/bwd-tests.log | head | tee -a $R/log.txt
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
