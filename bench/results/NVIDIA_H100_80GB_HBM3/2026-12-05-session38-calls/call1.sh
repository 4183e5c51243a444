#!/usr/bin/env bash
# Session 38 call 1 (branch s38-free-ends; carry .deps/googletest and _ab38): build all tiers, the
# forward suites (the branch's new tests with them), the A/B against main's three sm90 files
# (default vs default, SELF_ARRIVE=1, FREE_ENDS=1) beside cuDNN, then the sanitizers with FREE_ENDS.
set -u
export COMMIT=${COMMIT:-unknown}
SAN=0 TABLE=0 AB=1 ROUNDS=3 BASE=_ab38/base BUDGET=${BUDGET:-450} \
  VARIANTS="sa:FLASHATTN_SM90_SELF_ARRIVE=1;fe:FLASHATTN_SM90_FREE_ENDS=1" \
  SHAPES="64,512,1;64,1024,1;64,2048,1;128,512,1;128,1024,1;128,2048,1;256,512,1;256,1024,1;192,512,1;64,512,0;64,8192,0;128,8192,1" \
  bash bench/gpu/device_call.sh
S=build-gpu/bin/flashattn_cuda_sanitize
for tool in memcheck racecheck synccheck; do
  FLASHATTN_SM90_FREE_ENDS=1 FLASHATTN_SM90_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 $S >/tmp/r/san_fe_$tool.txt 2>&1
  echo "free-ends $tool rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' /tmp/r/san_fe_$tool.txt | tail -1)" | tee -a /tmp/r/log.txt
  (cd /tmp && tar czf "$OUT/r.tgz" r)
done
FLASHATTN_SM90_SELF_ARRIVE=1 FLASHATTN_SM90_EARLY_S0=1 FLASHATTN_SM90_PERSISTENT=1 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 $S >/tmp/r/san_sa_early.txt 2>&1
echo "self-arrive+early racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' /tmp/r/san_sa_early.txt | tail -1)" | tee -a /tmp/r/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
tail -40 /tmp/r/log.txt
