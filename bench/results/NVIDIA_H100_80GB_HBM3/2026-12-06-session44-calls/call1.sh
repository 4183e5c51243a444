#!/usr/bin/env bash
# Session 44 call 1 (carry .deps/googletest): the dynamic persistent backward grid. Tiers
# 64;128;256 built; HEAD's (74ad7ff) sm90 backward files built beside as "main"; A/B main / new
# (dynamic, the default) / static (FLASHATTN_SM90_BWD_DYNAMIC=0: the new record code, one CTA a
# tile), 2 rounds, cuDNN beside; then the new test and the stream-K/causal tests. $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=420 BASE=_ab/s44head \
  VARIANTS="static:FLASHATTN_SM90_BWD_DYNAMIC=0" \
  SHAPES="128,1024,1;128,2048,1;128,4096,1;128,8192,1;64,2048,1;64,8192,1;256,2048,1;128,2048,0;128,8192,0;64,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest DynamicTiles|StreamK|CausalHeadGroups (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 150 ctest -j8 --output-on-failure --timeout 150 -R "DynamicTiles|StreamK|CausalHeadGroups|DkDvTma") >"$O/t1.log" 2>&1
echo "t1 rc=$? $(grep -E 'tests passed|tests failed' "$O/t1.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/t1.log" | head -20 | tee -a "$O/log.txt"
pack
cat "$O/log.txt"
