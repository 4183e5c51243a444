#!/usr/bin/env bash
# bench/gpu/profile_sass.sh BUILD_DIR OUT_DIR [hdim] [seqlen] [pass] [causal]: Nsight Compute on
# one launch of our kernel (flashattn_gpu_bench, bf16, the standard shapes of shared/ANCHORS.md),
# the full set, then per-SASS-instruction counters (warp stall samples by reason, executed
# instructions) as CSV: OUT_DIR/sass-<pass>-d<hdim>.csv, and its summary by sass_profile.py (stall
# reasons, opcode mix, shared wavefronts, the hottest 60 instructions) in
# OUT_DIR/sass-<pass>-d<hdim>-top.txt. Environment (FLASHATTN_*) passes through. With a 7th
# argument fa2, FlashAttention-2's kernel (torch SDPA, bench/gpu/fa2_once.py) for the same shape
# instead, into sass-fa2-<pass>-d<hdim>*: its SASS and stalls beside ours. The clocks are left
# alone (--clock-control none, as the device notes ask), as in profile.sh.
set -u
BUILD=$1 OUTD=$2 HD=${3:-64} SEQ=${4:-8192} PASS=${5:-bwd} CAUSAL=${6:-0} WHO=${7:-ours}
if [[ $WHO == fa2 ]]; then
  TAG=fa2-$PASS-d$HD
  if [[ $PASS == bwd ]]; then KERNEL=regex:flash_bwd_dq_dk_dv; else KERNEL=regex:flash_fwd_kernel; fi
  PROG=(python3 "$(dirname "$0")/fa2_once.py" "$HD" "$SEQ" "$CAUSAL")
else
  TAG=$PASS-d$HD
  KERNEL=regex:${PASS}_kernel
  PROG=("$BUILD/bin/flashattn_gpu_bench" --shapes "$HD,$SEQ,$CAUSAL" --pass "$PASS" --iters 1 --warmup 1)
fi
REP=/tmp/prof-$TAG
ncu --clock-control none -k "$KERNEL" -c 1 --set full --import-source no -f -o "$REP" "${PROG[@]}" >"$OUTD/ncu-sass-$TAG.log" 2>&1
ncu -i "$REP.ncu-rep" --page source --csv --print-source sass >"$OUTD/sass-$TAG.csv" 2>>"$OUTD/ncu-sass-$TAG.log"
python3 "$(dirname "$0")/sass_profile.py" "$OUTD/sass-$TAG.csv" --top 60 >"$OUTD/sass-$TAG-top.txt"
echo "profile_sass $TAG: $(wc -l <"$OUTD/sass-$TAG.csv") SASS lines"
