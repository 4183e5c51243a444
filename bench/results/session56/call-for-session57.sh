#!/usr/bin/env bash
# Prepared for session 57 (written in session 55, extended in session 56; neither session got a
# machine to run it): ScoreMod's constants folded (the kernels' log2(e) and softcap's 2 log2(e): one
# multiply before the exponential, one after the tanh, ALiBi one FMA). Before the call:
#   git checkout -b s57-fold && git apply bench/results/NVIDIA_H100_80GB_HBM3/2026-12-07-session55-calls/score-mod-fold-for-session56.patch
#   git commit -am "ScoreMod: folded constants (session 55's patch)"
#   mkdir -p _ab/base/semantics _ab/base/cuda/sm90 _ab/base/cuda/sm80
#   for f in semantics/config.h semantics/score_mod.h cuda/sm90/fwd_kernel.h cuda/sm90/bwd_kernel.h
#     cuda/sm80/fwd_kernel.h cuda/sm80/bwd_kernel.h; do git show main:src/$f > _ab/base/$f; done
#   mkdir -p .deps && cp -r /usr/src/googletest .deps/googletest; carry [".deps/googletest", "_ab"];
#   run as COMMIT=<hash> bash bench/results/session56/call-for-session57.sh (timeout_s ~470).
# (_ab/base: main's files, BASE_SUBDIR=src, variant "main".) Full form ~350 s on an H100: tiers
# 64;128;256, the sm90 option tests, softcap A/Bs of both passes, the backward's option tests,
# ALiBi A/Bs of both passes; on an H200 the same-run table after them (~150 s more). The sm80
# path's options are not run (its SASS is main's). The patch passed the CPU CI again in session 56
# (fresh clone of the branch: ctest 2148/2148, pytest 171 passed / 114 skipped, 434 s).
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
# (Lean form, for little device time: TIERS=128 SC_SHAPES="128,2048,0;128,8192,1" AL_SHAPES=128,8192,0 NO_TABLE=1)
TIERS="${TIERS:-64;128;256}" BASE=_ab/base BASE_SUBDIR=src AB=0 TABLE=0 BUDGET=200 CTEST_TIMEOUT=100 \
TESTS="Sm90\\.Options|Sm90\\.HeadDim192|Sm90\\.PackedGqa|Sm90\\.AgreesWithSm80|Cuda/Options" bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
for pass in fwd bwd; do
  echo "===== softcap A/B $pass (t=$(t)s)" | tee -a $R/log.txt
  timeout 45 python3 bench/gpu/sm90_variants.py --pass $pass --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
    --shapes "${SC_SHAPES:-128,2048,0;128,8192,1;64,8192,0;256,8192,0}" --rounds 2 --bench-args "--softcap 30" --no-cudnn \
    --out $R/ab-softcap-$pass.json >$R/ab-softcap-$pass.txt 2>&1
  echo "softcap $pass rc=$?" | tee -a $R/log.txt
  grep -A8 "^| shape" $R/ab-softcap-$pass.txt | tee -a $R/log.txt
  (cd /tmp && tar czf "$OUT/r.tgz" r)
done
echo "===== sm90 backward options (t=$(t)s)" | tee -a $R/log.txt
(cd build-gpu && timeout 60 ctest -j16 --output-on-failure --timeout 55 -R "Sm90BwdOptions") >$R/bwd-options.log 2>&1
echo "bwd options rc=$? $(grep -E 'tests passed|tests failed' $R/bwd-options.log)" | tee -a $R/log.txt
grep -hE '\(Failed\)|\(Timeout\)' $R/bwd-options.log | head | tee -a $R/log.txt
# (The sm80 path's options are not run here: its SASS is main's, session 55 checked it offline.)
(cd /tmp && tar czf "$OUT/r.tgz" r)
for pass in fwd bwd; do
  echo "===== ALiBi A/B $pass (t=$(t)s)" | tee -a $R/log.txt
  timeout 30 python3 bench/gpu/sm90_variants.py --pass $pass --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
    --shapes "${AL_SHAPES:-128,8192,0;64,8192,0}" --rounds 2 --bench-args "--alibi 1" --no-cudnn --out $R/ab-alibi-$pass.json >$R/ab-alibi-$pass.txt 2>&1
  grep -A5 "^| shape" $R/ab-alibi-$pass.txt | tee -a $R/log.txt
done
# On an H200 (none since session 53): the same-run table of this commit (its plain kernels' SASS
# is main's; session 55 checked it offline).
if [[ -z "${NO_TABLE:-}" ]] && nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  echo "===== H200 same-run table (t=$(t)s)" | tee -a $R/log.txt
  timeout 150 python3 bench/gpu_bench.py --flashattn-bench $B --peers fa2,cudnn --rounds 2 --results $R/table >$R/table.txt 2>&1
  echo "table rc=$?" | tee -a $R/log.txt
  grep -E "^ +(64|128|256) " $R/table.txt >>$R/log.txt
fi
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
