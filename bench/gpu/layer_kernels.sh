#!/usr/bin/env bash
# bench/gpu/layer_kernels.sh OUT_DIR [B S H D]: every GPU kernel of one GPT-2 attention layer's
# forward + backward (causal, bf16; the second of two iterations), with its duration from Nsight
# Compute (gpu__time_duration), for ours (the installed Python package; plain, dropout 0.1 with
# the sm90 (default) and with the sm80 backward) and for SDPA's cuDNN backend (plain, dropout 0.1): where the time outside the
# attention kernels goes. OUT_DIR/layer-kernels-<impl>.csv (raw) and a table on stdout. IMPLS: a
# subset of the implementations (default all five, below).
set -u
OUTD=$1 B=${2:-4} S=${3:-4096} H=${4:-12} D=${5:-64}
cat >/tmp/layer_kernels.py <<PY
import sys, torch, torch.nn.functional as F, flashattn
from torch.nn.attention import SDPBackend, sdpa_kernel
impl = sys.argv[1]
qkv = torch.randn($B, $S, 3, $H, $D, device="cuda", dtype=torch.bfloat16, requires_grad=True)
dout = torch.randn($B, $S, $H, $D, device="cuda", dtype=torch.bfloat16)
def step():
    q, k, v = qkv.unbind(2)
    if impl.startswith("flashattn"):
        o = flashattn.flash_attn_func(q, k, v, causal=True, dropout_p=0.1 if "dropout" in impl else 0.0)
    else:
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            o = F.scaled_dot_product_attention(*(t.transpose(1, 2) for t in (q, k, v)), is_causal=True,
                                               dropout_p=0.1 if "dropout" in impl else 0.0).transpose(1, 2)
    o.backward(dout)
    qkv.grad = None
step()
torch.cuda.synchronize()
# cudaProfilerStart/Stop (ncu --profile-from-start off): process-wide, so the backward's kernels,
# which autograd launches from its own thread (outside a thread's NVTX range), count too.
torch.cuda.profiler.start()
step()
torch.cuda.synchronize()
torch.cuda.profiler.stop()
PY
for impl in ${IMPLS:-flashattn flashattn-dropout flashattn-dropout-sm80 sdpa-cudnn sdpa-cudnn-dropout}; do
  env_args=()
  [[ $impl == flashattn-dropout-sm80 ]] && env_args=(FLASHATTN_SM90_BWD_DROPOUT=0)
  env "${env_args[@]}" timeout 240 ncu --profile-from-start off --metrics gpu__time_duration.sum --print-units base --csv \
    python3 /tmp/layer_kernels.py "${impl%-sm80}" >"$OUTD/layer-kernels-$impl.csv" 2>/dev/null
  python3 - "$OUTD/layer-kernels-$impl.csv" "$impl" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
if not rows:
    print(f"== {sys.argv[2]}: no kernels recorded"); sys.exit()
head = rows[0]; body = rows[1:]
name, metric, value = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
total = 0.0
print(f"== {sys.argv[2]}")
for r in body:
    if r[metric] != "gpu__time_duration.sum": continue
    us = float(r[value].replace(",", "")) / 1000.0  # ns -> us
    total += us
    print(f"  {us:9.1f} us  {r[name][:110]}")
print(f"  {total:9.1f} us  total")
PY
done
