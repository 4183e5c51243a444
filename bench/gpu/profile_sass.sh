#!/usr/bin/env bash
# bench/gpu/profile_sass.sh BUILD_DIR OUT_DIR [hdim] [seqlen] [pass] [causal]: Nsight Compute on
# one launch of our kernel (flashattn_gpu_bench, bf16, the standard shapes of shared/ANCHORS.md),
# the full set, then per-SASS-instruction counters (warp stall samples by reason, executed
# instructions) as CSV: OUT_DIR/sass-<pass>-d<hdim>.csv, the hottest 60 lines by samples in
# OUT_DIR/sass-<pass>-d<hdim>-top.txt. Environment (FLASHATTN_*) passes through. With a 7th
# argument fa2, FlashAttention-2's kernel (torch SDPA) for the same shape instead, into
# sass-fa2-<pass>-d<hdim>*: its SASS and stalls beside ours.
set -u
BUILD=$1 OUTD=$2 HD=${3:-64} SEQ=${4:-8192} PASS=${5:-bwd} CAUSAL=${6:-0} WHO=${7:-ours}
BATCH=$((16384 / SEQ)) HEADS=$((2048 / HD))
if [[ $WHO == fa2 ]]; then
  TAG=fa2-$PASS-d$HD
  if [[ $PASS == bwd ]]; then KERNEL=regex:flash_bwd_dq_dk_dv; else KERNEL=regex:flash_fwd_kernel; fi
  cat >/tmp/fa2_sass_once.py <<PY
import torch
from torch.nn.attention import sdpa_kernel, SDPBackend
q, k, v = (torch.randn($BATCH, $HEADS, $SEQ, $HD, device="cuda", dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    for _ in range(2):
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool($CAUSAL))
        o.backward(torch.randn_like(o))
torch.cuda.synchronize()
PY
  PROG=(python3 /tmp/fa2_sass_once.py)
else
  TAG=$PASS-d$HD
  KERNEL=regex:${PASS}_kernel
  PROG=("$BUILD/bin/flashattn_gpu_bench" --shapes "$HD,$SEQ,$CAUSAL" --pass "$PASS" --iters 1 --warmup 1)
fi
REP=/tmp/prof-$TAG
ncu -k "$KERNEL" -c 1 --set full --import-source no -f -o "$REP" "${PROG[@]}" >"$OUTD/ncu-sass-$TAG.log" 2>&1
ncu -i "$REP.ncu-rep" --page source --csv --print-source sass >"$OUTD/sass-$TAG.csv" 2>>"$OUTD/ncu-sass-$TAG.log"
python3 - "$OUTD/sass-$TAG.csv" >"$OUTD/sass-$TAG-top.txt" <<'PY'
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
echo "profile_sass $TAG: $(wc -l <"$OUTD/sass-$TAG.csv") SASS lines"
