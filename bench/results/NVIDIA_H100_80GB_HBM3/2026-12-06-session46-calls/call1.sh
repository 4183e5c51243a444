#!/usr/bin/env bash
# Session 46 call 1 (carry .deps/googletest): tiers 64;128;256 built; ctest Sm90Bwd.DynamicTiles
# (its DV_EARLY=0 case has not run) and DkDvTmaSameBytes; Nsight Compute (profile_sass.sh, full
# set + source counters + details) of ours: bwd d128 8k, fwd d256 512 causal, fwd d128 512 causal;
# cuDNN's details at bwd d128 8k and fwd d256 512 causal. $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=0 BUDGET=300 bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 120 ctest -j4 --output-on-failure --timeout 110 -R "Sm90Bwd\.DynamicTiles|Sm90Bwd\.DkDvTmaSameBytes") >"$O/bwdtests.log" 2>&1
echo "ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
pack
mkdir -p $O/prof
P=bench/gpu/profile_sass.sh
for a in "128 8192 bwd 0" "256 512 fwd 1" "128 512 fwd 1"; do
  echo "===== profile ours $a (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
  timeout 120 bash $P build-gpu $O/prof $a ours >>"$O/log.txt" 2>&1; pack
done
for a in "128 8192 bwd 0" "256 512 fwd 1"; do
  echo "===== profile cudnn $a (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
  timeout 120 bash $P build-gpu $O/prof $a cudnn >>"$O/log.txt" 2>&1; pack
done
echo "===== done (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
pack
cat "$O/log.txt"; head -40 $O/prof/sass-bwd-d128-8192-top.txt
