#!/usr/bin/env bash
# bench/gpu/profile_sass.sh BUILD_DIR OUT_DIR [hdim] [seqlen] [pass] [causal]: Nsight Compute on
# one launch of our kernel (flashattn_gpu_bench, bf16, the standard shapes of shared/ANCHORS.md),
# the full set, then per-SASS-instruction counters (warp stall samples by reason, executed
# instructions) as CSV: OUT_DIR/sass-<pass>-d<hdim>.csv, the hottest 60 lines by samples in
# OUT_DIR/sass-<pass>-d<hdim>-top.txt. Environment (FLASHATTN_*) passes through.
set -u
BUILD=$1 OUTD=$2 HD=${3:-64} SEQ=${4:-8192} PASS=${5:-bwd} CAUSAL=${6:-0}
KERNEL=regex:${PASS}_kernel
REP=/tmp/prof-$PASS-d$HD
ncu -k "$KERNEL" -c 1 --set full --import-source no -f -o "$REP" "$BUILD/bin/flashattn_gpu_bench" \
  --shapes "$HD,$SEQ,$CAUSAL" --pass "$PASS" --iters 1 --warmup 1 >"$OUTD/ncu-sass-$PASS-d$HD.log" 2>&1
ncu -i "$REP.ncu-rep" --page source --csv --print-source sass >"$OUTD/sass-$PASS-d$HD.csv" 2>>"$OUTD/ncu-sass-$PASS-d$HD.log"
python3 - "$OUTD/sass-$PASS-d$HD.csv" >"$OUTD/sass-$PASS-d$HD-top.txt" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = next(i for i, r in enumerate(rows) if r and r[0] in ("#", "Address"))
head, body = rows[hdr], rows[hdr + 1:]
def col(name):
    return next((i for i, h in enumerate(head) if h.strip() == name), None)
src, samp = col("Source"), col("Warp Stall Sampling (All Samples)")
print("columns:", head)
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
total = sum(num(r[samp]) for r in body if len(r) > samp) or 1.0
for r in sorted(body, key=lambda r: -num(r[samp]) if len(r) > samp else 0)[:60]:
    print("%5.1f%%  %s  |  %s" % (100 * num(r[samp]) / total, r[src][:90], " ".join(x for x in r[samp + 1:] if x)[:200]))
PY
echo "profile_sass: $(wc -l <"$OUTD/sass-$PASS-d$HD.csv") SASS lines"
