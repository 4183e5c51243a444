#!/usr/bin/env bash
# Session 59 call 1: the plain backward kernel with softcap (bwd_kernel.h kCap) against the kernel
# with extras (FLASHATTN_SM90_BWD_CAP=0) in one binary. Carry [".deps/googletest"]; run as
# COMMIT=<hash> bash bench/results/session59/call1.sh (timeout_s ~590).
# Tests: the forward's softcap test (its problems moved to gpu_harness.h), the backward's softcap,
# 80-query, options, determinism and stream-K tests; the A/B of softcap 30's backward and the plain
# backward beside it; compute-sanitizer (memcheck, racecheck) on the sanitize program.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
TIERS="${TIERS:-64;128;256}" AB=0 TABLE=0 BUDGET=200 CTEST_TIMEOUT=120 TESTS="Sm90\\.SoftcapKernel" \
  bash bench/gpu/device_call.sh
echo "===== backward tests (t=$(t)s)" | tee -a $R/log.txt
(cd build-gpu && timeout 200 ctest -j16 --output-on-failure --timeout 190 \
  -R "Sm90Bwd\\.SoftcapKernel|Sm90Bwd\\.Block80|Sm90Bwd\\.Block64AtTier128|Sm90BwdDqTmaOptions|Sm90BwdDeterministic|Sm90BwdOptions|Sm90BwdStreamK|Sm90Bwd\\.FallsBack") \
  >$R/bwdtests.log 2>&1
echo "bwdtests rc=$? $(grep -E 'tests passed|tests failed' $R/bwdtests.log)" | tee -a $R/log.txt
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' $R/bwdtests.log | head -20 | tee -a $R/log.txt
pk
B=build-gpu/bin/flashattn_gpu_bench
SH="64,2048,0;64,8192,0;64,8192,1;128,2048,0;128,8192,0;128,8192,1;128,16384,0;256,8192,0"
echo "===== softcap A/B bwd (t=$(t)s)" | tee -a $R/log.txt
timeout 170 python3 bench/gpu/sm90_variants.py --pass bwd --bench $B --variants "extras:FLASHATTN_SM90_BWD_CAP=0;new:" \
  --shapes "$SH" --rounds "${ROUNDS:-2}" --bench-args "--softcap 30" --no-cudnn --out $R/ab-softcap-bwd.json >$R/ab-softcap-bwd.txt 2>&1
echo "softcap bwd rc=$?" | tee -a $R/log.txt
grep -A12 "^| shape" $R/ab-softcap-bwd.txt | tee -a $R/log.txt
pk
echo "===== the plain backward, same shapes (t=$(t)s)" | tee -a $R/log.txt
timeout 60 python3 bench/gpu/sm90_variants.py --pass bwd --bench $B --variants "plain:" \
  --shapes "$SH" --rounds 1 --no-cudnn --out $R/plain-bwd.json >$R/plain-bwd.txt 2>&1
grep -A12 "^| shape" $R/plain-bwd.txt | tee -a $R/log.txt
pk
for tool in memcheck racecheck; do
  echo "===== compute-sanitizer $tool (t=$(t)s)" | tee -a $R/log.txt
  FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 70 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >$R/san_$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san_$tool.txt | tail -1)" | tee -a $R/log.txt
  pk
done
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
