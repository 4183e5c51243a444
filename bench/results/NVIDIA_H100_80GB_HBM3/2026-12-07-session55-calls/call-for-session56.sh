#!/usr/bin/env bash
# Prepared in session 55 for session 56 (not run: no device time was left): ScoreMod's constants
# folded (the kernels' log2(e) and softcap's 2 log2(e): one multiply before the exponential, one
# after the tanh, ALiBi one FMA). Before the call:
#   git checkout -b s56-fold && git apply bench/results/NVIDIA_H100_80GB_HBM3/2026-12-07-session55-calls/score-mod-fold-for-session56.patch
#   git commit -am "ScoreMod: folded constants (session 55's patch)"
#   mkdir -p _ab/base/semantics _ab/base/cuda/sm90 _ab/base/cuda/sm80
#   for f in semantics/config.h semantics/score_mod.h cuda/sm90/fwd_kernel.h cuda/sm90/bwd_kernel.h
#     cuda/sm80/fwd_kernel.h cuda/sm80/bwd_kernel.h; do git show main:src/$f > _ab/base/$f; done
#   cp -r /usr/src/googletest .deps/googletest; carry [".deps/googletest", "_ab"]; set COMMIT.
# (_ab/base: main's files, BASE_SUBDIR=src, variant "main".) ~250 s: tiers 64;128;256, the option
# tests of both paths, softcap and ALiBi A/Bs. The patch passed the CPU CI (2145/2145, pytest 171).
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
TIERS="64;128;256" BASE=_ab/base BASE_SUBDIR=src AB=0 TABLE=0 BUDGET=200 CTEST_TIMEOUT=100 \
TESTS="Sm90\\.Options|Sm90\\.HeadDim192|Sm90\\.PackedGqa|Sm90\\.AgreesWithSm80|Cuda/Options" bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
for pass in fwd bwd; do
  echo "===== softcap A/B $pass (t=$(t)s)" | tee -a $R/log.txt
  timeout 45 python3 bench/gpu/sm90_variants.py --pass $pass --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
    --shapes "128,2048,0;128,8192,1;64,8192,0;256,8192,0" --rounds 2 --bench-args "--softcap 30" --no-cudnn \
    --out $R/ab-softcap-$pass.json >$R/ab-softcap-$pass.txt 2>&1
  echo "softcap $pass rc=$?" | tee -a $R/log.txt
  grep -A8 "^| shape" $R/ab-softcap-$pass.txt | tee -a $R/log.txt
  (cd /tmp && tar czf "$OUT/r.tgz" r)
done
echo "===== ALiBi A/B fwd (t=$(t)s)" | tee -a $R/log.txt
timeout 25 python3 bench/gpu/sm90_variants.py --pass fwd --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
  --shapes "128,8192,0;64,8192,0" --rounds 2 --bench-args "--alibi 1" --no-cudnn --out $R/ab-alibi.json >$R/ab-alibi.txt 2>&1
grep -A5 "^| shape" $R/ab-alibi.txt | tee -a $R/log.txt
echo "===== sm90 backward options, sm80 path options (t=$(t)s)" | tee -a $R/log.txt
(cd build-gpu && timeout 60 ctest -j16 --output-on-failure --timeout 55 -R "Sm90BwdOptions") >$R/bwd-options.log 2>&1
echo "bwd options rc=$? $(grep -E 'tests passed|tests failed' $R/bwd-options.log)" | tee -a $R/log.txt
(cd build-gpu && FLASHATTN_DISABLE_SM90=1 timeout 60 ctest -j16 --output-on-failure --timeout 55 -R "Cuda/Options") >$R/sm80-options.log 2>&1
echo "sm80 options rc=$? $(grep -E 'tests passed|tests failed' $R/sm80-options.log)" | tee -a $R/log.txt
grep -hE '\(Failed\)|\(Timeout\)' $R/bwd-options.log $R/sm80-options.log | head | tee -a $R/log.txt
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
