#!/usr/bin/env bash
# Session 61 call 2: the deferred epilogue with the register-path stores (FLASHATTN_SM90_TMA_STORE=0:
# O's 16-byte stores straight from registers, no barriers, no fence; what head_dim 256 does) at
# head_dim 64 and 128, in the binaries of call 1 (550e315 = main + defer-min-blocks.patch, tiers
# 64;128, built on the development machine; carry build-carry/bins.tar.xz). Variants: main's
# behaviour (TMA store, never deferred), the register path never / every tile / after 6 blocks,
# the TMA store every tile. Then the forward tests and racecheck with the register path deferred
# at every tile. Run as COMMIT=<hash> bash bench/results/session61/call2.sh (timeout_s >= 300).
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r; rm -rf $R; mkdir -p $R
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
export LD_LIBRARY_PATH=/usr/local/cuda/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tar xJf build-carry/bins.tar.xz -C build-carry
B=build-carry
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >$R/smi.txt 2>&1
echo "===== A/B (t=$(t)s)" | tee -a $R/log.txt
N=FLASHATTN_SM90_DEFER_MIN
timeout 200 python3 bench/gpu/sm90_variants.py --bench $B/flashattn_gpu_bench --rounds 3 \
  --variants "tma:$N=100000;reg:$N=100000,FLASHATTN_SM90_TMA_STORE=0;regevery:$N=0,FLASHATTN_SM90_TMA_STORE=0;reg6:FLASHATTN_SM90_TMA_STORE=0" \
  --shapes "128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,512,1;128,1024,1;128,2048,1;128,4096,1;128,16384,1;64,512,0;64,2048,0;64,512,1;64,2048,1;64,8192,0" \
  --out $R/ab.json >$R/ab.txt 2>&1
echo "ab rc=$?" | tee -a $R/log.txt; grep -A20 "^| shape" $R/ab.txt >>$R/log.txt; pk
echo "===== tests, register path deferred at every tile (t=$(t)s)" | tee -a $R/log.txt
env FLASHATTN_SM90_TMA_STORE=0 $N=0 timeout 50 $B/flashattn_cuda_tests \
  --gtest_filter='Sm90.Options:Sm90.VariantPersistent:Sm90.VariantThreeConsumers:Sm90.PackedGqa:Sm90.DeferredEpilogueSameBytes:Sm90.OutVec16SameBytes:Sm90Grid*' >$R/tests.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED) ' $R/tests.txt | tr '\n' ' ')" | tee -a $R/log.txt; pk
echo "===== racecheck, 3 persistent CTAs, register path deferred (t=$(t)s)" | tee -a $R/log.txt
env FLASHATTN_SM90_TMA_STORE=0 $N=0 FLASHATTN_SM90_PERSISTENT=3 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 $B/flashattn_cuda_sanitize >$R/san_race3.txt 2>&1
echo "race3 rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san_race3.txt | tail -1)" | tee -a $R/log.txt
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
