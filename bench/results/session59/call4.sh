#!/usr/bin/env bash
# Session 59 call 4: the plain kernels with ALiBi alone (fwd_kernel.h / bwd_kernel.h kAlibi) against
# the kernel with extras (FLASHATTN_SM90_FWD_ALIBI=0, FLASHATTN_SM90_BWD_ALIBI=0) in one binary.
# Carry [".deps/googletest"]; run as COMMIT=<hash> bash bench/results/session59/call4.sh.
# Tests: the forward's and backward's ALiBi and softcap kernel tests, the options, 80-query steps;
# A/B of ALiBi's forward (d64 with two consumers too) and backward; compute-sanitizer.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
TIERS="64;128;256" AB=0 TABLE=0 BUDGET=200 CTEST_TIMEOUT=150 \
  TESTS="Sm90\\.AlibiKernel|Sm90\\.SoftcapKernel|Sm90\\.Options|Sm90\\.PackedGqa|Cuda/Options|CudaVsCpu" \
  bash bench/gpu/device_call.sh
grep -E '\*\*\*Failed|\(Failed\)|\(Timeout\)' $R/gc/*.log 2>/dev/null | head | tee -a $R/log.txt
echo "===== backward tests (t=$(t)s)" | tee -a $R/log.txt
(cd build-gpu && timeout 150 ctest -j16 --output-on-failure --timeout 140 \
  -R "Sm90Bwd\\.AlibiKernel|Sm90Bwd\\.SoftcapKernel|Sm90Bwd\\.Block80|Sm90BwdOptions|Sm90BwdDqTmaOptions|Sm90BwdDeterministic|Sm90Bwd\\.FallsBack") \
  >$R/bwdtests.log 2>&1
echo "bwdtests rc=$? $(grep -E 'tests passed|tests failed' $R/bwdtests.log)" | tee -a $R/log.txt
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' $R/bwdtests.log | head -20 | tee -a $R/log.txt
pk
B=build-gpu/bin/flashattn_gpu_bench
echo "===== ALiBi A/B fwd (t=$(t)s)" | tee -a $R/log.txt
timeout 110 python3 bench/gpu/sm90_variants.py --pass fwd --bench $B \
  --variants "extras:FLASHATTN_SM90_FWD_ALIBI=0;new:;new2c:FLASHATTN_SM90_CONSUMERS=2" \
  --shapes "64,2048,0;64,8192,0;64,8192,1;128,2048,0;128,8192,0;128,8192,1" --rounds 2 --bench-args "--alibi 1" \
  --no-cudnn --out $R/ab-alibi-fwd.json >$R/ab-alibi-fwd.txt 2>&1
echo "alibi fwd rc=$?" | tee -a $R/log.txt
grep -A8 "^| shape" $R/ab-alibi-fwd.txt | tee -a $R/log.txt
pk
echo "===== ALiBi A/B bwd (t=$(t)s)" | tee -a $R/log.txt
timeout 90 python3 bench/gpu/sm90_variants.py --pass bwd --bench $B --variants "extras:FLASHATTN_SM90_BWD_ALIBI=0;new:" \
  --shapes "64,2048,0;64,8192,0;64,8192,1;128,2048,0;128,8192,0;128,8192,1" --rounds 2 --bench-args "--alibi 1" \
  --no-cudnn --out $R/ab-alibi-bwd.json >$R/ab-alibi-bwd.txt 2>&1
echo "alibi bwd rc=$?" | tee -a $R/log.txt
grep -A8 "^| shape" $R/ab-alibi-bwd.txt | tee -a $R/log.txt
pk
for tool in memcheck racecheck; do
  echo "===== compute-sanitizer $tool (t=$(t)s)" | tee -a $R/log.txt
  FLASHATTN_SM90_PERSISTENT=3 FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 45 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >$R/san_$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san_$tool.txt | tail -1)" | tee -a $R/log.txt
  pk
done
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
