#!/usr/bin/env bash
# Session 40 call 4 (carry .deps/googletest), at a commit whose d128 backward takes 80-query steps by
# default (9975f23 on): every tier built; every test of the sm90 backward (ctest -R Sm90Bwd,
# bounded); the A/B of the default against FLASHATTN_SM90_BWD_BLOCK_M=64 (d128, 512-16k, 3 rounds,
# cuDNN beside); then the same-run table with FA2 and cuDNN (2 rounds) with the time left. Logs in
# $OUT/r.tgz after every stage (the call may be cut off).
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
LIMIT=${LIMIT:-570}
TESTS= SAN=0 TABLE=0 AB=0 BUDGET=100 bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 240 ctest -j16 --output-on-failure --timeout 220 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
echo "===== A/B (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
timeout 120 python3 bench/gpu/sm90_variants.py --pass bwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "new:;b64:FLASHATTN_SM90_BWD_BLOCK_M=64" \
  --shapes "128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,8192,1;128,16384,1" \
  --rounds 3 --out "$O/ab.json" >"$O/ab.txt" 2>&1
echo "ab rc=$?" | tee -a "$O/log.txt"
grep -A20 "^| shape" "$O/ab.txt" | tee -a "$O/log.txt"
pack
left=$((LIMIT - ($(date +%s) - T0)))
if ((left > 150)); then
  echo "===== same-run table (left $left s)" | tee -a "$O/log.txt"
  timeout $((left - 15)) python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
    --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
  echo "table rc=$?" | tee -a "$O/log.txt"
fi
pack
cat "$O/log.txt"
