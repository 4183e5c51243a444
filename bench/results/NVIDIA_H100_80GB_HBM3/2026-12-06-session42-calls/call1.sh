#!/usr/bin/env bash
# Session 42 call 1, at branch s42-dqstore (carry .deps/googletest): tiers 64;128;192;256 built;
# the backward A/B new (dQ tickets, dq_accum uncleared) against old (FLASHATTN_SM90_BWD_DQ_STORE=0,
# the memset), cuDNN beside, 2 rounds; every sm90 backward test (ctest -R Sm90Bwd, bounded); then,
# if those passed and time is left, the same-run table with FA2 and cuDNN. $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
LIMIT=${LIMIT:-570}
TIERS="64;128;192;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=300 \
  VARIANTS="old:FLASHATTN_SM90_BWD_DQ_STORE=0" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,8192,0;128,16384,0;128,512,1;128,2048,1;128,8192,1;64,512,0;64,2048,0;256,512,0;256,2048,0;64,512,1;256,512,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
left=$((LIMIT - ($(date +%s) - T0)))
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s, left $left)" | tee -a "$O/log.txt"
(cd build-gpu && timeout $((left - 20)) ctest -j16 --output-on-failure --timeout 200 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
rc=$?
echo "bwd ctest rc=$rc $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
left=$((LIMIT - ($(date +%s) - T0)))
if ((rc == 0 && left > 170)); then
  echo "===== same-run table (left $left s)" | tee -a "$O/log.txt"
  timeout $((left - 15)) python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
    --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
  echo "table rc=$?" | tee -a "$O/log.txt"
  grep -E "^ +(64|128|256) " "$O/table.txt" >>"$O/log.txt"
fi
pack
cat "$O/log.txt"
