#!/usr/bin/env bash
# Session 45 call 6 (asked for the H200; carry .deps/googletest): the same-run table with FA2 and
# cuDNN at this commit (tiers 64;128;256, 2 rounds), then the sm90 forward's tests in what time
# is left. $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS= SAN=0 TABLE=1 AB=0 BUDGET=330 bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
left=$((400 - ($(date +%s) - T0)))
if [[ $left -gt 40 ]]; then
  (cd build-gpu && timeout $left ctest -j16 --timeout $left -R "Sm90\.|Sm90Grid|Sm90Layout" -E Sm90Bwd) >"$O/fwdtests.log" 2>&1
  echo "fwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/fwdtests.log") (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
fi
pack
head -3 $O/smi.txt | tail -1; grep -A2 "name, driver" $O/smi.txt; cat "$O/log.txt"
