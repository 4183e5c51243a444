"""flashattn.bert_padding: unpad_input / pad_input round trips, cu_seqlens and seqused, gradients,
and varlen attention on unpadded tokens equal to padded attention per sequence."""

import torch

import flashattn
from flashattn.bert_padding import index_first_axis, pad_input, unpad_input


def _mask(lengths, seqlen):
    return torch.arange(seqlen).unsqueeze(0) < torch.tensor(lengths).unsqueeze(1)


def test_round_trip_and_metadata():
    x = torch.randn(3, 7, 2, 5)
    mask = _mask([7, 3, 0], 7)
    x_unpad, indices, cu, max_seqlen, seqused = unpad_input(x, mask)
    assert x_unpad.shape == (10, 2, 5)
    assert cu.dtype == torch.int32 and cu.tolist() == [0, 7, 10, 10]
    assert max_seqlen == 7 and isinstance(max_seqlen, int)
    assert seqused.dtype == torch.int32 and seqused.tolist() == [7, 3, 0]
    assert torch.equal(indices, torch.nonzero(mask.flatten()).flatten())
    back = pad_input(x_unpad, indices, 3, 7)
    assert torch.equal(back, x * mask[:, :, None, None])


def test_unused_mask_kept_but_not_counted():
    x = torch.randn(2, 5, 3)
    mask = _mask([2, 4], 5)
    unused = torch.zeros(2, 5, dtype=torch.bool)
    unused[0, 2:4] = True
    x_unpad, indices, cu, max_seqlen, seqused = unpad_input(x, mask, unused)
    assert cu.tolist() == [0, 4, 8] and max_seqlen == 4 and seqused.tolist() == [2, 4]
    assert torch.equal(x_unpad, x.reshape(10, 3)[indices])


def test_gradients_flow():
    x = torch.randn(2, 6, 4, requires_grad=True)
    mask = _mask([6, 2], 6)
    x_unpad, indices, *_ = unpad_input(x, mask)
    pad_input(x_unpad * 2, indices, 2, 6).sum().backward()
    assert torch.equal(x.grad, 2 * mask[:, :, None].float().expand(2, 6, 4))
    y = torch.randn(12, 3, requires_grad=True)
    index_first_axis(y, torch.tensor([5, 1])).sum().backward()
    assert y.grad.sum().item() == 6


def test_varlen_attention_equals_padded_per_sequence():
    torch.manual_seed(1)
    lengths, seqlen = [9, 4, 12], 12
    q, k, v = (torch.randn(3, seqlen, 2, 16) for _ in range(3))
    mask = _mask(lengths, seqlen)
    qu, indices, cu, max_s, _ = unpad_input(q, mask)
    ku, vu = unpad_input(k, mask)[0], unpad_input(v, mask)[0]
    out = pad_input(flashattn.flash_attn_varlen_func(qu, ku, vu, cu, cu, max_s, max_s, causal=True), indices, 3, seqlen)
    for b, n in enumerate(lengths):
        ref = flashattn.flash_attn_func(q[b:b + 1, :n], k[b:b + 1, :n], v[b:b + 1, :n], causal=True)
        assert torch.allclose(out[b:b + 1, :n], ref, atol=1e-6)
        assert torch.all(out[b, n:] == 0)
