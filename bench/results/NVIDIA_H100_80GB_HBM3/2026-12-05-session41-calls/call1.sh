#!/usr/bin/env bash
# Session 41 call 1, at branch s41-scaleout (main e2630f8 + 7704d6c: softmax's scale out of dS at
# 80-query steps, bwd90_scale_out). Carry .deps/googletest and _ab41 (_ab41/main: main's
# bwd_kernel.h and bwd_launch.h, the "main" variant; _ab41/dqfirst: branch s41-dqlate's
# bwd_kernel.h, dQ(s - 1) issued before S^T(s) and stored while it runs). Every tier built; the A/B
# of the d128 backward (new = scaleout at the 80-query default, main, dqfirst, b64 =
# FLASHATTN_SM90_BWD_BLOCK_M=64), 3 rounds, cuDNN beside; then every test of the sm90 backward
# (ctest -R Sm90Bwd, bounded) while dqfirst's test binary builds (tier 128), then its Sm90Bwd
# tests; then the same-run table with FA2 and cuDNN (2 rounds) with the time left. Logs in
# $OUT/r.tgz after every stage.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
LIMIT=${LIMIT:-575}
TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=200 BASES="main=_ab41/main;dqfirst=_ab41/dqfirst" \
  VARIANTS="b64:FLASHATTN_SM90_BWD_BLOCK_M=64" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,8192,1;128,16384,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
R=/tmp/base_dqfirst
(cmake -S "$R" -B "$R/bt" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLASHATTN_CUDA=ON -DFLASHATTN_CUDA_ARCHS=90 \
   -DFLASHATTN_HEAD_DIMS=128 -DCMAKE_PREFIX_PATH="$PWD/build-gpu-gtest/install" && ninja -C "$R/bt" -j8 flashattn_cuda_tests) \
  >"$O/build_dqfirst_tests.txt" 2>&1 &
TPID=$!
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 250 ctest -j16 --output-on-failure --timeout 230 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
wait $TPID; echo "dqfirst tests build rc=$? (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
if [[ -x "$R/bt/bin/flashattn_cuda_tests" ]]; then
  timeout 200 "$R/bt/bin/flashattn_cuda_tests" --gtest_filter='Sm90Bwd*' >"$O/dqfirst_tests.log" 2>&1
  echo "dqfirst Sm90Bwd* rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]|tests ran' "$O/dqfirst_tests.log" | tr '\n' ' ')" | tee -a "$O/log.txt"
  grep -E '^\[  FAILED  \]' "$O/dqfirst_tests.log" | head -10 | tee -a "$O/log.txt"
else
  tail -20 "$O/build_dqfirst_tests.txt" | tee -a "$O/log.txt"
fi
pack
left=$((LIMIT - ($(date +%s) - T0)))
if ((left > 150)); then
  echo "===== same-run table (left $left s)" | tee -a "$O/log.txt"
  timeout $((left - 15)) python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
    --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
  echo "table rc=$?" | tee -a "$O/log.txt"
  grep -E "^ +(64|128|256) " "$O/table.txt" >>"$O/log.txt"
fi
pack
cat "$O/log.txt"
