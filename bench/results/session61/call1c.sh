#!/usr/bin/env bash
# Session 61 call 1c (lean form of call1.sh, binaries built on the development machine: tiers
# 64;128, arch 90, the tree s61-defer; carry build-carry/bins.tar.xz holding flashattn_gpu_bench,
# flashattn_cuda_tests, flashattn_cuda_sanitize): the deferral's tests, racecheck on 3 persistent
# CTAs, the A/B never / every / the default 6 (one binary; "never" is main's behaviour), then the
# same-run table with FA2 and cuDNN at head_dim 64 and 128 with the time left.
# Run as COMMIT=<hash> bash bench/results/session61/call1c.sh (timeout_s >= 420).
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
timeout 200 python3 bench/gpu/sm90_variants.py --bench $B/flashattn_gpu_bench --rounds 3 \
  --variants "never:FLASHATTN_SM90_DEFER_MIN=100000;every:FLASHATTN_SM90_DEFER_MIN=0;new:" \
  --shapes "128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,512,1;128,1024,1;128,2048,1;128,4096,1;128,16384,1;64,512,0;64,2048,0;64,512,1;64,2048,1" \
  --out $R/ab.json >$R/ab.txt 2>&1
echo "ab rc=$?" | tee -a $R/log.txt; grep -A20 "^| shape" $R/ab.txt >>$R/log.txt; pk
echo "===== tests (t=$(t)s)" | tee -a $R/log.txt
timeout 120 $B/flashattn_cuda_tests --gtest_filter='Sm90.*:Sm90Grid*' >$R/tests.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED) ' $R/tests.txt | tr '\n' ' ')" | tee -a $R/log.txt; pk
echo "===== racecheck, 3 persistent CTAs (t=$(t)s)" | tee -a $R/log.txt
FLASHATTN_SM90_PERSISTENT=3 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 $B/flashattn_cuda_sanitize >$R/san_race3.txt 2>&1
echo "race3 rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san_race3.txt | tail -1)" | tee -a $R/log.txt; pk
left=$((560 - $(t)))
if ((left > 150)); then
  echo "===== table (t=$(t)s)" | tee -a $R/log.txt
  timeout $((left - 15)) python3 bench/gpu_bench.py --flashattn-bench $B/flashattn_gpu_bench --hdims 64,128 \
    --peers fa2,cudnn --rounds 2 --results $R/table >$R/table.txt 2>&1
  echo "table rc=$?" | tee -a $R/log.txt
fi
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
