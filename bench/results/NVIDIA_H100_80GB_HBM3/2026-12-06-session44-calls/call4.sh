#!/usr/bin/env bash
# Session 44 call 4 (carry .deps/googletest; asked for the H200): cbe28f2 (the dynamic grid for
# every call without a stream-K plan, varlen and deterministic included). Tiers 64;128;256;
# 74ad7ff's sm90 backward files beside as "main"; A/B main / new at causal shapes, 2 rounds; the
# same-run table with FA2 and cuDNN (2 rounds); then the backward tests of both paths (the
# workspace layout changed for the sm80 path too). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS= SAN=0 TABLE=1 AB=1 PASS=bwd ROUNDS=2 BUDGET=420 BASE=_ab/s44head \
  SHAPES="128,1024,1;128,2048,1;128,4096,1;128,8192,1;64,2048,1;64,8192,1;256,2048,1;256,8192,1;128,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest backward (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 170 ctest -j16 --output-on-failure --timeout 160 -R "Bwd|Backward|Varlen|Determin") >"$O/bwdtests.log" 2>&1
echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
cat "$O/log.txt"
