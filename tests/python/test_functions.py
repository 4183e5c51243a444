"""Every public function, forward and backward, against the float64 reference with the tolerance
rule: flash_attn_func / kvpacked / qkvpacked over padded batches and the three varlen variants,
through every option (causal, window, softcap, ALiBi per head and per batch, GQA/MQA, dropout,
softmax_scale, head_dim 59, seqlens 1/17/97 and unequal q/k)."""

import pytest
import torch

import flashattn
from conftest import DEVICES, assert_close, attention_ref, d_allowances, device_marks, dtypes_for, randn, seqlens_to_cu

# name, seqlen_q, seqlen_k, heads, heads_kv, head_dim, options
PADDED = [
    ("plain", 17, 17, 4, 4, 32, {}),
    ("causal-gqa-d59", 33, 97, 4, 2, 59, {"causal": True}),
    ("causal-sq>sk", 97, 33, 6, 2, 64, {"causal": True}),
    ("window-mqa", 40, 50, 4, 1, 16, {"window_size": (8, 3)}),
    ("window-left", 45, 45, 2, 2, 32, {"window_size": (5, -1)}),
    ("softcap", 31, 31, 2, 2, 64, {"softcap": 5.0}),
    ("alibi-heads", 25, 41, 4, 4, 32, {"alibi": "heads", "causal": True}),
    ("alibi-batch", 25, 41, 4, 2, 32, {"alibi": "batch", "window_size": (10, -1)}),
    ("dropout", 64, 64, 2, 2, 128, {"dropout_p": 0.17}),
    ("dropout-causal-gqa", 37, 29, 4, 2, 40, {"dropout_p": 0.3, "causal": True}),
    ("seqlen1", 1, 1, 2, 2, 8, {}),
    ("scale-d256", 9, 12, 2, 2, 256, {"softmax_scale": 0.3}),
    ("everything", 23, 31, 4, 2, 24, {"causal": True, "window_size": (12, -1), "softcap": 3.0, "alibi": "heads", "dropout_p": 0.1}),
]

VARLEN = [
    ("plain", [5, 17, 1], [5, 17, 1], 4, 4, 32, {}),
    ("causal-gqa", [17, 30, 3], [40, 30, 9], 4, 2, 59, {"causal": True}),
    ("window-mqa", [12, 33], [20, 33], 4, 1, 16, {"window_size": (6, 2)}),
    ("softcap-alibi-batch", [9, 21], [9, 21], 2, 2, 32, {"softcap": 4.0, "alibi": "batch"}),
    ("zero-length", [0, 13, 7], [4, 13, 0], 2, 2, 32, {"causal": True}),
    ("dropout", [31, 16], [31, 16], 2, 2, 64, {"dropout_p": 0.25, "alibi": "heads"}),
]


def _alibi(kind, batch, heads, device):
    if kind is None:
        return None
    shape = (heads,) if kind == "heads" else (batch, heads)
    return (torch.rand(shape) * 0.5 + 0.05).to(device)


def _keep_mask(probs, sq, sk):
    """The dropout pattern the forward used, read from return_attn_probs' sign bits."""
    return ~torch.signbit(probs[..., :sq, :sk].float())


def _call(variant, leaves, opts, cu=None):
    if variant == "func":
        return flashattn.flash_attn_func(*leaves, **opts)
    if variant == "kvpacked":
        return flashattn.flash_attn_kvpacked_func(*leaves, **opts)
    if variant == "qkvpacked":
        return flashattn.flash_attn_qkvpacked_func(*leaves, **opts)
    cu_q, cu_k, max_q, max_k = cu
    if variant == "varlen_func":
        return flashattn.flash_attn_varlen_func(*leaves, cu_q, cu_k, max_q, max_k, **opts)
    if variant == "varlen_kvpacked":
        return flashattn.flash_attn_varlen_kvpacked_func(*leaves, cu_q, cu_k, max_q, max_k, **opts)
    return flashattn.flash_attn_varlen_qkvpacked_func(*leaves, cu_q, max_q, **opts)


def _split(variant, leaves):
    if variant.endswith("qkvpacked"):
        (qkv,) = leaves
        return qkv.select(-3, 0), qkv.select(-3, 1), qkv.select(-3, 2)
    if variant.endswith("kvpacked"):
        q, kv = leaves
        return q, kv.select(-3, 0), kv.select(-3, 1)
    return leaves


def _make_leaves(variant, q, k, v):
    if variant.endswith("qkvpacked"):
        return [torch.stack([q, k, v], dim=-3).detach().requires_grad_()]
    if variant.endswith("kvpacked"):
        return [q.detach().requires_grad_(), torch.stack([k, v], dim=-3).detach().requires_grad_()]
    return [t.detach().requires_grad_() for t in (q, k, v)]


def _ref_opts(opts, alibi):
    return {
        "softmax_scale": opts.get("softmax_scale"),
        "causal": opts.get("causal", False),
        "window": opts.get("window_size", (-1, -1)),
        "softcap": opts.get("softcap", 0.0),
        "alibi": alibi,
        "dropout_p": opts.get("dropout_p", 0.0),
    }


def _grads(outputs, leaves, dout):
    return torch.autograd.grad(outputs, leaves, dout)


def _padded_variants(sq, sk, h, hk):
    out = ["func", "kvpacked"]
    if sq == sk and h == hk:
        out.append("qkvpacked")
    return out


PADDED_CASES = [
    pytest.param(dev, dt, variant, case, id="%s-%s-%s-%s" % (dev, str(dt)[6:], variant, case[0]), marks=device_marks(dev))
    for dev in ("cpu", "cuda")
    for dt in dtypes_for(dev)
    for case in PADDED
    for variant in _padded_variants(case[1], case[2], case[3], case[4])
]


@pytest.mark.parametrize("device,dtype,variant,case", PADDED_CASES)
def test_padded(device, dtype, variant, case):
    name, sq, sk, h, hk, d, opts = case
    if variant == "qkvpacked":
        sk, hk = sq, h
    opts = dict(opts)
    alibi = _alibi(opts.pop("alibi", None), 2, h, device)
    batch = 2
    q = randn((batch, sq, h, d), dtype, device)
    k = randn((batch, sk, hk, d), dtype, device)
    v = randn((batch, sk, hk, d), dtype, device)
    leaves = _make_leaves(variant, q, k, v)
    out, lse, probs = _call(variant, leaves, dict(opts, alibi_slopes=alibi, return_attn_probs=True))
    assert out.shape == (batch, sq, h, d) and out.dtype == dtype and out.device.type == device
    assert lse.shape == (batch, h, sq) and lse.dtype == torch.float32
    assert probs.shape == (batch, h, (sq + 127) // 128 * 128, (sk + 127) // 128 * 128)
    keep = _keep_mask(probs, sq, sk).cpu() if opts.get("dropout_p", 0) > 0 else None
    dout = torch.randn_like(out)
    ours = _grads(out, leaves, dout)

    refs = {}
    for mode in ("ref", "low"):
        ref_leaves = [t.detach().cpu().double().requires_grad_() if mode == "ref" else t.detach().cpu().requires_grad_() for t in leaves]
        rq, rk, rv = _split(variant, ref_leaves)
        r_alibi = None if alibi is None else alibi.cpu()
        r_out, r_lse = attention_ref(rq, rk, rv, keep=keep, upcast=(mode == "ref"), **_ref_opts(opts, r_alibi))
        if mode == "ref":
            allow = d_allowances(ref_leaves, r_out, r_lse, out, dout)
        r_grads = _grads(r_out, ref_leaves, dout.cpu().to(r_out.dtype))
        refs[mode] = (r_out, r_lse, r_grads)
    ref_out, ref_lse, ref_grads = refs["ref"]
    low_out, _, low_grads = refs["low"]
    assert_close("out", out.cpu(), ref_out, low_out, dtype)
    finite = torch.isfinite(ref_lse)
    assert torch.equal(torch.isfinite(lse.cpu()), finite), "lse: -inf exactly for rows that see no key"
    assert (lse.cpu().double()[finite] - ref_lse[finite]).abs().max().item() <= 1e-4 if finite.any() else True
    names = {"func": ["dq", "dk", "dv"], "kvpacked": ["dq", "dkv"], "qkvpacked": ["dqkv"]}[variant]
    for n, g, rg, lg, a in zip(names, ours, ref_grads, low_grads, allow):
        assert g.shape == rg.shape and g.dtype == dtype
        assert_close(n, g.cpu(), rg, lg, dtype, a)
    if keep is None:  # without dropout the probabilities are exactly the reference softmax
        p_ref = torch.softmax(_scores_ref(refs, variant, leaves, opts, alibi), dim=-1).nan_to_num(0.0)
        assert (probs[..., :sq, :sk].cpu().double() - p_ref).abs().max().item() <= (1e-6 if dtype == torch.float32 else 4e-3)


def _scores_ref(refs, variant, leaves, opts, alibi):
    """Masked scores in float64 (for comparing attn_probs with the reference softmax)."""
    from conftest import visible_mask

    rq, rk, _ = _split(variant, [t.detach().cpu().double() for t in leaves])
    h, hk = rq.shape[2], rk.shape[2]
    rk = rk.repeat_interleave(h // hk, dim=2)
    scale = opts.get("softmax_scale") or rq.shape[-1] ** -0.5
    s = torch.einsum("bihd,bjhd->bhij", rq * scale, rk)
    cap = opts.get("softcap", 0.0)
    if cap > 0:
        s = cap * torch.tanh(s / cap)
    sq, sk = rq.shape[1], rk.shape[1]
    if alibi is not None:
        a = alibi.cpu().double()
        a = a.reshape(1, h) if a.dim() == 1 else a
        i = torch.arange(sq).unsqueeze(1)
        j = torch.arange(sk).unsqueeze(0)
        s = s - a[:, :, None, None] * (i + sk - sq - j).abs().double()
    mask = visible_mask(sq, sk, opts.get("causal", False), opts.get("window_size", (-1, -1)))
    return s.masked_fill(~mask, float("-inf"))


def _varlen_variants(seqs_q, seqs_k, h, hk):
    out = ["varlen_func", "varlen_kvpacked"]
    if seqs_q == seqs_k and h == hk:
        out.append("varlen_qkvpacked")
    return out


VARLEN_CASES = [
    pytest.param(dev, dt, variant, case, id="%s-%s-%s-%s" % (dev, str(dt)[6:], variant, case[0]), marks=device_marks(dev))
    for dev in ("cpu", "cuda")
    for dt in dtypes_for(dev)
    for case in VARLEN
    for variant in _varlen_variants(case[1], case[2], case[3], case[4])
]


@pytest.mark.parametrize("device,dtype,variant,case", VARLEN_CASES)
def test_varlen(device, dtype, variant, case):
    name, seqs_q, seqs_k, h, hk, d, opts = case
    opts = dict(opts)
    batch = len(seqs_q)
    alibi = _alibi(opts.pop("alibi", None), batch, h, device)
    cu_q, cu_k = seqlens_to_cu(seqs_q, device), seqlens_to_cu(seqs_k, device)
    max_q, max_k = max(seqs_q), max(seqs_k)
    q = randn((sum(seqs_q), h, d), dtype, device)
    k = randn((sum(seqs_k), hk, d), dtype, device)
    v = randn((sum(seqs_k), hk, d), dtype, device)
    leaves = _make_leaves(variant, q, k, v)
    out, lse, probs = _call(variant, leaves, dict(opts, alibi_slopes=alibi, return_attn_probs=True), (cu_q, cu_k, max_q, max_k))
    assert out.shape == q.shape and lse.shape == (h, sum(seqs_q))
    assert probs.shape == (batch, h, (max_q + 127) // 128 * 128, (max_k + 127) // 128 * 128)
    dout = torch.randn_like(out)
    ours = _grads(out, leaves, dout)

    dropout = opts.get("dropout_p", 0) > 0
    refs = {}
    for mode in ("ref", "low"):
        ref_leaves = [t.detach().cpu().double().requires_grad_() if mode == "ref" else t.detach().cpu().requires_grad_() for t in leaves]
        rq, rk, rv = _split(variant, ref_leaves)
        outs, lses = [], []
        for b in range(batch):
            qs = slice(int(cu_q[b]), int(cu_q[b + 1]))
            ks = slice(int(cu_k[b]), int(cu_k[b + 1]))
            keep = _keep_mask(probs[b], seqs_q[b], seqs_k[b]).cpu().unsqueeze(0) if dropout else None
            a = None
            if alibi is not None:
                a = alibi.cpu() if alibi.dim() == 1 else alibi[b].cpu()
            o, l = attention_ref(rq[qs].unsqueeze(0), rk[ks].unsqueeze(0), rv[ks].unsqueeze(0), keep=keep,
                                 upcast=(mode == "ref"), **_ref_opts(opts, a))
            outs.append(o[0])
            lses.append(l[0])
        r_out, r_lse = torch.cat(outs, 0), torch.cat(lses, 1)
        if mode == "ref":
            allow = d_allowances(ref_leaves, r_out, r_lse, out, dout)
        refs[mode] = (r_out, r_lse, _grads(r_out, ref_leaves, dout.cpu().to(r_out.dtype)))
    ref_out, ref_lse, ref_grads = refs["ref"]
    low_out, _, low_grads = refs["low"]
    assert_close("out", out.cpu(), ref_out, low_out, dtype)
    finite = torch.isfinite(ref_lse)
    assert torch.equal(torch.isfinite(lse.cpu()), finite)
    if finite.any():
        assert (lse.cpu().double()[finite] - ref_lse[finite]).abs().max().item() <= 1e-4
    for g, rg, lg, a in zip(ours, ref_grads, low_grads, allow):
        assert_close("grad", g.cpu(), rg, lg, dtype, a)


@pytest.mark.parametrize("device", DEVICES)
def test_deterministic_backward_is_bitwise_repeatable(device):
    dtype = torch.float16 if device == "cuda" else torch.float32
    q, k, v = (randn((2, 70, 4, 32), dtype, device) for _ in range(3))
    dout = torch.randn(2, 70, 4, 32, dtype=dtype, device=device)
    runs = []
    for _ in range(2):
        out = flashattn.flash_attn_func(q, k, v, causal=True, deterministic=True)
        runs.append(torch.autograd.grad(out, (q, k, v), dout))
    for a, b in zip(*runs):
        assert torch.equal(a, b)


@pytest.mark.parametrize("device", DEVICES)
def test_strided_inputs_are_not_copied(device, monkeypatch):
    """Views whose last dim is contiguous reach the library as they are; others are copied."""
    from flashattn import _lib

    dtype = torch.float16 if device == "cuda" else torch.float32
    base = torch.randn(2, 20, 8, 3, 32, dtype=dtype, device=device)
    q, k, v = base[:, :, :4, 0], base[:, :, 4:, 1], base[:, :, :4, 2]  # strided, last dim contiguous
    seen = []
    real = _lib.forward

    def spy(dev, q_, k_, v_, *args, **kwargs):
        seen.append((q_.data_ptr(), k_.data_ptr(), v_.data_ptr()))
        return real(dev, q_, k_, v_, *args, **kwargs)

    monkeypatch.setattr(_lib, "forward", spy)
    out = flashattn.flash_attn_func(q, k, v)
    assert seen == [(q.data_ptr(), k.data_ptr(), v.data_ptr())]
    ref, _ = attention_ref(q.cpu().double(), k.cpu().double(), v.cpu().double())
    assert (out.cpu().double() - ref).abs().max().item() < (1e-5 if dtype == torch.float32 else 2e-3)
    # A non-contiguous last dim is copied (flash_attn does the same) and still correct.
    qt = base[:, :, :4, :, 0]  # last-dim stride 32
    out2 = flashattn.flash_attn_func(qt, k[..., :3], v[..., :3])
    ref2, _ = attention_ref(qt.cpu().double(), k[..., :3].cpu().double(), v[..., :3].cpu().double())
    assert (out2.cpu().double() - ref2).abs().max().item() < (1e-5 if dtype == torch.float32 else 2e-3)


def test_head_dim_v_may_differ():
    q, k = randn((2, 9, 2, 32), torch.float32, "cpu"), randn((2, 11, 2, 32), torch.float32, "cpu")
    v = randn((2, 11, 2, 48), torch.float32, "cpu")
    out = flashattn.flash_attn_func(q, k, v, causal=True)
    ref, _ = attention_ref(q.double(), k.double(), v.double(), causal=True)
    assert out.shape == (2, 9, 2, 48)
    assert (out.double() - ref).abs().max().item() < 1e-5


PACKED_VARIANTS = ["qkvpacked", "kvpacked", "varlen_qkvpacked", "varlen_kvpacked"]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("variant", PACKED_VARIANTS)
def test_packed_backward_writes_one_buffer(device, variant, monkeypatch):
    """The packed variants' backward hands the library dq, dk, dv as interleaved views of the
    packed gradient that autograd returns: no separate buffers, no torch.stack / torch.cat (both
    made to fail during the backward), and the gradients match the float64 reference."""
    from flashattn import _lib

    dtype = torch.float32 if device == "cpu" else torch.float16
    seen = []
    real = _lib.backward

    def spy(dev, q, k, v, out, dout, lse, dq, dk, dv, **kw):
        seen.append((dq, dk, dv))
        return real(dev, q, k, v, out, dout, lse, dq, dk, dv, **kw)

    qkv = variant.endswith("qkvpacked")
    varlen = variant.startswith("varlen")
    h, hk, d = (3, 3, 16) if qkv else (4, 2, 16)
    seqs_q, seqs_k = ([5, 13], [5, 13]) if qkv else ([7, 11], [9, 13])
    lead_q = (sum(seqs_q),) if varlen else (2, max(seqs_q))
    lead_k = (sum(seqs_k),) if varlen else (2, max(seqs_k))
    q, k, v = randn(lead_q + (h, d), dtype, device), randn(lead_k + (hk, d), dtype, device), randn(lead_k + (hk, d), dtype, device)
    leaves = _make_leaves(variant, q, k, v)
    cu = (seqlens_to_cu(seqs_q, device), seqlens_to_cu(seqs_k, device), max(seqs_q), max(seqs_k)) if varlen else None
    out = _call(variant, leaves, {"causal": True}, cu)
    dout = torch.randn_like(out)

    def no_copy(*args, **kwargs):
        raise AssertionError("the packed backward concatenated its gradients")

    monkeypatch.setattr(_lib, "backward", spy)
    monkeypatch.setattr(torch, "stack", no_copy)
    monkeypatch.setattr(torch, "cat", no_copy)
    ours = _grads(out, leaves, dout)
    monkeypatch.undo()

    (dq, dk, dv), = seen
    packed = ours[-1]  # dqkv, or dkv
    es = packed.element_size()
    if qkv:
        views = (dq, dk, dv)
    else:
        views = (dk, dv)
        assert dq.data_ptr() == ours[0].data_ptr() and dq.shape == ours[0].shape
    for i, t in enumerate(views):
        assert t.data_ptr() == packed.data_ptr() + i * hk * d * es
        assert t.stride() == packed.select(-3, i).stride() and t.shape == packed.select(-3, i).shape

    refs = {}
    for mode in ("ref", "low"):
        ref_leaves = [t.detach().cpu().double().requires_grad_() if mode == "ref" else t.detach().cpu().requires_grad_() for t in leaves]
        rq, rk, rv = _split(variant, ref_leaves)
        if varlen:
            cq, ck = cu[0].tolist(), cu[1].tolist()
            parts = [attention_ref(rq[cq[b]:cq[b + 1]].unsqueeze(0), rk[ck[b]:ck[b + 1]].unsqueeze(0), rv[ck[b]:ck[b + 1]].unsqueeze(0),
                                   causal=True, upcast=(mode == "ref")) for b in range(2)]
            r_out, r_lse = torch.cat([o[0] for o, _ in parts]), torch.cat([l[0] for _, l in parts], 1)
        else:
            r_out, r_lse = attention_ref(rq, rk, rv, causal=True, upcast=(mode == "ref"))
        if mode == "ref":
            allow = d_allowances(ref_leaves, r_out, r_lse, out, dout)
        refs[mode] = _grads(r_out, ref_leaves, dout.cpu().to(r_out.dtype))
    for name, g, rg, lg, a in zip(["dqkv"] if len(ours) == 1 else ["dq", "dkv"], ours, refs["ref"], refs["low"], allow):
        assert g.shape == rg.shape and g.dtype == dtype
        assert_close(name, g.cpu(), rg, lg, dtype, a)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("variant", ["func", "qkvpacked", "kvpacked", "varlen_func"])
def test_eager_fast_path_equals_the_ops(device, variant, monkeypatch):
    """Eager calls skip the dispatcher's custom-op layers (flashattn._ops.FAST_PATH): the same
    implementations, so the outputs, LSE and gradients are bitwise those of the flashattn::fwd /
    flashattn::bwd ops, with dropout (same seed), GQA, ALiBi and a window; and each path really
    is the one taken (the ops' Python bodies are spied on)."""
    from flashattn import _ops

    dtype = torch.float16 if device == "cuda" else torch.float32
    seqs = [19, 7]
    varlen = variant.startswith("varlen")
    lead = (sum(seqs),) if varlen else (2, max(seqs))
    hq, hk = (4, 4) if variant == "qkvpacked" else (4, 2)
    q, k, v = randn(lead + (hq, 32), dtype, device), randn(lead + (hk, 32), dtype, device), randn(lead + (hk, 32), dtype, device)
    cu = (seqlens_to_cu(seqs, device), seqlens_to_cu(seqs, device), max(seqs), max(seqs)) if varlen else None
    opts = {"causal": True, "window_size": (9, -1), "dropout_p": 0.2, "return_attn_probs": True,
            "alibi_slopes": torch.rand(hq, device=device) * 0.3}
    calls = []
    real_fwd, real_bwd = _ops._fwd_impl, _ops._bwd_impl
    monkeypatch.setattr(_ops, "_fwd_impl", lambda *a: calls.append("fwd") or real_fwd(*a))
    monkeypatch.setattr(_ops, "_bwd_impl", lambda *a: calls.append("bwd") or real_bwd(*a))
    results = []
    for fast in (True, False):
        monkeypatch.setattr(_ops, "FAST_PATH", fast)
        leaves = [t.detach().clone().requires_grad_(True) for t in _make_leaves(variant, q, k, v)]
        torch.manual_seed(1234)
        if device == "cuda":
            torch.cuda.manual_seed(1234)
        out, lse, probs = _call(variant, leaves, opts, cu)
        out.backward(torch.ones_like(out))
        results.append([out, lse, probs] + [t.grad for t in leaves])
    assert calls == ["fwd", "bwd", "fwd", "bwd"]  # (the op path's bodies call the same functions)
    for a, b in zip(*results):
        assert torch.equal(a, b)
    # No gradient wanted: the fast path runs the forward alone, no autograd node.
    monkeypatch.setattr(_ops, "FAST_PATH", True)
    with torch.no_grad():
        out = _call(variant, _make_leaves(variant, q, k, v), {"causal": True}, cu)
    assert out.grad_fn is None and not out.requires_grad
