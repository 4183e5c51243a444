#!/usr/bin/env python3
"""One forward and backward of FlashAttention-2 as shipped in torch (SDPA's FLASH_ATTENTION backend;
cuDNN's with BACKEND=cudnn in the environment), twice, on the standard shapes of shared/ANCHORS.md (bf16, batch * seqlen = 16384, model dim 2048),
for Nsight Compute to profile beside ours (bench/gpu/profile.sh, profile_sass.sh).

    python3 bench/gpu/fa2_once.py HEAD_DIM SEQLEN [CAUSAL]
"""
import os
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

hd, seq = int(sys.argv[1]), int(sys.argv[2])
causal = len(sys.argv) > 3 and sys.argv[3] == "1"
q, k, v = (torch.randn(16384 // seq, 2048 // hd, seq, hd, device="cuda", dtype=torch.bfloat16, requires_grad=True)
           for _ in range(3))
backend = SDPBackend.CUDNN_ATTENTION if os.environ.get("BACKEND") == "cudnn" else SDPBackend.FLASH_ATTENTION
with sdpa_kernel(backend):
    for _ in range(2):
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
        o.backward(torch.randn_like(o))
torch.cuda.synchronize()
