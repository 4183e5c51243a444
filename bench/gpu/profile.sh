#!/usr/bin/env bash
# bench/gpu/profile.sh BUILD_DIR OUT_DIR [hdim] [seqlen] [pass]: Nsight Compute on one of our
# kernels and on FlashAttention-2's (torch SDPA) for the same shape (bf16, the standard shapes of
# shared/ANCHORS.md), side by side: speed of light, warp stalls, memory and instruction mix (with
# --print-details all: the executed-instruction mix per opcode and the stall reasons).
# Environment (e.g. FLASHATTN_DISABLE_SM90=1) passes through to our program. Used for
# bench/NOTES.md session 3: instructions 3.14G vs FA2's 2.12G pointed at the per-step overhead.
# The clocks are left alone (--clock-control none, as the device notes ask): figures in cycles compare.
set -u
BUILD=$1 OUTD=$2 HD=${3:-128} SEQ=${4:-8192} PASS=${5:-bwd}
SECTIONS=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
          --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis
          --section InstructionStats --section SourceCounters)
if [[ $PASS == bwd ]]; then OURS=regex:bwd_kernel; PEER=regex:flash_bwd_dq_dk_dv; else OURS=regex:fwd_kernel; PEER=regex:flash_fwd_kernel; fi
ncu --clock-control none -k "$OURS" -c 1 --print-details all "${SECTIONS[@]}" "$BUILD/bin/flashattn_gpu_bench" --shapes "$HD,$SEQ,0" --pass "$PASS" \
  --iters 1 --warmup 1 >"$OUTD/ncu-ours-$PASS-d$HD.txt" 2>&1
ncu --clock-control none -k "$PEER" -c 1 --print-details all "${SECTIONS[@]}" python3 "$(dirname "$0")/fa2_once.py" "$HD" "$SEQ" >"$OUTD/ncu-fa2-$PASS-d$HD.txt" 2>&1
echo "profile: $(grep -c . "$OUTD/ncu-ours-$PASS-d$HD.txt") / $(grep -c . "$OUTD/ncu-fa2-$PASS-d$HD.txt") lines"
