#!/usr/bin/env python3
"""TFLOP/s of kernel variants (environment knobs of the sm90 path) beside cuDNN, in one run: the
forward, or with --pass bwd the backward.

Each variant runs build-*/bin/flashattn_gpu_bench with its environment on the same shapes (bf16,
the standard shapes of shared/ANCHORS.md: batch * seqlen = 16384, model dim 2048); cuDNN runs
through torch SDPA's CUDNN_ATTENTION backend in this process (CUDA events, warm-up, median).
Prints one markdown table (TFLOP/s, and each variant's ratio to cuDNN) and writes a JSON.
--rounds N runs the variants N times round-robin (A B C, B C A, ...) and reports each one's median
with its range: on the H200 one shape's TFLOP/s moves by 4-7% between runs of the same binary
(bench/NOTES.md session 13), so an A/B below ~5% needs rounds.

    python3 bench/gpu/sm90_variants.py --bench build-gpu/bin/flashattn_gpu_bench \
        --variants "default:;persistent:FLASHATTN_SM90_PERSISTENT=1" --shapes 128,8192,0;64,2048,1
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gpu_bench import time_ms  # noqa: E402  (CUDA events, warm-up, median)


def run_ours(bench, shapes, env, iters, pass_="fwd", extra=()):
    e = dict(os.environ)
    e.update(env)
    bench = e.pop("BENCH", bench)  # a variant may name another build's binary (old tree beside)
    out = subprocess.run([bench, "--shapes", ";".join(shapes), "--pass", pass_, "--iters", str(iters)] + list(extra),
                         env=e, capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError("flashattn_gpu_bench failed (%s): %s" % (env, out.stderr.strip()[-400:]))
    res = {}
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            key = (r["head_dim"], r["seqlen_q"], int(r["causal"]), r["seqlen_k"], r.get("heads_kv", r["heads"]), r["batch"])
            res[key] = (r["tflops"], r["path"])
    return res


def shape_key(s):
    """HEAD_DIM,SEQLEN,CAUSAL[,SEQLEN_K,GROUP,BATCH] -> the key run_ours files a record under
    (flashattn_gpu_bench's defaults: 2048 / HEAD_DIM heads, batch 16384 / SEQLEN)."""
    f = [int(x) for x in s.split(",")]
    d, n, c = f[:3]
    sk = f[3] if len(f) > 3 and f[3] > 0 else n
    group = f[4] if len(f) > 4 else 1
    batch = f[5] if len(f) > 5 and f[5] > 0 else max(1, 16384 // n)
    return (d, n, c, sk, max(1, (2048 // d) // max(1, group)), batch)


def run_cudnn(shapes, iters, warmup=5, pass_="fwd"):
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    res = {}
    for s in shapes:
        if len(s.split(",")) > 3:
            continue  # cuDNN beside the standard (square, MHA) shapes only
        d, n, c = (int(x) for x in s.split(","))
        h, b = 2048 // d, max(1, 16384 // n)
        q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16, requires_grad=pass_ == "bwd")
                   for _ in range(3))
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            if pass_ == "bwd":  # the backward alone, as bench/gpu_bench.py times it (FLOPs 2.5 x the forward's)
                out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(c))
                dout = torch.randn_like(out)
                ms = time_ms(lambda: torch.autograd.grad(out, (q, k, v), dout, retain_graph=True), iters, warmup)
            else:
                ms = time_ms(lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(c)),
                             iters, warmup)
        flops = 4.0 * b * n * n * h * d / (2 if c else 1) * (2.5 if pass_ == "bwd" else 1.0)
        res[shape_key(s)] = flops / (ms * 1e-3) / 1e12
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", required=True, help="path of flashattn_gpu_bench")
    ap.add_argument("--variants", default="default:",
                    help="NAME:ENV=V,ENV=V;NAME:... (BENCH=path: that variant runs another build's binary)")
    ap.add_argument("--shapes", default="64,2048,0;64,8192,0;128,2048,0;128,8192,0;256,8192,0;128,2048,1;128,16384,1",
                    help="HEAD_DIM,SEQLEN,CAUSAL[,SEQLEN_K,GROUP,BATCH];... (flashattn_gpu_bench's format)")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=1, help="round-robin repeats of every variant (median reported)")
    ap.add_argument("--no-cudnn", action="store_true")
    ap.add_argument("--pass", dest="pass_", choices=("fwd", "bwd"), default="fwd")
    ap.add_argument("--bench-args", default="",
                    help="more flashattn_gpu_bench arguments for every variant (e.g. \"--dropout 0.1\"; "
                         "cuDNN is then left out: its run has no such option)")
    ap.add_argument("--out", default="", help="JSON output path")
    args = ap.parse_args()
    extra = args.bench_args.split()
    if extra:
        args.no_cudnn = True
    shapes = [s for s in args.shapes.split(";") if s]
    variants = []
    for item in args.variants.split(";"):
        name, _, envs = item.partition(":")
        env = dict(kv.split("=", 1) for kv in envs.split(",") if kv)
        variants.append((name, env))
    runs = {name: [] for name, _ in variants}  # name -> one {key: (tflops, path)} a round
    for r in range(max(1, args.rounds)):
        # Each round starts one variant later (A B C, B C A, C A B): the first process of a round
        # runs after the previous round's last, and a fixed order would hand one variant that slot.
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for name, env in order:  # progress as it goes (a run cut short still says something)
            runs[name].append(run_ours(args.bench, shapes, env, args.iters, args.pass_, extra))
            print("%s%s: %s" % (name, " (round %d)" % (r + 1) if args.rounds > 1 else "",
                                ", ".join("%s %.1f" % (",".join(map(str, k)), v[0])
                                          for k, v in sorted(runs[name][-1].items()))), flush=True)

    def spread(name, key):
        """(median, min, max, path) of a variant's TFLOP/s at one shape over its rounds."""
        vals = sorted(run[key][0] for run in runs[name] if key in run)
        if not vals:
            return 0.0, 0.0, 0.0, ""
        path = next(run[key][1] for run in runs[name] if key in run)
        return statistics.median(vals), vals[0], vals[-1], path

    cudnn = {} if args.no_cudnn else run_cudnn(shapes, args.iters, pass_=args.pass_)
    names = [n for n, _ in variants]
    print("| shape (d, seqlen, causal) | " + " | ".join(names) + (" | cuDNN | best / cuDNN" if cudnn else "") + " |")
    print("|---" * (len(names) + 1 + (2 if cudnn else 0)) + "|")
    records = []
    for s in shapes:
        key = shape_key(s)
        stats = [spread(n, key) for n in names]
        vals = [m for m, _, _, _ in stats]
        if args.rounds > 1:
            row = "| %s | " % s + " | ".join("%.1f (%.0f-%.0f)" % (m, lo, hi) for m, lo, hi, _ in stats)
        else:
            row = "| %s | " % s + " | ".join("%.1f" % v for v in vals)
        if cudnn:
            row += " | %.1f | %.2f" % (cudnn[key], max(vals) / cudnn[key]) if key in cudnn else " | - | -"
        print(row + " |")
        for n, (t, _, _, path) in zip(names, stats):
            records.append({"variant": n, "env": dict(variants)[n], "head_dim": key[0], "seqlen": key[1],
                            "causal": bool(key[2]), "seqlen_k": key[3], "heads_kv": key[4], "batch": key[5], "tflops": t, "path": path,
                            "rounds": [run[key][0] for run in runs[n] if key in run]})
        if key in cudnn:
            records.append({"variant": "cudnn", "head_dim": key[0], "seqlen": key[1], "causal": bool(key[2]),
                            "tflops": cudnn[key]})
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"commit": os.environ.get("FLASHATTN_COMMIT", ""), "records": records}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
