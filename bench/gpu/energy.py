#!/usr/bin/env python3
"""Sustained speed and energy a FLOP: ours (variants: environment knobs, as bench/gpu/sm90_variants.py)
beside cuDNN, each call run back to back for --sustain seconds with the GPU's energy counter (NVML)
read before and after.

Why: on long shapes the power cap sets the clocks, so the median of a few dozen calls (the
benchmark's figure) depends on when in the controller's cycle it was taken (session 58: the 16k
cells' rounds spread 654-732 TFLOP/s for one binary, the 8k ones 727-729), and what decides a
power-limited cell is the energy a FLOP. Prints one markdown table: sustained TFLOP/s, TFLOP per
joule (= TFLOP/s per watt) and watts for each variant and cuDNN, and writes a JSON.

    python3 bench/gpu/energy.py --bench build-gpu/bin/flashattn_gpu_bench \\
        --variants "new:;skip:FLASHATTN_SM90_SKIP_RESCALE=1" --shapes "128,8192,0;128,16384,0" --pass fwd
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sm90_variants import shape_key  # noqa: E402  (HEAD_DIM,SEQLEN,CAUSAL[,SEQLEN_K,GROUP,BATCH] -> record key)


class Energy:
    """The GPU's total energy counter in joules (NVML through ctypes; None where unavailable)."""

    def __init__(self):
        self.get = None
        try:
            nvml = ctypes.CDLL("libnvidia-ml.so.1")
            handle = ctypes.c_void_p()
            # (device 0: the device machine has one GPU, which torch's device 0 is too)
            if nvml.nvmlInit_v2() == 0 and nvml.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(handle)) == 0:
                self.nvml, self.handle = nvml, handle
                self.get = nvml.nvmlDeviceGetTotalEnergyConsumption
        except OSError:
            pass

    def joules(self):
        if self.get is None:
            return None
        mj = ctypes.c_ulonglong()
        return mj.value * 1e-3 if self.get(self.handle, ctypes.byref(mj)) == 0 else None


def sustain(fn, seconds, energy):
    """(mean ms a call, joules a call or None) of fn back to back for about `seconds`."""
    import torch
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    ms_each = max((time.perf_counter() - t0) * 1e3, 1e-3)
    batch = max(1, int(200.0 / ms_each))
    batches = max(1, round(seconds * 1e3 / (batch * ms_each)))
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0 = energy.joules()
    a.record()
    for k in range(batches):
        for _ in range(batch):
            fn()
        if k + 1 < batches:
            torch.cuda.synchronize()
    b.record()
    b.synchronize()
    e1 = energy.joules()
    calls = batch * batches
    return a.elapsed_time(b) / calls, (e1 - e0) / calls if e0 is not None and e1 is not None else None


def run_cudnn(shape, pass_, seconds, energy):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    d, n, c, sk, heads_kv, batch = shape_key(shape)
    if sk != n or heads_kv != 2048 // d:
        return None  # cuDNN beside the square MHA shapes only
    h = 2048 // d
    q, k, v = (torch.randn(batch, h, n, d, device="cuda", dtype=torch.bfloat16, requires_grad=pass_ == "bwd")
               for _ in range(3))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        if pass_ == "bwd":
            out = F.scaled_dot_product_attention(q, k, v, is_causal=bool(c))
            dout = torch.randn_like(out)
            return sustain(lambda: torch.autograd.grad(out, (q, k, v), dout, retain_graph=True), seconds, energy)
        with torch.no_grad():
            return sustain(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=bool(c)), seconds, energy)


def flops(shape, pass_):
    d, n, c, sk, _, batch = shape_key(shape)
    h = 2048 // d
    pairs = n * sk / 2 if c and n == sk else n * sk if not c else sum(max(0, min(sk, i + sk - n + 1)) for i in range(n))
    return 4.0 * batch * pairs * h * d * (2.5 if pass_ == "bwd" else 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", required=True, help="path of flashattn_gpu_bench")
    ap.add_argument("--variants", default="new:", help="name:ENV=V,ENV=V;... (as sm90_variants.py)")
    ap.add_argument("--shapes", default="128,8192,0;128,16384,0")
    ap.add_argument("--pass", dest="pass_", choices=("fwd", "bwd"), default="fwd")
    ap.add_argument("--sustain", type=float, default=2.0, help="seconds of back-to-back calls a measurement")
    ap.add_argument("--no-cudnn", action="store_true")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    shapes = [s for s in args.shapes.split(";") if s]
    results = {}  # (variant, shape) -> (sustained_tflops, tflop_per_joule, watts)
    names = []
    for item in args.variants.split(";"):
        name, _, envs = item.partition(":")
        names.append(name)
        env = dict(os.environ)
        env.update(dict(kv.split("=", 1) for kv in envs.split(",") if kv))
        out = subprocess.run([env.pop("BENCH", args.bench), "--shapes", ";".join(shapes), "--pass", args.pass_,
                              "--iters", "10", "--sustain", str(args.sustain)], env=env, capture_output=True,
                             text=True, timeout=600)
        if out.returncode != 0:
            sys.exit("flashattn_gpu_bench failed (%s): %s" % (name, out.stderr[-400:]))
        recs = [json.loads(x) for x in out.stdout.splitlines() if x.startswith("{")]
        for s in shapes:
            key = shape_key(s)
            for r in recs:
                if (r["head_dim"], r["seqlen_q"], int(r["causal"]), r["seqlen_k"], r["heads_kv"], r["batch"]) == key \
                        and r["pass"] == args.pass_:
                    j = r.get("joules", -1)
                    f = flops(s, args.pass_)
                    results[(name, s)] = (r["sustained_tflops"], f / j / 1e12 if j > 0 else None, r.get("watts"))
        print("%s: %s" % (name, ", ".join("%s %.1f" % (s, results[(name, s)][0]) for s in shapes
                                         if (name, s) in results)), flush=True)
    if not args.no_cudnn:
        energy = Energy()
        names.append("cuDNN")
        for s in shapes:
            r = run_cudnn(s, args.pass_, args.sustain, energy)
            if r is not None:
                ms, j = r
                f = flops(s, args.pass_)
                results[("cuDNN", s)] = (f / (ms * 1e-3) / 1e12, f / j / 1e12 if j else None,
                                         j / (ms * 1e-3) if j else None)
    fmt = lambda v: "-" if v is None else "%.1f" % v  # noqa: E731
    print("| shape (d, seqlen, causal) %s | " % args.pass_ + " | ".join(
        "%s TFLOP/s | %s TFLOP/J | %s W" % (n, n, n) for n in names) + " |")
    print("|---" * (1 + 3 * len(names)) + "|")
    for s in shapes:
        row = []
        for n in names:
            t, e, w = results.get((n, s), (None, None, None))
            row += [fmt(t), "-" if e is None else "%.3f" % e, fmt(w)]
        print("| %s | %s |" % (s, " | ".join(row)))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"pass": args.pass_, "sustain_s": args.sustain, "records": [
                {"variant": n, "shape": s, "sustained_tflops": v[0], "tflop_per_joule": v[1], "watts": v[2]}
                for (n, s), v in results.items()]}, f, indent=1)


if __name__ == "__main__":
    main()
