#!/usr/bin/env bash
# Session 59 call 2 (kind nvidia-h200; an H100 may come instead): the same-run table of main beside
# FA2 and cuDNN (2 rounds); the backward's kCap at 64-query steps (tier 128, varlen and
# deterministic) tested and measured against the kernel with extras (deterministic: the bench has
# no varlen); sustained speed and energy at issue 4's and 5's cells beside cuDNN; softcap 30
# beside FlexAttention; memcheck of the sanitize program. Carry nothing (.deps is untracked);
# run as COMMIT=<hash> bash bench/results/session59/call2.sh (timeout_s 600).
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
TIERS="64;128;256" TESTS="Sm90\\.SoftcapKernel" AB=0 TABLE=1 ROUNDS_TABLE=2 BUDGET=330 CTEST_TIMEOUT=120 \
  bash bench/gpu/device_call.sh
echo "===== backward tests (t=$(t)s)" | tee -a $R/log.txt
(cd build-gpu && timeout 120 ctest -j16 --output-on-failure --timeout 110 \
  -R "Sm90Bwd\\.SoftcapKernel|Sm90BwdDeterministic|Sm90BwdDqTmaOptions|CudaVarlen") >$R/bwdtests.log 2>&1
echo "bwdtests rc=$? $(grep -E 'tests passed|tests failed' $R/bwdtests.log)" | tee -a $R/log.txt
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' $R/bwdtests.log | head -20 | tee -a $R/log.txt
pk
B=build-gpu/bin/flashattn_gpu_bench
echo "===== softcap A/B bwd, deterministic (t=$(t)s)" | tee -a $R/log.txt
timeout 80 python3 bench/gpu/sm90_variants.py --pass bwd --bench $B --variants "extras:FLASHATTN_SM90_BWD_CAP=0;new:" \
  --shapes "64,8192,0;128,2048,0;128,8192,0;128,8192,1" --rounds 2 --bench-args "--softcap 30 --deterministic 1" \
  --no-cudnn --out $R/ab-softcap-det.json >$R/ab-softcap-det.txt 2>&1
echo "softcap det rc=$?" | tee -a $R/log.txt
grep -A8 "^| shape" $R/ab-softcap-det.txt | tee -a $R/log.txt
pk
echo "===== memcheck (t=$(t)s)" | tee -a $R/log.txt
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 build-gpu/bin/flashattn_cuda_sanitize >$R/san_memcheck.txt 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/san_memcheck.txt | tail -1)" | tee -a $R/log.txt
pk
for pass in fwd bwd; do
  echo "===== sustained $pass (t=$(t)s)" | tee -a $R/log.txt
  shapes="128,2048,0;128,8192,0;128,16384,1;256,8192,0;64,8192,0"
  [[ $pass == bwd ]] && shapes="128,2048,0;128,8192,0;64,8192,0"
  timeout 75 python3 bench/gpu/energy.py --bench $B --pass $pass --sustain 1.5 --variants "new:" \
    --shapes "$shapes" --out $R/energy-$pass.json >$R/energy-$pass.txt 2>&1
  echo "energy $pass rc=$?" | tee -a $R/log.txt
  grep -A8 "^| shape" $R/energy-$pass.txt | tee -a $R/log.txt
  pk
done
echo "===== softcap 30 beside FlexAttention (t=$(t)s)" | tee -a $R/log.txt
timeout 150 python3 bench/gpu_bench.py --flashattn-bench $B --softcap 30 --peers flex --flex-hdims 128 \
  --hdims 128 --seqlens 2048,8192 --causal 0,1 --results $R/softcap >$R/softcap.txt 2>&1
echo "softcap table rc=$?" | tee -a $R/log.txt
grep -E "^ +(64|128|256) |hdim" $R/softcap.txt | tee -a $R/log.txt
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
