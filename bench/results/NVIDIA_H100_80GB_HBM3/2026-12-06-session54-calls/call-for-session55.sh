#!/usr/bin/env bash
# Prepared in session 54 for session 55 (not run: no device time left). Before the call:
#   git checkout -b s55-softcap && git apply bench/results/NVIDIA_H100_80GB_HBM3/2026-12-06-session54-calls/softcap-unswitch-for-session55.patch
#   git commit -am "softcap unswitch (session 54's patch)"
#   mkdir -p _ab/base && git show main:src/cuda/sm90/fwd_kernel.h > _ab/base/fwd_kernel.h &&
#     git show main:src/cuda/sm90/bwd_kernel.h > _ab/base/bwd_kernel.h
#   (the base tree keeps the patched score_mod.h: its default template arguments leave main's
#   kernels' runtime tests as they were)
#   cp -r /usr/src/googletest .deps/googletest; carry [".deps/googletest", "_ab"]; set COMMIT.
# Then: the forward suite and the backward's tests, the softcap A/Bs (fwd and bwd, main / new), and
# the same-run table if 200 s are left (on an H200 the first of Q in registers).
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
CAP=${CAP:-540}
t() { echo $(($(date +%s) - T0)); }
TIERS="64;128;256" BASE=_ab/base BWD_TESTS=1 BWD_TESTS_S=200 TABLE=0 BUDGET=$((CAP - 100)) ROUNDS=3 \
SHAPES="128,2048,0;128,8192,1" bash bench/gpu/device_call.sh
R=/tmp/r
B=build-gpu/bin/flashattn_gpu_bench
for pass in fwd bwd; do
  echo "===== softcap A/B $pass (t=$(t)s)" | tee -a $R/log.txt
  timeout 150 python3 bench/gpu/sm90_variants.py --pass $pass --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
    --shapes "128,2048,0;128,8192,0;128,8192,1;64,8192,0;256,8192,0" --rounds 3 --bench-args "--softcap 30" --no-cudnn \
    --out $R/ab-softcap-$pass.json >$R/ab-softcap-$pass.txt 2>&1
  echo "softcap $pass rc=$?" | tee -a $R/log.txt
  grep -A10 "^| shape" $R/ab-softcap-$pass.txt | tee -a $R/log.txt
done
if (( $(t) < CAP - 200 )); then
  echo "===== table (t=$(t)s)" | tee -a $R/log.txt
  timeout $((CAP - 20 - $(t))) python3 bench/gpu_bench.py --flashattn-bench $B --peers fa2,cudnn --rounds 2 --results $R/table >$R/table.txt 2>&1
  echo "table rc=$?" | tee -a $R/log.txt
fi
(cd /tmp && tar czf "$OUT/r.tgz" r)
