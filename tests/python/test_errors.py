"""Clear errors: each rejected argument raises flashattn.FlashAttnError (a ValueError and a
RuntimeError) whose message names the argument and the rule."""

import pytest
import torch

import flashattn
from conftest import CUDA_MARK
from flashattn import FlashAttnError, flash_attn_func, flash_attn_qkvpacked_func, flash_attn_varlen_func


def qkv(shape=(1, 8, 2, 16), dtype=torch.float32):
    return [torch.randn(shape).to(dtype) for _ in range(3)]


def raises(match, fn, *args, **kwargs):
    with pytest.raises(FlashAttnError, match=match) as info:
        fn(*args, **kwargs)
    assert isinstance(info.value, ValueError) and isinstance(info.value, RuntimeError)
    return str(info.value)


def test_dtype():
    q, k, v = qkv(dtype=torch.float64)
    raises(r"argument 'q': dtype torch.float64 is not supported", flash_attn_func, q, k, v)
    q, k, v = qkv()
    raises(r"argument 'k': dtype torch.float16 differs from q's torch.float32", flash_attn_func, q, k.half(), v)


def test_device_mismatch():
    q, k, v = qkv()
    raises(r"argument 'v': is on meta but q is on cpu", flash_attn_func, q, k, v.to("meta"))


def test_rank_and_layout():
    q, k, v = qkv()
    raises(r"argument 'q': must have rank 4, layout \(batch, seqlen, heads, head_dim\)", flash_attn_func, q[0], k, v)
    raises(r"argument 'qkv': dimension 2 must be 3", flash_attn_qkvpacked_func, torch.randn(1, 8, 2, 2, 16))


def test_shapes_from_the_library():
    q, k, v = qkv()
    raises(r"argument 'v'", flash_attn_func, q, k, v[:, :5])  # seqlen_k mismatch between k and v
    raises(r"num_heads \(3\) must be divisible by num_heads_kv \(2\)", flash_attn_func, torch.randn(1, 8, 3, 16), k, v)


def test_head_dim():
    q, k, v = qkv(shape=(1, 4, 1, 264))
    msg = raises(r"head_dim", flash_attn_func, q, k, v)
    assert "256" in msg


def test_options():
    q, k, v = qkv()
    raises(r"argument 'dropout_p': must be in \[0, 1\)", flash_attn_func, q, k, v, dropout_p=1.0)
    raises(r"argument 'window_size': must be a pair", flash_attn_func, q, k, v, window_size=3)
    raises(r"argument 'alibi_slopes': must be torch.float32", flash_attn_func, q, k, v, alibi_slopes=torch.ones(2, dtype=torch.float64))
    raises(r"alibi_slopes", flash_attn_func, q, k, v, alibi_slopes=torch.ones(5))


def test_varlen_arguments():
    q = torch.randn(10, 2, 16)
    cu = torch.tensor([0, 4, 10], dtype=torch.int32)
    raises(r"argument 'cu_seqlens_q': must be torch.int32", flash_attn_varlen_func, q, q, q, cu.long(), cu, 6, 6)
    raises(r"cu_seqlens_k", flash_attn_varlen_func, q, q, q, cu, torch.tensor([0, 4, 11], dtype=torch.int32), 6, 7)
    with pytest.raises(NotImplementedError, match="block_table"):
        flash_attn_varlen_func(q, q, q, cu, cu, 6, 6, block_table=torch.zeros(1, 1, dtype=torch.int32))


@CUDA_MARK
def test_cuda_rejects_float32_with_a_reason():
    q, k, v = (t.cuda() for t in qkv())
    raises(r"float32", flash_attn_func, q, k, v)
