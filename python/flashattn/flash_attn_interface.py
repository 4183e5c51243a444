"""flash_attn 2.x's public functions, same names, signatures, defaults, return values and layouts:

    flash_attn_func(q, k, v, ...)                         q (batch, seqlen_q, heads, head_dim)
    flash_attn_kvpacked_func(q, kv, ...)                  kv (batch, seqlen_k, 2, heads_kv, head_dim)
    flash_attn_qkvpacked_func(qkv, ...)                   qkv (batch, seqlen, 3, heads, head_dim)
    flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, ...)
    flash_attn_varlen_kvpacked_func(q, kv, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, ...)
    flash_attn_varlen_qkvpacked_func(qkv, cu_seqlens, max_seqlen, ...)   varlen: (total_tokens, ...)

Each takes dropout_p=0.0, softmax_scale=None (1/sqrt(head_dim)), causal=False, window_size=(-1, -1),
softcap=0.0, alibi_slopes=None, deterministic=False, return_attn_probs=False and returns out, or
(out, softmax_lse, attn_probs) when return_attn_probs: softmax_lse (batch, heads, seqlen_q) fp32
(varlen: (heads, total_q)); attn_probs (batch, heads, round128(seqlen_q), round128(seqlen_k)), the
softmax weights before dropout scaling, negative (sign bit set) where dropout dropped them. Unlike
flash_attn, attn_probs is also returned without dropout, and it is exact: computed on the host in
double precision from the same semantics (for tests on small shapes).

CPU tensors run on the CPU backend (fp32, fp16, bf16), CUDA tensors on the CUDA backend (fp16,
bf16). Semantics (bottom-right aligned masks, ALiBi, softcap, dropout): docs/numerics.md."""

import torch

from . import _lib, _ops
from ._lib import fail
from ._ops import KV_PACKED, QKV_PACKED, SEPARATE

__all__ = [
    "flash_attn_func",
    "flash_attn_kvpacked_func",
    "flash_attn_qkvpacked_func",
    "flash_attn_varlen_func",
    "flash_attn_varlen_kvpacked_func",
    "flash_attn_varlen_qkvpacked_func",
]

_DTYPES = (torch.float16, torch.bfloat16, torch.float32)


def _maybe_contiguous(x):
    # Any strides are accepted as long as the last dimension is contiguous: no copy then.
    return x.contiguous() if x is not None and x.stride(-1) != 1 else x


def _check_tensor(name, t, rank, layout, like=None):
    if not isinstance(t, torch.Tensor):
        fail("argument '%s': must be a torch.Tensor, got %s" % (name, type(t).__name__))
    if t.dtype not in _DTYPES:
        fail("argument '%s': dtype %s is not supported (float16, bfloat16, or float32 on the CPU)" % (name, t.dtype))
    if t.dim() != rank:
        fail("argument '%s': must have rank %d, layout %s, got shape %s" % (name, rank, layout, tuple(t.shape)))
    if like is not None:
        if t.device != like.device:
            fail("argument '%s': is on %s but q is on %s (all tensors must be on one device)" % (name, t.device, like.device))
        if t.dtype != like.dtype:
            fail("argument '%s': dtype %s differs from q's %s" % (name, t.dtype, like.dtype))


def _check_aux(name, t, dtype, q):
    if t is None:
        return
    if not isinstance(t, torch.Tensor):
        fail("argument '%s': must be a torch.Tensor or None, got %s" % (name, type(t).__name__))
    if t.dtype != dtype:
        fail("argument '%s': must be %s, got %s" % (name, dtype, t.dtype))
    if t.device != q.device:
        fail("argument '%s': is on %s but q is on %s (all tensors must be on one device)" % (name, t.device, q.device))


def _window(window_size):
    try:
        left, right = window_size
        return int(left), int(right)
    except (TypeError, ValueError):
        fail("argument 'window_size': must be a pair (left, right), -1 meaning unbounded; got %r" % (window_size,))


def _run(q, k, v, pack, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal,
         window_size, softcap, alibi_slopes, deterministic, return_attn_probs):
    _check_aux("cu_seqlens_q", cu_seqlens_q, torch.int32, q)
    _check_aux("cu_seqlens_k", cu_seqlens_k, torch.int32, q)
    _check_aux("alibi_slopes", alibi_slopes, torch.float32, q)
    if not 0.0 <= dropout_p < 1.0:
        fail("argument 'dropout_p': must be in [0, 1), got %r" % (dropout_p,))
    left, right = _window(window_size)
    if softmax_scale is None:
        softmax_scale = q.shape[-1] ** (-0.5)
    q, k, v = _maybe_contiguous(q), _maybe_contiguous(k), _maybe_contiguous(v)
    if alibi_slopes is not None:
        alibi_slopes = _maybe_contiguous(alibi_slopes)
    out, lse, probs = _ops.attention(
        q, k, v, pack, cu_seqlens_q, cu_seqlens_k, int(max_seqlen_q), int(max_seqlen_k), float(dropout_p),
        float(softmax_scale), bool(causal), left, right, float(softcap), alibi_slopes, bool(deterministic),
        bool(return_attn_probs))
    return (out, lse, probs) if return_attn_probs else out


_PADDED = "(batch, seqlen, heads, head_dim)"
_VARLEN = "(total_tokens, heads, head_dim)"


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1), softcap=0.0,
                    alibi_slopes=None, deterministic=False, return_attn_probs=False):
    """Attention over q (batch, seqlen_q, heads, head_dim), k and v (batch, seqlen_k, heads_kv, head_dim);
    heads % heads_kv == 0 (GQA/MQA). See the module docstring for the options and return values."""
    _check_tensor("q", q, 4, _PADDED)
    _check_tensor("k", k, 4, _PADDED, q)
    _check_tensor("v", v, 4, _PADDED, q)
    return _run(q, k, v, SEPARATE, None, None, 0, 0, dropout_p, softmax_scale, causal, window_size, softcap,
                alibi_slopes, deterministic, return_attn_probs)


def flash_attn_kvpacked_func(q, kv, dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1),
                             softcap=0.0, alibi_slopes=None, deterministic=False, return_attn_probs=False):
    """q (batch, seqlen_q, heads, head_dim), kv (batch, seqlen_k, 2, heads_kv, head_dim). The backward
    writes dk and dv into one (batch, seqlen_k, 2, heads_kv, head_dim) gradient."""
    _check_tensor("q", q, 4, _PADDED)
    _check_tensor("kv", kv, 5, "(batch, seqlen, 2, heads_kv, head_dim)", q)
    if kv.shape[2] != 2:
        fail("argument 'kv': dimension 2 must be 2 (k, v), got shape %s" % (tuple(kv.shape),))
    return _run(q, _maybe_contiguous(kv), None, KV_PACKED, None, None, 0, 0, dropout_p, softmax_scale, causal,
                window_size, softcap, alibi_slopes, deterministic, return_attn_probs)


def flash_attn_qkvpacked_func(qkv, dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1),
                              softcap=0.0, alibi_slopes=None, deterministic=False, return_attn_probs=False):
    """qkv (batch, seqlen, 3, heads, head_dim). The backward writes dq, dk, dv into one qkv-shaped gradient."""
    _check_tensor("qkv", qkv, 5, "(batch, seqlen, 3, heads, head_dim)")
    if qkv.shape[2] != 3:
        fail("argument 'qkv': dimension 2 must be 3 (q, k, v), got shape %s" % (tuple(qkv.shape),))
    return _run(qkv, None, None, QKV_PACKED, None, None, 0, 0, dropout_p, softmax_scale, causal, window_size,
                softcap, alibi_slopes, deterministic, return_attn_probs)


def _check_cu(name, cu):
    if cu is None:
        fail("argument '%s': required for a varlen call (int32, batch + 1 prefix sums)" % name)


def flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p=0.0,
                           softmax_scale=None, causal=False, window_size=(-1, -1), softcap=0.0, alibi_slopes=None,
                           deterministic=False, return_attn_probs=False, block_table=None):
    """Sequences packed along the token dimension: q (total_q, heads, head_dim), k and v
    (total_k, heads_kv, head_dim); cu_seqlens_* int32 (batch + 1) prefix sums starting at 0."""
    if block_table is not None:
        raise NotImplementedError("flashattn: block_table (paged KV cache) is not supported")
    _check_tensor("q", q, 3, _VARLEN)
    _check_tensor("k", k, 3, _VARLEN, q)
    _check_tensor("v", v, 3, _VARLEN, q)
    _check_cu("cu_seqlens_q", cu_seqlens_q)
    _check_cu("cu_seqlens_k", cu_seqlens_k)
    return _run(q, k, v, SEPARATE, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale,
                causal, window_size, softcap, alibi_slopes, deterministic, return_attn_probs)


def flash_attn_varlen_kvpacked_func(q, kv, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p=0.0,
                                    softmax_scale=None, causal=False, window_size=(-1, -1), softcap=0.0,
                                    alibi_slopes=None, deterministic=False, return_attn_probs=False):
    """q (total_q, heads, head_dim), kv (total_k, 2, heads_kv, head_dim)."""
    _check_tensor("q", q, 3, _VARLEN)
    _check_tensor("kv", kv, 4, "(total_tokens, 2, heads_kv, head_dim)", q)
    if kv.shape[1] != 2:
        fail("argument 'kv': dimension 1 must be 2 (k, v), got shape %s" % (tuple(kv.shape),))
    _check_cu("cu_seqlens_q", cu_seqlens_q)
    _check_cu("cu_seqlens_k", cu_seqlens_k)
    return _run(q, _maybe_contiguous(kv), None, KV_PACKED, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
                dropout_p, softmax_scale, causal, window_size, softcap, alibi_slopes, deterministic, return_attn_probs)


def flash_attn_varlen_qkvpacked_func(qkv, cu_seqlens, max_seqlen, dropout_p=0.0, softmax_scale=None, causal=False,
                                     window_size=(-1, -1), softcap=0.0, alibi_slopes=None, deterministic=False,
                                     return_attn_probs=False):
    """qkv (total, 3, heads, head_dim), cu_seqlens int32 (batch + 1)."""
    _check_tensor("qkv", qkv, 4, "(total_tokens, 3, heads, head_dim)")
    if qkv.shape[1] != 3:
        fail("argument 'qkv': dimension 1 must be 3 (q, k, v), got shape %s" % (tuple(qkv.shape),))
    _check_cu("cu_seqlens", cu_seqlens)
    return _run(qkv, None, None, QKV_PACKED, cu_seqlens, cu_seqlens, max_seqlen, max_seqlen, dropout_p,
                softmax_scale, causal, window_size, softcap, alibi_slopes, deterministic, return_attn_probs)
