#!/usr/bin/env bash
# Session 60 call 2b (call 2 leaner, for little device time): the tree's deferred epilogue after
# walks of >= 6 key blocks, never / every tile as knobs in one binary (no base build); the new
# same-bytes test and the option tests; racecheck with 3 persistent CTAs. Carry [".deps/googletest"].
# Not run in session 60 (no machine started); the tree: main + defer-min-blocks.patch.
set -u
export COMMIT=${COMMIT:-unknown}
R=/tmp/r
TIERS="64;128" AB=1 ROUNDS=3 TABLE=0 BUDGET=200 CTEST_TIMEOUT=100 \
  VARIANTS="never:FLASHATTN_SM90_DEFER_MIN=100000;every:FLASHATTN_SM90_DEFER_MIN=0" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,512,1;128,1024,1;128,2048,1;128,4096,1;64,512,0;64,2048,0;64,512,1;64,2048,1" \
  TESTS="Sm90\\.DeferredEpilogueSameBytes|Sm90\\.Options|Sm90\\.StreamKTail|Sm90\\.PackedGqa|CudaVarlen" \
  bash bench/gpu/device_call.sh
FLASHATTN_SM90_PERSISTENT=3 timeout 30 compute-sanitizer --tool racecheck --error-exitcode 3 \
  build-gpu/bin/flashattn_cuda_sanitize >$R/san_race3.txt 2>&1
echo "race3 rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san_race3.txt | tail -1)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
