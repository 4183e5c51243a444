"""torch.library registration: opcheck (schema, fake tensors, autograd registration, AOT dispatch),
and torch.compile(fullgraph=True) over a model that calls the functions: no graph break, same
outputs and gradients as eager."""

import pytest
import torch
import torch.nn as nn

import flashattn
from conftest import DEVICES


def _fwd_args(device, pack, varlen=False, alibi=False):
    dtype = torch.float32 if device == "cpu" else torch.float16
    if varlen:
        q = torch.randn(20, 3, 2, 16, dtype=dtype, device=device, requires_grad=True)
        cu = torch.tensor([0, 7, 20], dtype=torch.int32, device=device)
        return (q, None, None, pack, cu, cu, 13, 13, 0.0, 0.25, True, -1, -1, 0.0, None, False, False)
    q = torch.randn(2, 9, 2, 16, dtype=dtype, device=device, requires_grad=True)
    k = torch.randn(2, 11, 1, 16, dtype=dtype, device=device, requires_grad=True)
    v = torch.randn(2, 11, 1, 16, dtype=dtype, device=device, requires_grad=True)
    slopes = torch.rand(2, device=device) if alibi else None
    return (q, k, v, pack, None, None, 0, 0, 0.0, 0.25, True, 4, -1, 2.0, slopes, False, False)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", ["separate", "varlen-qkvpacked", "alibi"])
def test_opcheck(device, case):
    args = _fwd_args(device, pack=1 if case == "varlen-qkvpacked" else 0, varlen=case.startswith("varlen"), alibi=case == "alibi")
    torch.library.opcheck(torch.ops.flashattn.fwd.default, args)


class Block(nn.Module):
    """A causal self-attention block that uses the qkv-packed function (as GPT-style models do)."""

    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, s, d = x.shape
        qkv = self.qkv(x).view(b, s, 3, self.heads, d // self.heads)
        y = flashattn.flash_attn_qkvpacked_func(qkv, causal=True)
        q, k, v = qkv.unbind(2)
        y = y + flashattn.flash_attn_func(q, k[:, :, :2], v[:, :, :2], window_size=(4, 0), softcap=5.0)
        return self.proj(y.reshape(b, s, d))


@pytest.mark.parametrize("device", DEVICES)
def test_compile_fullgraph(device):
    torch.manual_seed(0)
    dtype = torch.float32 if device == "cpu" else torch.bfloat16  # CUDA: fp16/bf16 only
    tol = 1e-4 if device == "cpu" else 2e-2
    model = Block().to(device=device, dtype=dtype)
    x = torch.randn(2, 24, 64, device=device, dtype=dtype, requires_grad=True)
    eager = model(x)
    eager_grads = torch.autograd.grad(eager.square().sum(), [x] + list(model.parameters()))
    compiled = torch.compile(model, fullgraph=True, backend="aot_eager")
    out = compiled(x)
    grads = torch.autograd.grad(out.square().sum(), [x] + list(model.parameters()))
    assert torch.allclose(out, eager, atol=tol, rtol=tol)
    for g, e in zip(grads, eager_grads):
        assert torch.allclose(g, e, atol=tol, rtol=tol)


@pytest.mark.parametrize("device", DEVICES)
def test_compile_varlen_dropout_no_graph_break(device):
    """Varlen with dropout compiles into one graph; the RNG state is drawn at run time."""
    dtype = torch.float32 if device == "cpu" else torch.float16
    q = torch.randn(20, 2, 16, device=device, dtype=dtype, requires_grad=True)
    cu = torch.tensor([0, 7, 20], dtype=torch.int32, device=device)

    def f(q, cu):
        return flashattn.flash_attn_varlen_func(q, q * 0.5, q, cu, cu, 13, 13, dropout_p=0.2, causal=True).sum()

    explanation = torch._dynamo.explain(f)(q, cu)
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1
    loss = torch.compile(f, fullgraph=True, backend="aot_eager")(q, cu)
    loss.backward()
    assert torch.isfinite(q.grad).all()
