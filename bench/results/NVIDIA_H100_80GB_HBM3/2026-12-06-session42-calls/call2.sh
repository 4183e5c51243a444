#!/usr/bin/env bash
# Session 42 call 2, at branch s42-dqstore (carry .deps/googletest): tiers 64;128;192;256 built;
# the backward A/B of the ticket modes (FLASHATTN_SM90_BWD_DQ_STORE: new = the default, mode 2,
# early acquire RMW, at any length; m1 = 1, call 1's, after dq_full with fences; m3 = 3, early
# without the proxy fence; old = 0, the memset), cuDNN beside, 2 rounds. From it the key-length
# limit L of mode 2 (the longest seqlen up to which mode 2's geometric mean over the shapes of
# each seqlen beats old; none: no limit; below 512: off); then every sm90 backward test with mode 2
# forced at any length; then the same-run table with FA2 and cuDNN at the default that L gives
# (FLASHATTN_SM90_BWD_DQ_STORE_MAX_SK=L, or =0 to turn it off). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
LIMIT=${LIMIT:-590}
TIERS="64;128;192;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=300 \
  VARIANTS="m1:FLASHATTN_SM90_BWD_DQ_STORE=1;m3:FLASHATTN_SM90_BWD_DQ_STORE=3;old:FLASHATTN_SM90_BWD_DQ_STORE=0" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,8192,0;128,8192,1;64,512,0;64,2048,0;256,512,0;256,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
L=$(python3 - "$O/ab.txt" 2>>"$O/log.txt" <<'PY'
import math, re, sys
rows = [l.split("|") for l in open(sys.argv[1]) if re.match(r"^\| \d+,\d+,\d", l)]
val = lambda r, c: float(r[c + 2].split()[0])  # columns: shape, new, m1, m3, old, cuDNN
by_len = {}
for r in rows:
    by_len.setdefault(int(r[1].split(",")[1]), []).append(r)
def gm(rs, c):
    return math.exp(sum(math.log(val(r, c) / val(r, 3)) for r in rs) / len(rs))
L = None
for n in sorted(by_len):
    print(f"seqlen {n}: mode2/old {gm(by_len[n], 0):.4f} mode1/old {gm(by_len[n], 1):.4f} mode3/old {gm(by_len[n], 2):.4f}", file=sys.stderr)
for n in sorted(by_len):
    if gm(by_len[n], 0) < 1.0:
        break
    L = n
print("none" if L == max(by_len) else (L if L is not None else 0))
PY
)
echo "mode 2 key-length limit: $L" | tee -a "$O/log.txt"
left=$((LIMIT - ($(date +%s) - T0)))
echo "===== ctest -R Sm90Bwd, FLASHATTN_SM90_BWD_DQ_STORE=2 (t=$(($(date +%s) - T0))s, left $left)" | tee -a "$O/log.txt"
(cd build-gpu && FLASHATTN_SM90_BWD_DQ_STORE=2 timeout $((left - 250)) ctest -j16 --output-on-failure --timeout 200 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
rc=$?
echo "bwd ctest rc=$rc $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
left=$((LIMIT - ($(date +%s) - T0)))
if ((rc != 0)); then L=0; fi
if [[ "$L" != none ]]; then export FLASHATTN_SM90_BWD_DQ_STORE_MAX_SK=$L; fi
echo "===== same-run table (left $left s; FLASHATTN_SM90_BWD_DQ_STORE_MAX_SK=${FLASHATTN_SM90_BWD_DQ_STORE_MAX_SK:-unset})" | tee -a "$O/log.txt"
timeout $((left - 10)) python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
  --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
echo "table rc=$?" | tee -a "$O/log.txt"
grep -E "^ +(64|128|256) " "$O/table.txt" >>"$O/log.txt"
pack
cat "$O/log.txt"
