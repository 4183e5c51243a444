"""Dropout: the pattern return_attn_probs reports is the one the forward applied and the backward
replays (checked in test_functions through the reference); here: the dropped fraction, the
magnitudes, reproducibility under torch.manual_seed, fresh masks per call."""

import math

import pytest
import torch

import flashattn
from conftest import DEVICES, attention_ref


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("p", [0.1, 0.5])
def test_dropped_fraction_and_magnitudes(device, p):
    dtype = torch.float32 if device == "cpu" else torch.float16
    q, k, v = (torch.randn(2, 96, 4, 32, dtype=dtype, device=device) for _ in range(3))
    out, lse, probs = flashattn.flash_attn_func(q, k, v, dropout_p=p, return_attn_probs=True)
    s = probs[:, :, :96, :96].float().cpu()
    dropped = torch.signbit(s)
    n = dropped.numel()
    frac = dropped.float().mean().item()
    assert abs(frac - p) < 6 * math.sqrt(p * (1 - p) / n), "dropped fraction %.4f for p=%.2f" % (frac, p)
    # |probs| is the softmax itself: each row sums to 1.
    assert torch.allclose(s.abs().sum(-1), torch.ones(2, 4, 96), atol=1e-3)
    ref, _ = attention_ref(q.cpu().double(), k.cpu().double(), v.cpu().double(), keep=~dropped, dropout_p=p)
    assert (out.cpu().double() - ref).abs().max().item() < (1e-5 if dtype == torch.float32 else 1e-2)


@pytest.mark.parametrize("device", DEVICES)
def test_seeded_runs_repeat_and_calls_differ(device):
    dtype = torch.float32 if device == "cpu" else torch.float16
    q, k, v = (torch.randn(1, 40, 2, 16, dtype=dtype, device=device) for _ in range(3))

    def masks():
        return [torch.signbit(flashattn.flash_attn_func(q, k, v, dropout_p=0.3, return_attn_probs=True)[2].float()) for _ in range(2)]

    torch.manual_seed(123)
    a = masks()
    torch.manual_seed(123)
    b = masks()
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1]), "same seed, same masks"
    assert not torch.equal(a[0], a[1]), "consecutive calls draw fresh masks"


@pytest.mark.parametrize("device", DEVICES)
def test_backward_replays_the_forward_mask(device):
    """Gradients with dropout match the reference built from the forward's pattern, even when
    other random draws happen between forward and backward."""
    dtype = torch.float32 if device == "cpu" else torch.float16
    q, k, v = (torch.randn(2, 33, 2, 16, dtype=dtype, device=device, requires_grad=True) for _ in range(3))
    out, _, probs = flashattn.flash_attn_func(q, k, v, dropout_p=0.4, causal=True, return_attn_probs=True)
    torch.rand(1000, device=device)  # moves the generators on
    flashattn.flash_attn_func(q.detach(), k.detach(), v.detach(), dropout_p=0.4)
    dout = torch.randn_like(out)
    grads = torch.autograd.grad(out, (q, k, v), dout)
    keep = ~torch.signbit(probs[:, :, :33, :33].float()).cpu()
    leaves = [t.detach().cpu().double().requires_grad_() for t in (q, k, v)]
    ref, _ = attention_ref(*leaves, causal=True, keep=keep, dropout_p=0.4)
    ref_grads = torch.autograd.grad(ref, leaves, dout.cpu().double())
    for g, r in zip(grads, ref_grads):
        assert (g.cpu().double() - r).abs().max().item() < (1e-5 if dtype == torch.float32 else 2e-2)
