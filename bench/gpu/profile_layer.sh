#!/usr/bin/env bash
# bench/gpu/profile_layer.sh OUT_DIR [B S H D]: Nsight Compute on the kernels one GPT-2 attention
# layer runs through the Python package (installed), one option at a time: plain, dropout 0.1,
# softcap 30, ALiBi; forward and backward kernels, causal, bf16. Summary sections (speed of light,
# warp stalls, instruction counts, registers/spills) to OUT_DIR/ncu-layer-<opt>.txt.
set -u
OUTD=$1 B=${2:-4} S=${3:-4096} H=${4:-12} D=${5:-64}
cat >/tmp/layer_once.py <<PY
import sys, torch, flashattn
opt = sys.argv[1]
qkv = torch.randn($B, $S, 3, $H, $D, device="cuda", dtype=torch.bfloat16, requires_grad=True)
extra = {"plain": {}, "dropout": {"dropout_p": 0.1}, "softcap": {"softcap": 30.0},
         "alibi": {"alibi_slopes": torch.rand($H, device="cuda", dtype=torch.float32)}}[opt]
for _ in range(2):
    q, k, v = qkv.unbind(2)
    o = flashattn.flash_attn_func(q, k, v, causal=True, **extra)
    o.backward(torch.randn_like(o))
torch.cuda.synchronize()
PY
SECTIONS=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
          --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis)
for opt in ${PROFILE_OPTS:-plain dropout softcap alibi}; do
  # The second iteration's kernels (the first one warms up): skip one launch of each name.
  timeout 240 ncu -k "regex:(fwd|bwd)_kernel" --launch-skip 2 -c 2 "${SECTIONS[@]}" \
    python3 /tmp/layer_once.py "$opt" >"$OUTD/ncu-layer-$opt.txt" 2>&1
  echo "== $opt"; grep -E '^\s+[a-z_:0-9<>, ]*(fwd|bwd)_kernel|Duration|Registers Per|Executed Ipc A|Compute \(SM\) Th|Issue Slots Busy|Executed Instructions  ' "$OUTD/ncu-layer-$opt.txt" | head -24
done
