#!/usr/bin/env bash
# Session 52 call 1 (merged): two experiments in one machine start (starts are scarce).
# Tree: main with two branches' changes uncommitted in it: s52-ticket-lead (370eeb1, the ticket-lead
# patch; reverted on main until it has run) and s52-dq-halves (64049a1, the 80-query backward's dQ
# buffer released per warpgroup half).
# _ab/base    = c638825's fwd_kernel.h (late claims): the forward A/B's "main".
# _ab/bwdbase = main's bwd_kernel.h, bwd_config.h: variant "bwdmain" = the tree without the dQ
#               halves (the forward A/B's A/A control, the backward A/B's baseline, and the table's
#               binary: the ticket lead with main's backward).
# Stages by importance: forward suite with tickets on (3 tiers), forward A/B, sanitizers, backward
# A/B, backward tests (the dQ-through-TMA grid at d104 and d128, where the 80-query kernel runs, and
# the backward's whole-path tests; the other tiers' code unchanged), backward sanitizers on 3 CTAs,
# the same-run table if time is left, then the forward suite with tickets off (it matters only if
# the ticket lead is kept with the static rounds from 8k).
set -u
export COMMIT=370eeb1+64049a1
export FLASHATTN_SM90_DYNAMIC=1
T0=$(date +%s)
TIERS="64;128;256" TESTS="Sm90\\.|Sm90Grid" BASE=_ab/base BASES="bwdmain=_ab/bwdbase" ROUNDS=3 SAN=1 BUDGET=240 \
  VARIANTS="static:FLASHATTN_SM90_DYNAMIC=0" \
  SHAPES="128,512,0;128,512,1;128,2048,1;128,8192,1;128,16384,1;64,512,1;64,8192,1;64,16384,1;256,8192,0;256,16384,1;64,512,0;256,512,1" \
  bash bench/gpu/device_call.sh
O=/tmp/r
L=$O/log.txt
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
echo "===== backward A/B dq halves (t=$(($(date +%s) - T0))s)" | tee -a $L
python3 bench/gpu/sm90_variants.py --pass bwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "bwdmain:BENCH=/tmp/base_bwdmain/b/bin/flashattn_gpu_bench;new:" \
  --shapes "128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,8192,1;128,16384,1" \
  --rounds 3 --out $O/ab_bwd.json >$O/ab_bwd.txt 2>&1
echo "ab_bwd rc=$?" | tee -a $L
grep -A12 "^| shape" $O/ab_bwd.txt | tee -a $L
pk
echo "===== backward tests (t=$(($(date +%s) - T0))s)" | tee -a $L
(cd build-gpu && timeout 130 ctest -j16 --output-on-failure --timeout 120 -R "Sm90BwdDqTmaGrid.*_d(104|128)_|Sm90Bwd\.(Block80|UnclearedWorkspace|AgreesWithSm80|DqTmaAgreesWithRedGlobal|StreamKDefaultsAndAgreement|DynamicTiles|CausalHeadGroups)|Sm90BwdDqTmaOptions|Sm90BwdStreamK") >$O/bwd.log 2>&1
echo "bwd rc=$? $(grep -E 'tests passed|tests failed' $O/bwd.log)" | tee -a $L
grep -E '\(Failed\)|\(Timeout\)' $O/bwd.log | head -20 | tee -a $L
pk
for tool in memcheck racecheck; do
  FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >$O/san_bwd_$tool.txt 2>&1
  echo "$tool (bwd grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/san_bwd_$tool.txt | tail -1)" | tee -a $L
done
pk
left=$((${CAP:-575} - 70 - ($(date +%s) - T0)))
echo "===== table (bwdmain's binary; left $left s)" | tee -a $L
if ((left > 90)); then
  timeout $((left - 10)) python3 bench/gpu_bench.py --flashattn-bench /tmp/base_bwdmain/b/bin/flashattn_gpu_bench \
    --peers fa2,cudnn --rounds 2 --results $O/table >$O/table.txt 2>&1
  echo "table rc=$?" | tee -a $L
fi
pk
echo "===== forward suite, tickets OFF (t=$(($(date +%s) - T0))s)" | tee -a $L
(cd build-gpu && FLASHATTN_SM90_DYNAMIC=0 timeout 110 ctest -j16 --output-on-failure --timeout 100 \
   -R "Sm90\.|Sm90Grid" -E Sm90Bwd) >$O/fwd_off.log 2>&1
echo "fwd off rc=$? $(grep -E 'tests passed|tests failed' $O/fwd_off.log)" | tee -a $L
grep -E '\(Failed\)|\(Timeout\)' $O/fwd_off.log | head | tee -a $L
pk
