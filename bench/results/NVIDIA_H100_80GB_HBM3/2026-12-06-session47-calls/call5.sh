#!/usr/bin/env bash
# Session 47 call 5 (carry .deps/googletest): FLASHATTN_SM90_PAIR_ROUNDS (TileMap90 mode 3).
# Tiers 64;128;256; A/B fwd, 3 rounds: new (off) / pr (on) on non-causal shapes; then ctest of the
# new tests and the layout tests.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=400 \
  VARIANTS="pr:FLASHATTN_SM90_PAIR_ROUNDS=1" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,8192,0;64,512,0;64,1024,0;64,2048,0;256,512,0;256,1024,0;256,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
log "===== ctest PairRounds, layout"
(cd build-gpu && timeout 150 ctest -j16 --output-on-failure --timeout 140 -R "Sm90\.(PairRoundsSameBytes|VariantPairRounds)|Sm90Layout") >$O/t1.log 2>&1
log "t1 rc=$? $(grep -E 'tests passed|tests failed' $O/t1.log)"
grep -E '\*\*\*Failed|\(Failed\)|Timeout|Exception' $O/t1.log | head -20 | tee -a $O/log.txt
log "===== done"
pack
cat $O/log.txt
