"""Shared pieces of the Python tests: devices (CUDA variants skip with a reason where there is no GPU
or no CUDA build), a float64 PyTorch reference of the semantics in docs/numerics.md, and the
tolerance rule: fp16/bf16 error <= 2 x the error of the same naive computation done in that dtype
+ 1e-5 x max(1, |ref|); fp32 error <= 1e-5 x max(1, |ref|)."""

import math

import pytest
import torch

import flashattn


def _cuda_skip_reason():
    if not torch.cuda.is_available():
        return "CUDA variant: no GPU visible to torch on this machine"
    if not flashattn.cuda_available():
        return "CUDA variant: this flashattn build has no CUDA backend (installed without nvcc or with FLASHATTN_CUDA=OFF)"
    return None


CUDA_SKIP = _cuda_skip_reason()
CUDA_MARK = pytest.mark.skipif(CUDA_SKIP is not None, reason=str(CUDA_SKIP))
DEVICES = ["cpu", pytest.param("cuda", marks=CUDA_MARK)]


# The selector's refusal of a head_dim tier that FLASHATTN_HEAD_DIMS left out of a CUDA build
# (src/dispatch/select.cc): such a case is skipped, not failed, as the C++ tests skip it.
_TIER_NOT_BUILT = "is not in this build (FLASHATTN_HEAD_DIMS)"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if call.when != "call" or call.excinfo is None:
        return
    message = str(call.excinfo.value)
    if _TIER_NOT_BUILT not in message:
        return
    line = next(ln for ln in message.splitlines() if _TIER_NOT_BUILT in ln)
    rep.outcome = "skipped"
    rep.longrepr = (str(item.path), item.location[1] or 0, "Skipped: head_dim tier not built: " + line.strip())


def device_marks(device):
    return [CUDA_MARK] if device == "cuda" else []


def dtypes_for(device):
    return [torch.float32, torch.float16, torch.bfloat16] if device == "cpu" else [torch.float16, torch.bfloat16]


def visible_mask(sq, sk, causal, window, device="cpu"):
    """(sq, sk) bool: key j visible to query i (bottom-right aligned window; causal = (left, 0))."""
    left, right = window
    if causal:
        right = 0
    i = torch.arange(sq, device=device).unsqueeze(1)
    j = torch.arange(sk, device=device).unsqueeze(0)
    diag = i + sk - sq
    ok = torch.ones(sq, sk, dtype=torch.bool, device=device)
    if left >= 0:
        ok &= j >= diag - left
    if right >= 0:
        ok &= j <= diag + right
    return ok


def attention_ref(q, k, v, softmax_scale=None, causal=False, window=(-1, -1), softcap=0.0, alibi=None,
                  keep=None, dropout_p=0.0, upcast=True):
    """Naive attention over padded tensors q (b, sq, h, d), k/v (b, sk, hk, d[v]).

    upcast: compute in float64 (the reference); else in the input dtype with intermediates rounded
    where a framework rounds them (the yardstick of the tolerance rule). keep: (b, h, sq, sk) bool
    dropout pattern. Returns (out, lse) with lse (b, h, sq) in float64 (upcast) or float32."""
    dtype = q.dtype
    if upcast:
        q, k, v = q.double(), k.double(), v.double()
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    scale = d ** -0.5 if softmax_scale is None else softmax_scale
    if hk != h:
        k = k.repeat_interleave(h // hk, dim=2)
        v = v.repeat_interleave(h // hk, dim=2)
    s = torch.einsum("bihd,bjhd->bhij", q * scale, k)
    if not upcast:
        s = s.float()
    if softcap > 0:
        s = softcap * torch.tanh(s / softcap)
    if alibi is not None:
        slopes = alibi.to(s.dtype).reshape(-1 if alibi.dim() == 1 else b, h)
        if alibi.dim() == 1:
            slopes = slopes.reshape(1, h)
        i = torch.arange(sq, device=q.device).unsqueeze(1)
        j = torch.arange(sk, device=q.device).unsqueeze(0)
        dist = (i + sk - sq - j).abs().to(s.dtype)
        s = s - slopes[:, :, None, None] * dist
    mask = visible_mask(sq, sk, causal, window, q.device)
    s = s.masked_fill(~mask, float("-inf"))
    # -inf for a row that sees no key, with a zero (not NaN) gradient there (d_allowance)
    seen = mask.any(-1, keepdim=True)
    lse = torch.logsumexp(s.masked_fill(~seen, 0.0), dim=-1).masked_fill(~seen[:, 0], float("-inf"))
    p = torch.softmax(s, dim=-1).nan_to_num(0.0)
    if keep is not None and dropout_p > 0:
        p = p * keep.to(p.dtype) / (1.0 - dropout_p)
    if not upcast:
        p = p.to(dtype)
    out = torch.einsum("bhij,bjhd->bihd", p, v)
    return out, lse


def tolerance(ref, low, dtype):
    floor = 1e-5 * max(1.0, ref.abs().max().item() if ref.numel() else 0.0)
    if dtype == torch.float32:
        return floor
    return 2.0 * (low.double() - ref).abs().max().item() + floor


def assert_close(name, ours, ref, low, dtype, extra=0.0):
    """The tolerance rule; NaN never passes. extra: an absolute allowance (d_allowances)."""
    assert ours.shape == ref.shape, "%s: shape %s != %s" % (name, tuple(ours.shape), tuple(ref.shape))
    assert not torch.isnan(ours).any(), "%s: NaN in the result" % name
    err = (ours.double() - ref).abs().max().item() if ref.numel() else 0.0
    tol = tolerance(ref, low, dtype) + extra
    assert err <= tol, "%s: max error %.3g > tolerance %.3g (%s%s)" % (
        name, err, tol, dtype, ", allowance %.3g" % extra if extra else "")


def d_allowances(leaves, ref_out, ref_lse, out, dout):
    """The allowance of the gradients of float64 leaves for D = rowsum(dO * out) (tests/cpp/harness.h's
    first allowance): a FlashAttention backward takes out as the forward stored it, in the dtype,
    and computes D from it, where the exact gradient has sum_j P_ij dP_ij = rowsum(dO * ref_out);
    the naive yardstick has no such term, and on tiny shapes (13 keys) the rule failed ~0.3% of
    emulated backwards for it alone (tools/tolerance_tail.py). The effect of E = D_ours - D_exact
    is exact and first order: dS_ij changes by -P_ij E_i, the gradient of -sum_i E_i lse_i. Returns
    twice its max |.| per leaf (0 where a leaf does not feed the scores). ref_out (..., heads, dv)
    and ref_lse (..., heads, rows) come from attention_ref(upcast=True) on the leaves, whose graph
    this keeps for the caller's own backward."""
    e = (dout.detach().cpu().double() * (out.detach().cpu().double() - ref_out.detach())).sum(-1).transpose(-1, -2)
    finite = torch.isfinite(ref_lse)
    lse = torch.where(finite, ref_lse, torch.zeros_like(ref_lse))
    delta = torch.autograd.grad(lse, leaves, -torch.where(finite, e, torch.zeros_like(e)), retain_graph=True,
                                allow_unused=True)
    return [0.0 if g is None or not g.numel() else 2.0 * g.abs().max().item() for g in delta]


def randn(shape, dtype, device, requires_grad=True, generator=None):
    t = torch.randn(shape, dtype=torch.float32, generator=generator).to(device=device, dtype=dtype)
    return t.requires_grad_(requires_grad)


def seqlens_to_cu(seqlens, device):
    cu = [0]
    for s in seqlens:
        cu.append(cu[-1] + s)
    return torch.tensor(cu, dtype=torch.int32, device=device)


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)
