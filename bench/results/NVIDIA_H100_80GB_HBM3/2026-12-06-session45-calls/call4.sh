#!/usr/bin/env bash
# Session 45 call 4 (warm after call 3, its build-gpu of 846fdd8 kept; carry .deps/googletest):
# every Sm90Bwd test (call 3's 170 s left 4 running), then the same-run table with FA2 and cuDNN
# (bench/gpu_bench.py, 2 rounds). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r; rm -rf $O; mkdir -p $O
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >"$O/smi.txt" 2>&1
[[ -x build-gpu/bin/flashattn_cuda_tests ]] || { echo "no build-gpu: machine not warm"; exit 1; }
(cd build-gpu && timeout 240 ctest -j16 --output-on-failure --timeout 230 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log") (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
timeout $((580 - ($(date +%s) - T0))) python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
  --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
echo "table rc=$? (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
grep -E "^ +(64|128|256) " "$O/table.txt" >>"$O/log.txt"
pack
cat "$O/log.txt"
