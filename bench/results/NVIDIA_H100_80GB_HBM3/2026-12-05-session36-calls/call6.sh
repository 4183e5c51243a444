#!/usr/bin/env bash
# Session 36 call 6: the skip of masked key blocks (FLASHATTN_SM90_SKIP_MASKED): build (tiers 64,
# 128, 256), its tests (with a timeout: a protocol bug would hang), memcheck + racecheck of the
# sanitizer binary, then the A/B.
set -u
O=/tmp/r6; rm -rf $O; mkdir -p $O
pack() { (cd /tmp && tar czf "$OUT/r6.tgz" r6); }
T="64;128;256"
GPU_CHECK_STAGES=build BUILD_DIR="$PWD/build-gpu" FLASHATTN_HEAD_DIMS="$T" tools/gpu-check $O/gc >/dev/null 2>&1
grep -E "build rc" $O/gc/gpu-check.log
(cd build-gpu && timeout 150 ctest -j8 --output-on-failure --timeout 120 -R "Sm90Layout|Sm90\.(SkipMasked|VariantSkipMasked|SkipIdle|Options|VariantWithoutPingpong)|CudaVarlen") >$O/tests.txt 2>&1
echo "tests rc=$?"; tail -4 $O/tests.txt; grep -E "\*\*\*|Failed" $O/tests.txt | head; pack
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 build-gpu/bin/flashattn_cuda_sanitize >$O/san_$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/san_$tool.txt | tail -1)"
done
pack
timeout 170 python3 bench/gpu/sm90_variants.py --pass fwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "new:;skipm:FLASHATTN_SM90_SKIP_MASKED=1;skipm_c3:FLASHATTN_SM90_SKIP_MASKED=1,FLASHATTN_SM90_CONSUMERS=3;skipm_80:FLASHATTN_SM90_SKIP_MASKED=1,FLASHATTN_SM90_BLOCKN=default" \
  --shapes "256,512,1;256,1024,1;256,2048,1;256,8192,1;64,512,1;64,1024,1;64,2048,1;64,8192,1;128,2048,1" \
  --rounds 3 --out $O/ab.json >$O/ab.txt 2>&1
echo "ab rc=$?"; grep -A12 "^| shape" $O/ab.txt
pack
