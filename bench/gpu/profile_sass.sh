#!/usr/bin/env bash
# bench/gpu/profile_sass.sh BUILD_DIR OUT_DIR [hdim] [seqlen] [pass] [causal] [who]: Nsight Compute
# on one launch of our kernel (flashattn_gpu_bench, bf16, the standard shapes of shared/ANCHORS.md),
# the full set: its details page (speed of light, launch, occupancy, stalls, memory) in
# OUT_DIR/ncu-details-<tag>.txt, and per-SASS-instruction counters (warp stall samples by reason,
# executed instructions) as CSV: OUT_DIR/sass-<tag>.csv, with its summary by sass_profile.py
# (stall reasons, opcode mix, shared wavefronts, the hottest 60 instructions) in
# OUT_DIR/sass-<tag>-top.txt; <tag> = <pass>-d<hdim>-<seqlen>[c] (c: causal). Environment
# (FLASHATTN_*) passes through. `who` (7th argument): ours (default); fa2, FlashAttention-2's
# kernel (torch SDPA, bench/gpu/fa2_once.py) for the same shape, into *-fa2-<tag>*: its SASS and
# stalls beside ours; cudnn, cuDNN's (SDPA's cuDNN backend): the details page only of the first
# 12 kernels of fa2_once.py's run (cuDNN's kernel names are not ours to know in advance: the
# page holds the RNG kernels too), into ncu-details-cudnn-<tag>.txt. The clocks are left alone
# (--clock-control none, as the device notes ask), as in profile.sh. Ours beside cuDNN's:
# bench/gpu/ncu_compare.py ncu-details-<tag>.txt ncu-details-cudnn-<tag>.txt.
set -u
BUILD=$1 OUTD=$2 HD=${3:-64} SEQ=${4:-8192} PASS=${5:-bwd} CAUSAL=${6:-0} WHO=${7:-ours}
TAG=$PASS-d$HD-$SEQ$([[ $CAUSAL == 1 ]] && echo c)
COUNT=1
case $WHO in
  fa2)
    TAG=fa2-$TAG
    if [[ $PASS == bwd ]]; then KERNEL=regex:flash_bwd_dq_dk_dv; else KERNEL=regex:flash_fwd_kernel; fi
    PROG=(python3 "$(dirname "$0")/fa2_once.py" "$HD" "$SEQ" "$CAUSAL") ;;
  cudnn)
    TAG=cudnn-$TAG KERNEL=regex:. COUNT=12
    PROG=(env BACKEND=cudnn python3 "$(dirname "$0")/fa2_once.py" "$HD" "$SEQ" "$CAUSAL") ;;
  *)
    KERNEL=regex:${PASS}_kernel
    PROG=("$BUILD/bin/flashattn_gpu_bench" --shapes "$HD,$SEQ,$CAUSAL" --pass "$PASS" --iters 1 --warmup 1) ;;
esac
REP=/tmp/prof-$TAG
ncu --clock-control none -k "$KERNEL" -c $COUNT --set full --import-source no -f -o "$REP" "${PROG[@]}" >"$OUTD/ncu-sass-$TAG.log" 2>&1
ncu -i "$REP.ncu-rep" --page details >"$OUTD/ncu-details-$TAG.txt" 2>>"$OUTD/ncu-sass-$TAG.log"
if [[ $WHO != cudnn ]]; then
  ncu -i "$REP.ncu-rep" --page source --csv --print-source sass >"$OUTD/sass-$TAG.csv" 2>>"$OUTD/ncu-sass-$TAG.log"
  python3 "$(dirname "$0")/sass_profile.py" "$OUTD/sass-$TAG.csv" --top 60 >"$OUTD/sass-$TAG-top.txt"
  echo "profile_sass $TAG: $(wc -l <"$OUTD/sass-$TAG.csv") SASS lines"
else
  echo "profile_sass $TAG: $(grep -c . "$OUTD/ncu-details-$TAG.txt") detail lines"
fi
