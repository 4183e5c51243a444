#!/usr/bin/env bash
# Session 55, call 1: the softcap unswitch (session 54's patch, branch s55-softcap) tested and
# measured, then the same-run table. Tree: the patch applied; _ab/base holds main's fwd_kernel.h and
# bwd_kernel.h (variant "main"); carry .deps/googletest and _ab; COMMIT set by the caller.
# Order: build (3 tiers) + forward suite; softcap A/B fwd, bwd; d128 non-causal 8k-16k on 176 keys
# (the default) against 128 keys with Q in registers; the backward's extras tests; table.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
CAP=${CAP:-580}
t() { echo $(($(date +%s) - T0)); }
TIERS="64;128;256" BASE=_ab/base AB=0 TABLE=0 BUDGET=400 bash bench/gpu/device_call.sh
R=/tmp/r
B=build-gpu/bin/flashattn_gpu_bench
for pass in fwd bwd; do
  echo "===== softcap A/B $pass (t=$(t)s)" | tee -a $R/log.txt
  timeout 110 python3 bench/gpu/sm90_variants.py --pass $pass --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
    --shapes "128,2048,0;128,8192,0;128,8192,1;64,8192,0;256,8192,0" --rounds 3 --bench-args "--softcap 30" --no-cudnn \
    --out $R/ab-softcap-$pass.json >$R/ab-softcap-$pass.txt 2>&1
  echo "softcap $pass rc=$?" | tee -a $R/log.txt
  grep -A10 "^| shape" $R/ab-softcap-$pass.txt | tee -a $R/log.txt
  (cd /tmp && tar czf "$OUT/r.tgz" r)
done
echo "===== 176 / 128 keys at d128 8k-16k with Q in registers (t=$(t)s)" | tee -a $R/log.txt
timeout 80 python3 bench/gpu/sm90_variants.py --pass fwd --bench $B --variants "k176:;k128:FLASHATTN_SM90_BLOCKN=default" \
  --shapes "128,8192,0;128,16384,0" --rounds 3 --no-cudnn --out $R/ab-blockn.json >$R/ab-blockn.txt 2>&1
echo "blockn rc=$?" | tee -a $R/log.txt
grep -A6 "^| shape" $R/ab-blockn.txt | tee -a $R/log.txt
echo "===== backward extras tests (t=$(t)s)" | tee -a $R/log.txt
(cd build-gpu && timeout 130 ctest -j16 --output-on-failure --timeout 120 \
  -R "Sm90BwdOptions|Sm90BwdDqTmaOptions|Sm90BwdDropout|Sm90BwdDeterministic|Sm90BwdStreamK|Sm90Bwd.Block80|Sm90Bwd.DynamicTiles") >$R/bwd-extras.log 2>&1
echo "bwd extras rc=$? $(grep -E 'tests passed|tests failed' $R/bwd-extras.log)" | tee -a $R/log.txt
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)' $R/bwd-extras.log | head -20 | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
if (( $(t) < CAP - 110 )); then
  echo "===== table (t=$(t)s)" | tee -a $R/log.txt
  timeout $((CAP - 10 - $(t))) python3 bench/gpu_bench.py --flashattn-bench $B --peers fa2,cudnn --rounds 2 --results $R/table >$R/table.txt 2>&1
  echo "table rc=$?" | tee -a $R/log.txt
  grep -E "^ +(64|128|256) " $R/table.txt >>$R/log.txt
fi
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
