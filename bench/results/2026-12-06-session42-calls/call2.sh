#!/usr/bin/env bash
# Session 42 call 2, at branch s42-dqstore (carry .deps/googletest): tiers 64;128;256 built; the
# backward A/B of the ticket modes (FLASHATTN_SM90_BWD_DQ_STORE: new = 2, early acquire RMW; m1 =
# 1, call 1's, after dq_full with fences; m3 = 3, early without the proxy fence; old = 0, the
# memset), cuDNN beside, 2 rounds; then, if mode 2 or 3 beats old in geometric mean, every sm90
# backward test (ctest -R Sm90Bwd) with that mode. $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
LIMIT=${LIMIT:-560}
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=300 \
  VARIANTS="m1:FLASHATTN_SM90_BWD_DQ_STORE=1;m3:FLASHATTN_SM90_BWD_DQ_STORE=3;old:FLASHATTN_SM90_BWD_DQ_STORE=0" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,8192,0;128,8192,1;64,512,0;64,2048,0;256,512,0;256,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
MODE=$(python3 - "$O/ab.txt" <<'PY'
import math, re, sys
rows = [l for l in open(sys.argv[1]) if re.match(r"^\| \d+,\d+,\d", l)]
cols = {"new": 1, "m1": 2, "m3": 3, "old": 4}
def gm(c):
    v = [float(r.split("|")[cols[c] + 1].split()[0]) / float(r.split("|")[cols["old"] + 1].split()[0]) for r in rows]
    return math.exp(sum(map(math.log, v)) / len(v))
g2, g3 = gm("new"), gm("m3")
print("2" if g2 >= max(g3, 1.0) else "3" if g3 >= 1.0 else "0", file=sys.stdout)
print(f"geomean vs old: mode2 {g2:.4f} mode3 {g3:.4f} mode1 {gm('m1'):.4f}", file=sys.stderr)
PY
2>>"$O/log.txt")
echo "mode picked: $MODE" | tee -a "$O/log.txt"
left=$((LIMIT - ($(date +%s) - T0)))
if [[ "$MODE" != 0 ]]; then
  echo "===== ctest -R Sm90Bwd, FLASHATTN_SM90_BWD_DQ_STORE=$MODE (t=$(($(date +%s) - T0))s, left $left)" | tee -a "$O/log.txt"
  (cd build-gpu && FLASHATTN_SM90_BWD_DQ_STORE=$MODE timeout $((left - 20)) ctest -j16 --output-on-failure --timeout 200 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
  echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
  grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
fi
pack
cat "$O/log.txt"
