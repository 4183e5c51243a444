#!/usr/bin/env bash
# Session 44 call 8 (carry .deps/googletest): the review mends (every dynamic tile from the
# counter). Tiers 128;192 built; DynamicTiles (tier 192 and a softcap added) and the
# deterministic tests.
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
O=$OUT
GPU_CHECK_STAGES=build BUILD_DIR="$PWD/build-gpu" FLASHATTN_HEAD_DIMS="128;192" GPU_CHECK_SM80_FORWARD=0 \
  tools/gpu-check "$O/gc" >/dev/null 2>&1
grep -E "build rc" "$O/gc/gpu-check.log"
(cd build-gpu && timeout 150 ctest -j16 --output-on-failure --timeout 150 -R "DynamicTiles|Sm90BwdDeterministic|CausalHeadGroups") >"$O/t.log" 2>&1
echo "ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/t.log")"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception|Passed' "$O/t.log" | head -30
rm -rf "$O/gc"
