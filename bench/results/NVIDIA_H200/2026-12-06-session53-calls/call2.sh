#!/usr/bin/env bash
# Session 53 call 2 (tree = main, no uncommitted kernel code). Whichever GPU comes:
# - H200: the same-run table with FA2 and cuDNN (none on an H200 since session 28), then the
#   backward's knobs under the H200's power cap (decided on H100s: 80-query steps, dV early, head
#   groups, K in registers at d64), then the forward's short-cell knobs.
# - H100: plan item 4, the ticket lead against session 51's late claims (_ab/late = c638825's
#   fwd_kernel.h; launch.cu's tickets at every length) and the static rounds, then the same knobs.
# _ab/late is built beside either way (variant "late").
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS="" AB=0 BASES="late=_ab/late" BUDGET=200 bash bench/gpu/device_call.sh
O=/tmp/r
L=$O/log.txt
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
t() { echo $(($(date +%s) - T0)); }
B=build-gpu/bin/flashattn_gpu_bench
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "GPU: $GPU" | tee -a $L
CAP=${CAP:-520}  # seconds this script may take (the session's device time left, less the start)
ab() {  # name pass variants shapes rounds (skipped when less than 60 s of CAP is left)
  if (( $(t) > CAP - 60 )); then echo "===== $1 skipped (t=$(t)s, CAP $CAP)" | tee -a $L; return; fi
  echo "===== $1 (t=$(t)s)" | tee -a $L
  timeout $((CAP - $(t))) python3 bench/gpu/sm90_variants.py --pass "$2" --bench $B --variants "$3" --shapes "$4" --rounds "$5" \
    --out $O/$1.json >$O/$1.txt 2>&1
  echo "$1 rc=$?" | tee -a $L
  grep -A20 "^| shape" $O/$1.txt | tee -a $L
  pk
}
if [[ "$GPU" == *H200* ]]; then
  echo "===== table (t=$(t)s)" | tee -a $L
  timeout $((CAP - 60 - $(t))) python3 bench/gpu_bench.py --flashattn-bench $B --peers fa2,cudnn --rounds 2 --results $O/table >$O/table.txt 2>&1
  echo "table rc=$?" | tee -a $L
  grep -E "^ +(64|128|256) " $O/table.txt >>$L
  pk
else
  ab fwd_lead fwd "new:;late:BENCH=/tmp/base_late/b/bin/flashattn_gpu_bench;static:FLASHATTN_SM90_DYNAMIC=0" \
    "128,512,0;128,512,1;128,2048,1;128,8192,1;128,16384,1;64,512,1;64,8192,1;64,16384,1;256,8192,0;256,16384,1;64,512,0;256,512,1" 3
fi
ab bwd_knobs bwd "new:;bm64:FLASHATTN_SM90_BWD_BLOCK_M=64;dvlate:FLASHATTN_SM90_BWD_DV_EARLY=0;nohg:FLASHATTN_SM90_BWD_HEAD_GROUP=0;noregs:FLASHATTN_SM90_BWD_K_REGS=0" \
  "128,4096,0;128,8192,0;128,16384,0;128,8192,1;128,16384,1;64,8192,0;64,8192,1" 3
ab fwd_short fwd "new:;blockn_def:FLASHATTN_SM90_BLOCKN=default;two:FLASHATTN_SM90_CONSUMERS=2;sk:FLASHATTN_SM90_STREAMK=1" \
  "64,512,1;64,1024,1;128,512,0;128,512,1;128,1024,0;256,512,1;256,512,0" 3
echo "===== end (t=$(t)s)" | tee -a $L
pk
