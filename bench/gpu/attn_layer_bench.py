#!/usr/bin/env python3
"""One attention layer as a training step sees it: forward + backward through autograd, ours
(flashattn.flash_attn_func) beside torch SDPA's backends, on the shapes of the GPT-2 end-to-end
benchmark (bench/gpt2_e2e.py), with and without dropout. Explains the end-to-end ratio: the rest
of the model is the same for every implementation.

    python3 bench/gpu/attn_layer_bench.py                      # GPT-2 small shapes, dropout 0 and 0.1
    python3 bench/gpu/attn_layer_bench.py --shapes 4x4096x12x64 --dropout 0.1
    python3 bench/gpu/attn_layer_bench.py --impls flashattn,flashattn+softcap,flashattn+alibi --dropout 0

CUDA events around each pass, warm-up, median of --iters runs; TFLOP/s count the causal half
(shared/ANCHORS.md: fwd 4*b*h*s*s*d/2, bwd 2.5x that)."""

import argparse
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import flashattn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gpu_bench import time_ms  # noqa: E402  (CUDA events, warm-up, median)


def run(impl, b, s, h, d, p, causal, iters):
    torch.manual_seed(0)
    # GPT-2's layout: one (b, s, 3 * h * d) projection, q/k/v as strided views of it.
    qkv = torch.randn(b, s, 3, h, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    dout = torch.randn(b, s, h, d, device="cuda", dtype=torch.bfloat16)

    if impl.startswith("flashattn"):
        # flashattn+softcap / flashattn+alibi: the kernels with a score modifier ("extras").
        mod = impl.partition("+")[2]
        extra = {"": {}, "softcap": {"softcap": 30.0},
                 "alibi": {"alibi_slopes": torch.rand(h, device="cuda", dtype=torch.float32)}}[mod]

        def fwd():
            q, k, v = qkv.unbind(2)
            return flashattn.flash_attn_func(q, k, v, dropout_p=p, causal=causal, **extra)
    else:
        backend = {"sdpa": None, "sdpa-flash": SDPBackend.FLASH_ATTENTION, "sdpa-cudnn": SDPBackend.CUDNN_ATTENTION,
                   "sdpa-efficient": SDPBackend.EFFICIENT_ATTENTION}[impl]

        def fwd():
            q, k, v = (t.transpose(1, 2) for t in qkv.unbind(2))
            if backend is None:
                o = F.scaled_dot_product_attention(q, k, v, dropout_p=p, is_causal=causal)
            else:
                with sdpa_kernel(backend):
                    o = F.scaled_dot_product_attention(q, k, v, dropout_p=p, is_causal=causal)
            return o.transpose(1, 2)

    def fwd_only():
        with torch.no_grad():
            fwd()

    def fwd_bwd():
        o = fwd()
        o.backward(dout)
        qkv.grad = None

    try:
        t_f = time_ms(fwd_only, iters, warmup=3)
        t_fb = time_ms(fwd_bwd, iters, warmup=3)
    except RuntimeError as e:
        return None, None, str(e).splitlines()[0][:80]
    flops = 4 * b * h * s * s * d * (0.5 if causal else 1.0)
    return t_f, t_fb, "fwd %.3f ms (%.0f TFLOP/s), fwd+bwd %.3f ms (%.0f TFLOP/s)" % (
        t_f, flops / t_f / 1e9, t_fb, 3.5 * flops / t_fb / 1e9)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", default="16x1024x12x64,4x4096x12x64", help="comma list of BxSxHxD")
    ap.add_argument("--dropout", default="0,0.1")
    ap.add_argument("--impls", default="flashattn,sdpa,sdpa-flash,sdpa-cudnn")
    ap.add_argument("--no-causal", action="store_true")
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()
    causal = not args.no_causal
    print("GPU %s, torch %s, causal %s, bf16" % (torch.cuda.get_device_name(), torch.__version__, causal))
    for shape in args.shapes.split(","):
        b, s, h, d = (int(x) for x in shape.split("x"))
        for p in (float(x) for x in args.dropout.split(",")):
            base = None
            for impl in args.impls.split(","):
                t_f, t_fb, text = run(impl, b, s, h, d, p, causal, args.iters)
                if impl == "flashattn":
                    base = t_fb
                ratio = " (fwd+bwd time %.2fx ours)" % (t_fb / base) if base and t_fb and impl != "flashattn" else ""
                print("%-18s b%d s%d h%d d%d dropout %.1f: %s%s" % (impl, b, s, h, d, p, text, ratio), flush=True)


if __name__ == "__main__":
    main()
