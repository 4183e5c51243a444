"""flashattn for PyTorch: exact FlashAttention on CPUs and NVIDIA GPUs, a drop-in for flash_attn 2.x.

    from flashattn import flash_attn_func      # instead of: from flash_attn import flash_attn_func
    out = flash_attn_func(q, k, v, causal=True)

The functions are torch.library custom ops (flashattn::fwd, flashattn::bwd) with fake
implementations and autograd: torch.compile(fullgraph=True) traces them without graph breaks."""

import torch  # noqa: F401  (loads torch's libraries before the extension module)

from . import bert_padding
from ._lib import FlashAttnError
from .flash_attn_interface import (
    flash_attn_func,
    flash_attn_kvpacked_func,
    flash_attn_qkvpacked_func,
    flash_attn_varlen_func,
    flash_attn_varlen_kvpacked_func,
    flash_attn_varlen_qkvpacked_func,
)

__version__ = "0.1.0"


def cuda_available():
    """Whether this build has the CUDA backend and a GPU is present."""
    from . import _C

    return bool(_C.built_with_cuda) and _C.backend_available("cuda")


__all__ = [
    "FlashAttnError",
    "bert_padding",
    "cuda_available",
    "flash_attn_func",
    "flash_attn_kvpacked_func",
    "flash_attn_qkvpacked_func",
    "flash_attn_varlen_func",
    "flash_attn_varlen_kvpacked_func",
    "flash_attn_varlen_qkvpacked_func",
]
