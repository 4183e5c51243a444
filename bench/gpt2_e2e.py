#!/usr/bin/env python3
"""End-to-end GPT-2 training throughput: transformers' GPT-2 small (124M parameters, random weights,
synthetic tokens) with eager attention, torch SDPA and flashattn (registered through transformers'
attention interface, flashattn.hf), bf16 autocast, fused AdamW. The FlashAttention paper's headline
(GPT-2 training ~3x faster than the HuggingFace implementation), measured on this machine.

Each (implementation, seqlen) runs in its own process, so peak memory is its own. Default configs:
seqlen 1024 at batch 16 and seqlen 4096 at batch 4. Writes bench/results/<GPU>/<date>-<commit>-gpt2_e2e.json
and prints tokens/s, ratios to eager and SDPA, and peak memory.

    python3 bench/gpt2_e2e.py                                    # the full run (GPU, ~10 minutes)
    python3 bench/gpt2_e2e.py --impls sdpa,flashattn --configs 1024x16 --steps 10
    python3 bench/gpt2_e2e.py --device cpu --tiny --steps 1 --warmup 1 --no-write   # smoke test
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMPLS = ("eager", "sdpa", "flashattn")


def worker(args):
    import torch
    import transformers

    import flashattn.hf

    impl = {"flashattn": flashattn.hf.register()}.get(args.impl, args.impl)
    seqlen, batch = args.seqlen, args.batch
    device = torch.device(args.device)
    if args.tiny:
        config = transformers.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=512, n_positions=seqlen)
    else:  # GPT-2 small: 124M parameters (n_positions raised to the longest sequence)
        config = transformers.GPT2Config(n_positions=max(1024, seqlen))
    if args.no_dropout:
        config.attn_pdrop = config.resid_pdrop = config.embd_pdrop = 0.0
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel._from_config(config, attn_implementation=impl).to(device)
    model.train()
    params = sum(p.numel() for p in model.parameters())
    fused = device.type == "cuda"
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=fused)
    tokens = torch.randint(0, config.vocab_size, (batch, seqlen), device=device)
    autocast_dtype = torch.bfloat16

    def step():
        with torch.autocast(device.type, dtype=autocast_dtype):
            loss = model(tokens, labels=tokens).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss

    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize()

    for _ in range(args.warmup):
        loss = step()
    sync()
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats()
    times = []
    for _ in range(args.steps):
        t0 = time.perf_counter()
        loss = step()
        sync()
        times.append(time.perf_counter() - t0)
    times.sort()
    median = times[len(times) // 2]
    rec = {
        "impl": args.impl,
        "attn_implementation": impl,
        "seqlen": seqlen,
        "batch": batch,
        "params": params,
        "steps": args.steps,
        "step_s_median": median,
        "step_s_min": times[0],
        "tokens_per_s": batch * seqlen / median,
        "peak_mem_gib": torch.cuda.max_memory_allocated() / 2**30 if device.type == "cuda" else None,
        "final_loss": float(loss),
        "dropout": not args.no_dropout,
    }
    print("RESULT " + json.dumps(rec), flush=True)


def run_one(args, impl, seqlen, batch):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--impl", impl, "--seqlen", str(seqlen),
           "--batch", str(batch), "--steps", str(args.steps), "--warmup", str(args.warmup), "--device", args.device]
    cmd += ["--tiny"] if args.tiny else []
    cmd += ["--no-dropout"] if args.no_dropout else []
    proc = subprocess.run(cmd, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
    oom = "out of memory" in proc.stderr.lower()
    return {"impl": impl, "seqlen": seqlen, "batch": batch, "error": "out of memory" if oom else " | ".join(tail)}


def git_commit():
    """FLASHATTN_COMMIT when set (a copied tree's git metadata can be stale), else git's HEAD."""
    if os.environ.get("FLASHATTN_COMMIT"):
        return os.environ["FLASHATTN_COMMIT"]
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip() or "nogit"
    except OSError:
        return "nogit"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impls", default=",".join(IMPLS), help="comma list of %s" % ", ".join(IMPLS))
    ap.add_argument("--configs", default="1024x16,4096x4", help="comma list of SEQLENxBATCH")
    ap.add_argument("--steps", type=int, default=20, help="timed training steps (median reported)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--tiny", action="store_true", help="a 2-layer model (smoke test)")
    ap.add_argument("--no-dropout", action="store_true", help="dropout 0 everywhere (default: GPT2Config's 0.1)")
    ap.add_argument("--out", default=None, help="result JSON path (default bench/results/<GPU>/<date>-<commit>-gpt2_e2e.json)")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--impl", help=argparse.SUPPRESS)
    ap.add_argument("--seqlen", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--batch", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)

    import torch

    configs = [tuple(int(x) for x in c.split("x")) for c in args.configs.split(",")]
    impls = args.impls.split(",")
    records = []
    for seqlen, batch in configs:
        for impl in impls:
            rec = run_one(args, impl, seqlen, batch)
            records.append(rec)
            if "error" in rec:
                print("%-10s seqlen %5d batch %3d: FAILED %s" % (impl, seqlen, batch, rec["error"]), flush=True)
            else:
                mem = "%.1f GiB" % rec["peak_mem_gib"] if rec["peak_mem_gib"] is not None else "-"
                print("%-10s seqlen %5d batch %3d: %10.0f tokens/s  step %.1f ms  peak %s" % (
                    impl, seqlen, batch, rec["tokens_per_s"], rec["step_s_median"] * 1e3, mem), flush=True)
    by = {(r["impl"], r["seqlen"]): r for r in records if "error" not in r}
    ratios = {}
    print("\nratios (tokens/s):")
    for seqlen, _ in configs:
        ours = by.get(("flashattn", seqlen))
        for base in ("eager", "sdpa"):
            other = by.get((base, seqlen))
            if ours and other:
                ratios["flashattn/%s@%d" % (base, seqlen)] = ours["tokens_per_s"] / other["tokens_per_s"]
                print("  seqlen %5d: flashattn / %-5s = %.2fx" % (seqlen, base, ratios["flashattn/%s@%d" % (base, seqlen)]))
    gpu = torch.cuda.get_device_name() if args.device == "cuda" and torch.cuda.is_available() else "cpu"
    result = {
        "benchmark": "gpt2_e2e",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "device": gpu,
        "torch": torch.__version__,
        "transformers": __import__("transformers").__version__,
        "setup": {"model": "tiny GPT-2" if args.tiny else "GPT-2 small (transformers GPT2LMHeadModel)",
                  "autocast": "bfloat16", "optimizer": "AdamW fused" if args.device == "cuda" else "AdamW",
                  "steps": args.steps, "warmup": args.warmup, "dropout": not args.no_dropout},
        "records": records,
        "ratios": ratios,
    }
    if not args.no_write:
        out = args.out or os.path.join(ROOT, "bench", "results", gpu.replace(" ", "_"),
                                       "%s-%s-gpt2_e2e.json" % (datetime.date.today().isoformat(), git_commit()))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            json.dump(result, f, indent=2)
        print("wrote", out)


if __name__ == "__main__":
    main()
