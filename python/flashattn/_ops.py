"""The two custom ops, flashattn::fwd and flashattn::bwd, registered through torch.library with fake
(meta) implementations and autograd, so torch.compile(fullgraph=True) traces callers without a
graph break. One op per direction serves the separate, kv-packed and qkv-packed layouts (`pack`):
packed inputs are split into strided views for the C++ library, and the backward writes dq, dk, dv
straight into views of one packed gradient buffer (no concatenation)."""

from typing import List, Optional, Tuple

import torch
from torch import Tensor

from . import _lib

SEPARATE, QKV_PACKED, KV_PACKED = 0, 1, 2


def round_multiple(x, m):
    return (x + m - 1) // m * m


def split(q, k, v, pack):
    """q, k, v views of the packed inputs. qkv: (..., 3, heads, head_dim); kv: (..., 2, heads_kv, head_dim)."""
    if pack == QKV_PACKED:
        return q.select(-3, 0), q.select(-3, 1), q.select(-3, 2)
    if pack == KV_PACKED:
        return q, k.select(-3, 0), k.select(-3, 1)
    return q, k, v


def _out_and_lse_like(q, v, varlen):
    out = q.new_empty(q.shape[:-1] + (v.shape[-1],))
    if varlen:
        lse = torch.empty((q.shape[1], q.shape[0]), dtype=torch.float32, device=q.device)
    else:
        lse = torch.empty((q.shape[0], q.shape[2], q.shape[1]), dtype=torch.float32, device=q.device)
    return out, lse


def _probs_shape(q, k, cu_seqlens_q, max_seqlen_q, max_seqlen_k):
    if cu_seqlens_q is not None:
        return (cu_seqlens_q.shape[0] - 1, q.shape[1], round_multiple(max_seqlen_q, 128), round_multiple(max_seqlen_k, 128))
    return (q.shape[0], q.shape[2], round_multiple(q.shape[1], 128), round_multiple(k.shape[1], 128))


def _batch_heads(q, cu_seqlens_q):
    batch = cu_seqlens_q.shape[0] - 1 if cu_seqlens_q is not None else q.shape[0]
    return batch, q.shape[-2]


def _varlen_kwargs(q, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k):
    if cu_seqlens_q is None:
        return {}
    return {
        "cu_seqlens_q": _lib.cu_view(cu_seqlens_q),
        "cu_seqlens_k": _lib.cu_view(cu_seqlens_k),
        "batch": cu_seqlens_q.shape[0] - 1,
        "max_seqlen_q": max_seqlen_q,
        "max_seqlen_k": max_seqlen_k,
    }


def _option_kwargs(softmax_scale, causal, window_left, window_right, softcap, alibi_slopes, dropout_p, rng_state, deterministic):
    seed, offset = _lib.unpack_rng(rng_state) if dropout_p > 0 else (0, 0)
    return {
        "softmax_scale": softmax_scale,
        "causal": causal,
        "window_left": window_left,
        "window_right": window_right,
        "softcap": softcap,
        "alibi_slopes": _lib.view(alibi_slopes),
        "dropout_p": dropout_p,
        "seed": seed,
        "offset": offset,
        "deterministic": deterministic,
    }


def _is_empty(q, k):
    """Calls the library cannot express with null pointers: no query or no key at all."""
    return q.numel() == 0 or k.numel() == 0


def _fwd_impl(q, k, v, pack, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal,
              window_left, window_right, softcap, alibi_slopes, deterministic, return_probs):
    """The forward of both paths (the flashattn::fwd op and the eager fast path below)."""
    q, k, v = split(q, k, v, pack)
    varlen = cu_seqlens_q is not None
    out, lse = _out_and_lse_like(q, v, varlen)
    batch, heads = _batch_heads(q, cu_seqlens_q)
    rng = _lib.next_dropout_state(q.device, batch * heads) if dropout_p > 0 else (0, 0)
    rng_state = _lib.pack_rng(*rng)
    kwargs = _varlen_kwargs(q, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k)
    kwargs.update(_option_kwargs(softmax_scale, causal, window_left, window_right, softcap, alibi_slopes, dropout_p, rng_state, deterministic))
    if _is_empty(q, k):
        out.zero_()
        lse.fill_(float("-inf"))
    else:
        _lib.forward(q.device, q, k, v, out, lse, **kwargs)
    probs = q.new_empty((0,))
    if return_probs:
        probs = _probs(q, k, v, out, cu_seqlens_q, cu_seqlens_k, alibi_slopes, kwargs, _probs_shape(q, k, cu_seqlens_q, max_seqlen_q, max_seqlen_k))
    return out, lse, probs, rng_state


@torch.library.custom_op("flashattn::fwd", mutates_args=())
def fwd(
    q: Tensor,
    k: Optional[Tensor],
    v: Optional[Tensor],
    pack: int,
    cu_seqlens_q: Optional[Tensor],
    cu_seqlens_k: Optional[Tensor],
    max_seqlen_q: int,
    max_seqlen_k: int,
    dropout_p: float,
    softmax_scale: float,
    causal: bool,
    window_left: int,
    window_right: int,
    softcap: float,
    alibi_slopes: Optional[Tensor],
    deterministic: bool,
    return_probs: bool,
) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """-> (out, softmax_lse, probs, rng_state). probs is empty unless return_probs; rng_state is
    the (seed, offset) int64 CPU tensor the backward replays dropout from."""
    return _fwd_impl(q, k, v, pack, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale,
                     causal, window_left, window_right, softcap, alibi_slopes, deterministic, return_probs)


def _probs(q, k, v, out, cu_seqlens_q, cu_seqlens_k, alibi_slopes, kwargs, shape):
    """The attention probabilities, negative where dropped, computed on the host (tests only)."""
    probs = torch.zeros(shape, dtype=torch.float32)
    if not _is_empty(q, k):
        hq, hk, hv, hout, hcq, hck, halibi = [
            None if t is None else t.detach().cpu() for t in (q, k, v, out, cu_seqlens_q, cu_seqlens_k, alibi_slopes)]
        kw = dict(kwargs, alibi_slopes=_lib.view(halibi))
        if hcq is not None:
            kw["cu_seqlens_q"], kw["cu_seqlens_k"] = hcq.data_ptr(), hck.data_ptr()
        _lib.attention_probs(hq, hk, hv, hout, probs, **kw)
    return probs.to(device=q.device, dtype=q.dtype)


@torch.library.register_fake("flashattn::fwd")
def _fwd_fake(q, k, v, pack, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal,
              window_left, window_right, softcap, alibi_slopes, deterministic, return_probs):
    q, k, v = split(q, k, v, pack)
    out, lse = _out_and_lse_like(q, v, cu_seqlens_q is not None)
    shape = _probs_shape(q, k, cu_seqlens_q, max_seqlen_q, max_seqlen_k) if return_probs else (0,)
    probs = q.new_empty(shape)
    rng_state = torch.empty((2,), dtype=torch.int64, device="cpu")
    return out, lse, probs, rng_state


def _bwd_impl(dout, q, k, v, pack, out, softmax_lse, rng_state, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
              dropout_p, softmax_scale, causal, window_left, window_right, softcap, alibi_slopes, deterministic):
    """The backward of both paths: [dq, dk, dv] (separate), [dqkv] (qkv-packed) or [dq, dkv]."""
    grads = _grad_buffers(q, k, v, pack)
    # dq, dk, dv are views of the packed gradient(s): the library accepts interleaved outputs of
    # one layout whose elements are disjoint (src/dispatch/validate.cc), so nothing is concatenated.
    dq, dk, dv = split(*(grads + [None] * (3 - len(grads))), pack)
    q, k, v = split(q, k, v, pack)
    if dout.stride(-1) != 1:
        dout = dout.contiguous()
    kwargs = _varlen_kwargs(q, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k)
    kwargs.update(_option_kwargs(softmax_scale, causal, window_left, window_right, softcap, alibi_slopes, dropout_p, rng_state, deterministic))
    if _is_empty(q, k):
        for g in grads:
            g.zero_()
    else:
        _lib.backward(q.device, q, k, v, out, dout, softmax_lse, dq, dk, dv, **kwargs)
    return grads


@torch.library.custom_op("flashattn::bwd", mutates_args=())
def bwd(
    dout: Tensor,
    q: Tensor,
    k: Optional[Tensor],
    v: Optional[Tensor],
    pack: int,
    out: Tensor,
    softmax_lse: Tensor,
    rng_state: Tensor,
    cu_seqlens_q: Optional[Tensor],
    cu_seqlens_k: Optional[Tensor],
    max_seqlen_q: int,
    max_seqlen_k: int,
    dropout_p: float,
    softmax_scale: float,
    causal: bool,
    window_left: int,
    window_right: int,
    softcap: float,
    alibi_slopes: Optional[Tensor],
    deterministic: bool,
) -> List[Tensor]:
    """-> [dq, dk, dv] (separate), [dqkv] (qkv-packed) or [dq, dkv] (kv-packed)."""
    return _bwd_impl(dout, q, k, v, pack, out, softmax_lse, rng_state, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                     max_seqlen_k, dropout_p, softmax_scale, causal, window_left, window_right, softcap, alibi_slopes,
                     deterministic)


def _grad_buffers(q, k, v, pack):
    if pack == QKV_PACKED:
        return [torch.empty_like(q, memory_format=torch.contiguous_format)]
    if pack == KV_PACKED:
        return [torch.empty_like(q, memory_format=torch.contiguous_format), torch.empty_like(k, memory_format=torch.contiguous_format)]
    return [torch.empty_like(t, memory_format=torch.contiguous_format) for t in (q, k, v)]


@torch.library.register_fake("flashattn::bwd")
def _bwd_fake(dout, q, k, v, pack, out, softmax_lse, rng_state, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
              dropout_p, softmax_scale, causal, window_left, window_right, softcap, alibi_slopes, deterministic):
    return _grad_buffers(q, k, v, pack)


def _setup_context(ctx, inputs, output):
    (q, k, v, pack, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal,
     window_left, window_right, softcap, alibi_slopes, deterministic, return_probs) = inputs
    out, lse, _, rng_state = output
    ctx.save_for_backward(q, k, v, out, lse, rng_state, cu_seqlens_q, cu_seqlens_k, alibi_slopes)
    ctx.args = (pack, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal, window_left, window_right, softcap, deterministic)


def _backward(ctx, dout, dlse, dprobs, drng):
    q, k, v, out, lse, rng_state, cu_seqlens_q, cu_seqlens_k, alibi_slopes = ctx.saved_tensors
    pack, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal, window_left, window_right, softcap, deterministic = ctx.args
    grads = torch.ops.flashattn.bwd(
        dout, q, k, v, pack, out, lse, rng_state, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
        dropout_p, softmax_scale, causal, window_left, window_right, softcap, alibi_slopes, deterministic)
    return _input_grads(grads, pack) + (None,) * 14


def _input_grads(grads, pack):
    """(dq, dk, dv) for the op's q, k, v inputs (packed: the packed tensor's gradient, then None)."""
    if pack == QKV_PACKED:
        return grads[0], None, None
    if pack == KV_PACKED:
        return grads[0], grads[1], None
    return tuple(grads)


torch.library.register_autograd("flashattn::fwd", _backward, setup_context=_setup_context)


# ---- eager fast path ------------------------------------------------------------------------
# Outside torch.compile and torch.func transforms, with plain CPU/CUDA tensors, the functions call
# the implementations above directly (an autograd.Function when a gradient is needed) instead of
# going through the dispatcher's Python custom-op layers: on a tiny problem (CPU, session 6) the
# op path cost ~250 us a forward and ~550 us forward + backward of host time against ~110 us of
# SDPA's, which a GPU kernel of GPT-2's shapes (~0.1 ms) cannot hide. Same implementations, same
# results; FAST_PATH = False sends every call through the ops (tests compare both).
FAST_PATH = True
_functorch_active = getattr(torch._C, "_are_functorch_transforms_active", None)  # (None: an older torch)


def _eager(tensors):
    if not FAST_PATH or torch.compiler.is_compiling() or _functorch_active is None or _functorch_active():
        return False
    for t in tensors:
        if t is not None and (type(t) not in (torch.Tensor, torch.nn.Parameter) or t.device.type not in ("cpu", "cuda")):
            return False
    return True


class _Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, alibi_slopes, cu_seqlens_q, cu_seqlens_k, args):
        (pack, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal, window_left, window_right, softcap,
         deterministic, return_probs) = args
        out, lse, probs, rng_state = _fwd_impl(
            q, k, v, pack, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal,
            window_left, window_right, softcap, alibi_slopes, deterministic, return_probs)
        ctx.save_for_backward(q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, alibi_slopes)
        ctx.rng_state = rng_state
        ctx.args = args
        ctx.mark_non_differentiable(lse, probs)
        return out, lse, probs

    @staticmethod
    def backward(ctx, dout, dlse, dprobs):
        q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, alibi_slopes = ctx.saved_tensors
        (pack, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal, window_left, window_right, softcap,
         deterministic, _) = ctx.args
        grads = _bwd_impl(dout, q, k, v, pack, out, lse, ctx.rng_state, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                          max_seqlen_k, dropout_p, softmax_scale, causal, window_left, window_right, softcap,
                          alibi_slopes, deterministic)
        return _input_grads(grads, pack) + (None,) * 4


def attention(q, k, v, pack, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal,
              window_left, window_right, softcap, alibi_slopes, deterministic, return_probs):
    """-> (out, softmax_lse, probs): the eager fast path where it applies, else the flashattn::fwd op."""
    args = (q, k, v, pack, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal,
            window_left, window_right, softcap, alibi_slopes, deterministic, return_probs)
    if not _eager((q, k, v, cu_seqlens_q, cu_seqlens_k, alibi_slopes)):
        return torch.ops.flashattn.fwd(*args)[:3]
    if torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in (q, k, v)):
        return _Attention.apply(q, k, v, alibi_slopes, cu_seqlens_q, cu_seqlens_k,
                                (pack, max_seqlen_q, max_seqlen_k, dropout_p, softmax_scale, causal, window_left,
                                 window_right, softcap, deterministic, return_probs))
    return _fwd_impl(*args)[:3]
