#!/usr/bin/env python3
"""SM clock and power while a backward (or forward) runs: ours (flashattn_gpu_bench) and cuDNN
(torch SDPA's CUDNN_ATTENTION) on one standard shape, each timed over a short run (the tables'
30 calls) and a long one (--long calls, about a second), with nvidia-smi sampling the clock, the
power and the clock-event reasons every 10 ms in the background. Tells whether a kernel runs
power-limited (its clock falling under load, the long run slower than the short one) and at
which clock ours and cuDNN's run: a question the tables' TFLOP/s alone cannot answer.

    python3 bench/gpu/clock_probe.py --bench build-gpu/bin/flashattn_gpu_bench --shape 128,8192,0 --pass bwd
"""
import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gpu_bench import flops, time_ms  # noqa: E402


class Sampler:
    """nvidia-smi every 10 ms in the background: (host time, SM MHz, W, reasons) rows."""

    def __init__(self):
        self.rows, self.proc = [], None

    def __enter__(self):
        self.proc = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=clocks.sm,power.draw,clocks_event_reasons.active",
             "--format=csv,noheader,nounits", "-lms", "10"],
            stdout=subprocess.PIPE, text=True)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        time.sleep(0.3)
        return self

    def _read(self):
        for line in self.proc.stdout:
            parts = [p.strip() for p in line.split(",")]
            try:
                self.rows.append((time.perf_counter(), float(parts[0]), float(parts[1]), parts[2]))
            except (ValueError, IndexError):
                pass

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()

    def window(self, t0, t1):
        """Summary of the busy samples in [t0, t1] (host clock; the process's start and the
        timing gate's spin draw under 250 W)."""
        w = [r for r in self.rows if t0 <= r[0] <= t1 and r[2] > 250.0]  # busy: above 250 W
        if not w:
            return "no busy samples"
        mhz, watt = [r[1] for r in w], [r[2] for r in w]
        reasons = sorted({r[3] for r in w})
        return ("%d samples: SM MHz median %.0f (min %.0f, max %.0f), W median %.0f (max %.0f), reasons %s"
                % (len(w), statistics.median(mhz), min(mhz), max(mhz), statistics.median(watt), max(watt),
                   " ".join(reasons)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--shape", default="128,8192,0", help="head_dim,seqlen,causal")
    ap.add_argument("--pass", dest="pass_", choices=("fwd", "bwd"), default="bwd")
    ap.add_argument("--long", type=int, default=200, help="calls of the long run")
    ap.add_argument("--tokens", type=int, default=16384)
    ap.add_argument("--model-dim", type=int, default=2048)
    args = ap.parse_args()
    d, seqlen, causal = (int(x) for x in args.shape.split(","))
    heads, batch = args.model_dim // d, args.tokens // seqlen
    fl = flops(args.pass_, batch, heads, seqlen, seqlen, d, bool(causal))
    with Sampler() as s:
        for iters in (30, args.long):
            t0 = time.perf_counter()
            out = subprocess.run([args.bench, "--shapes", args.shape, "--pass", args.pass_, "--iters", str(iters),
                                  "--tokens", str(args.tokens), "--model-dim", str(args.model_dim)],
                                 capture_output=True, text=True, timeout=300)
            t1 = time.perf_counter()
            ms = [float(x.split('"ms":')[1].split(",")[0]) for x in out.stdout.splitlines() if '"ms":' in x]
            tf = fl / (ms[-1] * 1e-3) / 1e12 if ms else float("nan")
            print("ours  %4d calls: %.3f ms, %.0f TFLOP/s | %s" % (iters, ms[-1] if ms else -1, tf, s.window(t0, t1)),
                  flush=True)
            time.sleep(1.0)
        import torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
        shape = (batch, heads, seqlen, d)
        q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
        dout = torch.randn(shape, device="cuda", dtype=torch.bfloat16)

        def fwd():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
        out = fwd()
        call = fwd if args.pass_ == "fwd" else lambda: torch.autograd.grad(out, (q, k, v), dout, retain_graph=True)
        for iters in (30, args.long):
            t0 = time.perf_counter()
            if args.pass_ == "fwd":
                with torch.no_grad():
                    ms = time_ms(call, iters, 5)
            else:
                ms = time_ms(call, iters, 5)
            t1 = time.perf_counter()
            print("cudnn %4d calls: %.3f ms, %.0f TFLOP/s | %s" % (iters, ms, fl / (ms * 1e-3) / 1e12, s.window(t0, t1)),
                  flush=True)
            time.sleep(1.0)


if __name__ == "__main__":
    main()
