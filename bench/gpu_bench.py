#!/usr/bin/env python3
"""GPU benchmark: flashattn's CUDA kernels beside torch SDPA's FLASH_ATTENTION (FlashAttention-2)
and CUDNN_ATTENTION backends and FlexAttention (torch.compile), in one run, on the standard shapes
of shared/ANCHORS.md (bf16, batch * seqlen = 16384 tokens, model dim 2048, heads = 2048 / head_dim,
causal and not, forward and backward). CUDA events, warm-up, median of >= 30 runs, the calls queued
behind a gate so that the events time the GPU's work alone (time_ms). Writes
bench/results/<gpu>/<date>-<commit>.json ({header, records}) and one PNG per head_dim.
--rounds N measures everything N times, ours before the peers in even rounds and after them in odd
ones, and records each measurement's median over the rounds (with every round's TFLOP/s): single
runs of one shape move by 5-8% between calls on the H200 (bench/NOTES.md, sessions 13-15).
See bench/GPU.md."""
import argparse
import datetime
import json
import os
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def flops(pass_, batch, heads, sq, sk, d, causal):
    f = 4.0 * batch * sq * sk * heads * d
    if causal:
        f /= 2
    return f * (2.5 if pass_ == "bwd" else 1.0)


def commit_id():
    if os.environ.get("FLASHATTN_COMMIT"):
        return os.environ["FLASHATTN_COMMIT"]
    try:
        return subprocess.check_output(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], text=True).strip()
    except Exception:
        return "unknown"


def run_ours(binary, shapes, iters, warmup, softcap=0.0):
    spec = ";".join(f"{d},{s},{int(c)}" for d, s, c in shapes)
    extra = ["--softcap", str(softcap)] if softcap > 0 else []
    proc = subprocess.run([binary, "--shapes", spec, "--iters", str(iters), "--warmup", str(warmup)] + extra,
                          capture_output=True, text=True)
    sys.stderr.write(proc.stderr)
    recs = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    for r in recs:  # (the binary names a softcap run "flashattn+softcapN"; the table keys on "flashattn")
        r["impl"] = "flashattn"
        if softcap > 0:
            r["softcap"] = softcap
    return recs


def time_ms(fn, iters, warmup):
    """Median GPU time of fn in ms: CUDA events around each call, with the host out of the way. The
    stream is held by a spin kernel (torch.cuda._sleep) while every timed call is queued behind it,
    so each event pair brackets the GPU's work alone, back to back; with a synchronization after
    each call, event a would also count the host's launch path (for SDPA tens of microseconds, a
    third of a 512-token kernel). The spin lasts twice the host time the warm-up calls took."""
    import time
    import torch
    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(warmup):
        fn()
    host_s = (time.perf_counter() - t0) / max(1, warmup)  # per call, queued (an upper bound)
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    torch.cuda._sleep(int(min(2.0, 2.0 * host_s * iters + 1e-3) * 2.0e9))  # cycles (~2 GHz)
    for a, b in events:
        a.record()
        fn()
        b.record()
    torch.cuda.synchronize()
    return statistics.median(a.elapsed_time(b) for a, b in events)


def run_peer(impl, d, seqlen, causal, iters, warmup, tokens, model_dim, softcap=0.0):
    """One peer's forward and backward. With softcap (Gemma 2's scores: softcap * tanh(s / softcap))
    FlexAttention takes it as its score_mod; SDPA's FlashAttention-2 and cuDNN have none (skipped)."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    heads, batch = model_dim // d, max(1, tokens // seqlen)
    shape = (batch, heads, seqlen, d)
    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
    dout = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
    if softcap > 0 and impl != "flex":
        raise ValueError(f"{impl} (torch SDPA) has no softcap")
    if impl in ("fa2", "cudnn"):
        backend = SDPBackend.FLASH_ATTENTION if impl == "fa2" else SDPBackend.CUDNN_ATTENTION

        def fwd():
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    elif impl == "flex":
        import warnings

        import torch._dynamo
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
        # One compile per (shape, causal, grad mode): past dynamo's recompile limit (8) FlexAttention
        # silently ran its unfused fallback, which materializes seqlen^2 scores (session 21's first
        # table: 9-31 TFLOP/s at head_dim 128 from seqlen 2048 on). Raise the limit, and make that
        # fallback an error so that it is never recorded as FlexAttention.
        cfg = torch._dynamo.config
        for names, least in ((("recompile_limit", "cache_size_limit"), 256),
                             (("accumulated_recompile_limit", "accumulated_cache_size_limit"), 4096)):
            name = next((n for n in names if hasattr(cfg, n)), None)  # (older torch: the second name)
            if name is not None:
                setattr(cfg, name, max(getattr(cfg, name), least))
        warnings.filterwarnings("error", message="flex_attention called without torch.compile")
        compiled = run_peer.__dict__.setdefault("flex", torch.compile(flex_attention, dynamic=False))
        mask = None
        if causal:
            mask = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None, seqlen, seqlen, device="cuda")

        score_mod = None
        if softcap > 0:
            def score_mod(score, b, h, qi, ki):
                return softcap * torch.tanh(score / softcap)

        def fwd():
            return compiled(q, k, v, score_mod=score_mod, block_mask=mask)
    else:
        raise ValueError(impl)
    records = []
    with torch.no_grad():
        ms = time_ms(fwd, iters, warmup)
    records.append(("fwd", ms))
    out = fwd()
    ms = time_ms(lambda: torch.autograd.grad(out, (q, k, v), dout, retain_graph=True), iters, warmup)
    records.append(("bwd", ms))
    res = []
    for pass_, ms in records:
        res.append({"impl": impl, "pass": pass_, "dtype": "bf16", "head_dim": d, "seqlen_q": seqlen,
                    "seqlen_k": seqlen, "batch": batch, "heads": heads, "causal": causal, "ms": round(ms, 5),
                    "tflops": round(flops(pass_, batch, heads, seqlen, seqlen, d, causal) / (ms * 1e-3) / 1e12, 2)})
        if softcap > 0:
            res[-1]["softcap"] = softcap
    del q, k, v, dout, out
    torch.cuda.empty_cache()
    return res


def header():
    h = {"gpu": "unknown", "driver": "unknown", "cuda": "unknown", "torch": "none", "commit": commit_id(),
         "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    try:
        import torch
        h["torch"] = torch.__version__
        h["cuda"] = torch.version.cuda
        h["gpu"] = torch.cuda.get_device_name(0)
    except Exception:
        pass
    try:
        h["driver"] = subprocess.check_output(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], text=True).strip().splitlines()[0]
        if h["gpu"] == "unknown":
            h["gpu"] = subprocess.check_output(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                               text=True).strip().splitlines()[0]
    except Exception:
        pass
    return h


def plot(records, outdir, stem):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:
        print(f"no plots: {e}", file=sys.stderr)
        return []
    paths = []
    for d in sorted({r["head_dim"] for r in records}):
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        for ax, pass_ in zip(axes, ("fwd", "bwd")):
            for impl in sorted({r["impl"] for r in records}):
                for causal in (False, True):
                    pts = sorted((r["seqlen_q"], r["tflops"]) for r in records
                                 if r["impl"] == impl and r["pass"] == pass_ and r["head_dim"] == d
                                 and r["causal"] == causal)
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                                linestyle="--" if causal else "-", label=f"{impl}{' causal' if causal else ''}")
            ax.set_xscale("log", base=2)
            ax.set_xlabel("seqlen")
            ax.set_ylabel("TFLOP/s")
            ax.set_title(f"{pass_}, head_dim {d}, bf16")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
        fig.tight_layout()
        path = outdir / f"{stem}-hdim{d}.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        paths.append(path)
    return paths


def merge_rounds(rounds):
    """One record per (impl, pass, shape): the median time over the rounds that measured it, its
    TFLOP/s, and every round's TFLOP/s ("round_tflops") when there was more than one round."""
    if len(rounds) == 1:
        return rounds[0]
    key = lambda r: (r["impl"], r["pass"], r["head_dim"], r["seqlen_q"], r["seqlen_k"], r["batch"], r["heads"],
                     r["causal"], r.get("heads_kv", r["heads"]))
    groups = {}
    for recs in rounds:
        for r in recs:
            groups.setdefault(key(r), []).append(r)
    merged = []
    for rs in groups.values():
        ms = statistics.median(r["ms"] for r in rs)
        rec = dict(rs[0])
        rec["ms"] = round(ms, 5)
        rec["tflops"] = round(rs[0]["tflops"] * rs[0]["ms"] / ms, 2)  # same FLOPs, the median time
        rec["round_tflops"] = [r["tflops"] for r in rs]
        merged.append(rec)
    return merged


def table(records):
    key = lambda r: (r["head_dim"], r["seqlen_q"], r["causal"], r["pass"])
    by, path = {}, {}
    for r in records:
        by.setdefault(key(r), {})[r["impl"]] = r["tflops"]
        if r["impl"] == "flashattn":
            path[key(r)] = r.get("path", "")
    lines = ["hdim seqlen causal pass | ours  fa2  cudnn flex | ours/fa2 ours/cudnn | our path"]
    for k in sorted(by):
        m = by[k]
        ours, fa2, cud, flex = (m.get(x) for x in ("flashattn", "fa2", "cudnn", "flex"))
        f = lambda x: f"{x:5.0f}" if x else "    -"
        ratio = lambda a, b: f"{a / b:8.2f}" if a and b else "       -"
        lines.append(f"{k[0]:4d} {k[1]:6d} {str(k[2]):6s} {k[3]:4s} | {f(ours)} {f(fa2)} {f(cud)} {f(flex)} |"
                     f" {ratio(ours, fa2)} {ratio(ours, cud)} | {path.get(k, '')}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flashattn-bench", default=str(ROOT / "build-gpu" / "bin" / "flashattn_gpu_bench"))
    ap.add_argument("--hdims", default="64,128,256")
    ap.add_argument("--seqlens", default="512,1024,2048,4096,8192,16384")
    ap.add_argument("--causal", default="0,1")
    ap.add_argument("--peers", default="fa2,cudnn,flex", help="comma list; empty for ours only")
    ap.add_argument("--flex-hdims", default="128", help="FlexAttention compiles per shape: limit it")
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=1, help="repeat every measurement; the median over rounds is recorded")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--tokens", type=int, default=16384)
    ap.add_argument("--model-dim", type=int, default=2048)
    ap.add_argument("--softcap", type=float, default=0.0,
                    help="softcap every score (Gemma 2: 30 or 50); the peers then are FlexAttention alone")
    ap.add_argument("--results", default=str(ROOT / "bench" / "results"))
    ap.add_argument("--copy-to", default="", help="also copy the JSON and PNGs here (gpu-check's output)")
    args = ap.parse_args()

    hdims = [int(x) for x in args.hdims.split(",") if x]
    seqlens = [int(x) for x in args.seqlens.split(",") if x]
    causals = [bool(int(x)) for x in args.causal.split(",") if x]
    shapes = [(d, s, c) for d in hdims for s in seqlens for c in causals]
    hdr = header()
    peers = [p for p in args.peers.split(",") if p]
    flex_hdims = {int(x) for x in args.flex_hdims.split(",") if x}
    have_ours = os.path.exists(args.flashattn_bench)
    if not have_ours:
        print(f"no {args.flashattn_bench}: ours not measured", file=sys.stderr)

    def measure_ours():
        return run_ours(args.flashattn_bench, shapes, args.iters, args.warmup, args.softcap) if have_ours else []

    def measure_peers():
        recs = []
        for d, s, c in shapes:
            for impl in peers:
                if impl == "flex" and d not in flex_hdims:
                    continue
                try:
                    recs += run_peer(impl, d, s, c, args.iters, args.warmup, args.tokens, args.model_dim, args.softcap)
                except Exception as e:
                    print(f"{impl} hdim {d} seqlen {s} causal {c}: {type(e).__name__}: {str(e)[:200]}",
                          file=sys.stderr)
        return recs

    rounds = []
    for r in range(max(1, args.rounds)):
        parts = [measure_ours, measure_peers] if r % 2 == 0 else [measure_peers, measure_ours]
        rounds.append([rec for part in parts for rec in part()])
        if args.rounds > 1:
            print(f"round {r + 1} of {args.rounds}: {len(rounds[-1])} records", file=sys.stderr, flush=True)
    records = merge_rounds(rounds)
    gpu_dir = pathlib.Path(args.results) / hdr["gpu"].replace(" ", "_")
    gpu_dir.mkdir(parents=True, exist_ok=True)
    hdr["softcap"] = args.softcap
    stem = f"{hdr['date'][:10]}-{hdr['commit']}" + (f"-softcap{args.softcap:g}" if args.softcap > 0 else "")
    out = gpu_dir / f"{stem}.json"
    out.write_text(json.dumps({"header": hdr, "records": records}, indent=1) + "\n")
    pngs = plot(records, gpu_dir, stem)
    print(table(records))
    print(f"wrote {out} and {len(pngs)} plots")
    if args.copy_to:
        dst = pathlib.Path(args.copy_to)
        dst.mkdir(parents=True, exist_ok=True)
        for p in [out] + pngs:
            (dst / p.name).write_bytes(p.read_bytes())


if __name__ == "__main__":
    main()
