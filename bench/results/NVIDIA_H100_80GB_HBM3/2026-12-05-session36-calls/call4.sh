#!/usr/bin/env bash
# Session 36: the whole ctest on the GPU (all tiers; the sm80 second pass off for time), logs tarred.
set -u
mkdir -p /tmp/g && rm -rf /tmp/g/*
( sleep ${LIMIT:-540}; cd /tmp && tar czf "$OUT/g.tgz" g ) &
W=$!
GPU_CHECK_STAGES=${STAGES:-build,test} GPU_CHECK_SM80_FORWARD=${SM80:-0} CTEST_TIMEOUT=500 tools/gpu-check /tmp/g/gc >/dev/null 2>&1
echo "gpu-check rc=$?"
kill $W 2>/dev/null
grep -E "build|tests|passed|failed" /tmp/g/gc/gpu-check.log | tail -8
grep -E "tests passed|tests failed|Failed|\*\*\*Timeout|Exception" /tmp/g/gc/tests.log | head -20
tail -3 /tmp/g/gc/tests.log
cat /tmp/g/gc/results.json
(cd /tmp && tar czf "$OUT/g.tgz" g)
