#!/usr/bin/env bash
# Session 59 call 3: kCap's forward without its switch-reading build (a switch off its default
# sends softcap to the kernel with extras; GQA packing decided after every switch is read): the
# forward's softcap, packing, switch and option tests; the backward's kCap at tier 128's 64-query
# steps (FLASHATTN_SM90_BWD_BLOCK_M=64: the steps varlen takes) against the kernel with extras,
# and the plain 64-query backward beside. Run as COMMIT=<hash> bash bench/results/session59/call3.sh.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
TIERS="64;128;256" AB=0 TABLE=0 BUDGET=260 CTEST_TIMEOUT=150 \
  TESTS="Sm90\\.SoftcapKernel|Sm90\\.PackedGqa|Sm90\\.SwitchedSameBytes|Sm90\\.VariantDefaultsOff|Sm90\\.Options|Cuda/Options|Sm90\\.HeadDim192" \
  bash bench/gpu/device_call.sh
grep -E '\*\*\*Failed|\(Failed\)|\(Timeout\)' $R/gc/*.log 2>/dev/null | head | tee -a $R/log.txt
B=build-gpu/bin/flashattn_gpu_bench
SH="128,2048,0;128,8192,0;128,8192,1;128,16384,0"
echo "===== softcap A/B bwd, 64-query steps at d128 (t=$(t)s)" | tee -a $R/log.txt
timeout 100 python3 bench/gpu/sm90_variants.py --pass bwd --bench $B \
  --variants "extras64:FLASHATTN_SM90_BWD_CAP=0,FLASHATTN_SM90_BWD_BLOCK_M=64;new64:FLASHATTN_SM90_BWD_BLOCK_M=64;new80:" \
  --shapes "$SH" --rounds 2 --bench-args "--softcap 30" --no-cudnn --out $R/ab-softcap-64.json >$R/ab-softcap-64.txt 2>&1
echo "softcap 64 rc=$?" | tee -a $R/log.txt
grep -A8 "^| shape" $R/ab-softcap-64.txt | tee -a $R/log.txt
pk
echo "===== the plain backward, 64-query steps (t=$(t)s)" | tee -a $R/log.txt
timeout 40 python3 bench/gpu/sm90_variants.py --pass bwd --bench $B --variants "plain64:FLASHATTN_SM90_BWD_BLOCK_M=64" \
  --shapes "$SH" --rounds 1 --no-cudnn --out $R/plain-64.json >$R/plain-64.txt 2>&1
grep -A8 "^| shape" $R/plain-64.txt | tee -a $R/log.txt
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
