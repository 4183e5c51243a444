#!/usr/bin/env bash
# (Not run in session 49: no machine. For session 50: the knob is off by default since 2cd6f2a, so
# this exports FLASHATTN_SM90_DYNAMIC=1 for the tests, the sanitizers and the A/B's "new"; set
# COMMIT to the tree it runs.)
# Session 49 call 3 (carry .deps/googletest; tree 5f2ec6f, the kernels of ce9e171): the forward's whole tiles by ticket
# (FLASHATTN_SM90_DYNAMIC, on) against the static rounds (=0), 2 rounds, tiers 64;128 (device time short); the
# forward's persistent-grid tests (with Sm90.DynamicTilesSameBytes); racecheck, memcheck on 3 persistent
# CTAs (the tickets' handoff).
set -u
export COMMIT=${COMMIT:-2cd6f2a} FLASHATTN_SM90_DYNAMIC=1
TIERS="64;128" SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=2 BUDGET=200 \
  TESTS="Sm90\\.(DynamicTilesSameBytes|PersistentManyTiles|PersistentThreeCtas|StreamKTail|CausalHeadGroups|PackedGqa)" VARIANTS="static:FLASHATTN_SM90_DYNAMIC=0" \
  SHAPES="128,512,0;128,512,1;128,2048,1;128,8192,1;64,512,1;64,2048,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
for tool in racecheck memcheck; do
  echo "===== compute-sanitizer $tool, 3 persistent CTAs (tickets)" >>$O/log.txt
  FLASHATTN_SM90_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >"$O/san3_$tool.txt" 2>&1
  echo "$tool (grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san3_$tool.txt" | tail -1)" >>$O/log.txt
  pack
done
cat $O/log.txt
