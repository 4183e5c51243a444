#!/usr/bin/env bash
# Session 44 call 7 (carry .deps/googletest): the next item's K/V prefetched into L2 when the
# producer takes it (BwdParams90::kv_prefetch, default on). Tiers 64;128; A/B new / nopf
# (FLASHATTN_SM90_BWD_KV_PREFETCH=0), 2 rounds, cuDNN beside; then DynamicTiles, StreamK and
# DkDvTma tests. $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=300 \
  VARIANTS="nopf:FLASHATTN_SM90_BWD_KV_PREFETCH=0" \
  SHAPES="128,1024,1;128,2048,1;128,4096,1;128,8192,1;64,2048,1;64,8192,1;128,2048,0;128,8192,0;64,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 120 ctest -j16 --output-on-failure --timeout 120 -R "DynamicTiles|Sm90BwdStreamK|DkDvTma|Sm90BwdOptions") >"$O/t.log" 2>&1
echo "ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/t.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/t.log" | head -20 | tee -a "$O/log.txt"
pack
cat "$O/log.txt"
