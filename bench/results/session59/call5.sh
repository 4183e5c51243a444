#!/usr/bin/env bash
# Session 59 call 5: the final kernels (kAlibi's factor clamped, ALiBi's scale of at least 2^-20,
# FwdParams90::alibi_kernel last; every other kernel's SASS byte-identical to 351d728's): the ALiBi
# kernels' tests (forward, backward); ALiBi's speed (one round) against the kernels with extras;
# memcheck. Carry [".deps/googletest"].
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
TIERS="64;128;256" AB=0 TABLE=0 BUDGET=200 CTEST_TIMEOUT=150 \
  TESTS="Sm90\\.AlibiKernel" \
  bash bench/gpu/device_call.sh
echo "===== the tests (t=$(t)s)" | tee -a $R/log.txt
(cd build-gpu && timeout 170 ctest -j16 --output-on-failure --timeout 160 \
  -R "Sm90Bwd\\.AlibiKernel") >$R/bwdtests.log 2>&1
echo "bwdtests rc=$? $(grep -E 'tests passed|tests failed' $R/bwdtests.log)" | tee -a $R/log.txt
grep -E '\*\*\*Failed|\(Failed\)|\(Timeout\)' $R/bwdtests.log | head | tee -a $R/log.txt
pk
B=build-gpu/bin/flashattn_gpu_bench
for pass in fwd bwd; do
  P=$(echo $pass | tr a-z A-Z)
  echo "===== ALiBi $pass (t=$(t)s)" | tee -a $R/log.txt
  timeout 45 python3 bench/gpu/sm90_variants.py --pass $pass --bench $B --variants "extras:FLASHATTN_SM90_${P}_ALIBI=0;new:" \
    --shapes "64,8192,0;128,8192,0" --rounds 1 --bench-args "--alibi 1" --no-cudnn --out $R/alibi-$pass.json >$R/alibi-$pass.txt 2>&1
  grep -A4 "^| shape" $R/alibi-$pass.txt | tee -a $R/log.txt
  pk
done
echo "===== memcheck (t=$(t)s)" | tee -a $R/log.txt
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 build-gpu/bin/flashattn_cuda_sanitize >$R/san_memcheck.txt 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/san_memcheck.txt | tail -1)" | tee -a $R/log.txt
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
