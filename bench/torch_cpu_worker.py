#!/usr/bin/env python3
"""Times PyTorch's scaled_dot_product_attention on the CPU for one shape and one pass.

Run by bench/cpu_bench.py, one process per measurement, so that the peak RSS it reports belongs to
this measurement alone. Inputs are fp32 in SDPA's (batch, heads, seqlen, head_dim) layout. The
forward pass is timed under no_grad; the backward pass times out.backward(dout) only, each run after
an untimed forward that builds the graph. The run count follows flashattn bench: `--warmup` untimed
runs, then `--iters` timed runs, or with --iters 0 at least 3 runs and about 3 s (at most 30).
Peak RSS is measured like flashattn bench does: the peak is reset (/proc/self/clear_refs) after the
inputs exist and before the first run, then read from VmHWM; ru_maxrss (the whole process, torch's
import included) is reported beside it. Prints one JSON object on stdout.
"""

import argparse
import json
import resource
import statistics
import sys
import time

AUTO_MIN_RUNS = 3
AUTO_MAX_RUNS = 30
AUTO_SECONDS = 3.0


def vm_kib(field):
    """A 'Name: N kB' field of /proc/self/status in bytes, or None."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def reset_peak_rss():
    """Lowers VmHWM to the current RSS (Linux >= 4.0); False where the kernel refuses."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--heads", type=int, required=True)
    parser.add_argument("--seqlen", type=int, required=True)
    parser.add_argument("--head-dim", type=int, required=True)
    parser.add_argument("--causal", action="store_true")
    parser.add_argument("--pass", dest="pass_", choices=["fwd", "bwd"], required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--iters", type=int, default=0)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    shape = (args.batch, args.heads, args.seqlen, args.head_dim)
    backward = args.pass_ == "bwd"
    q = torch.randn(shape, dtype=torch.float32, requires_grad=backward)
    k = torch.randn(shape, dtype=torch.float32, requires_grad=backward)
    v = torch.randn(shape, dtype=torch.float32, requires_grad=backward)
    dout = torch.randn(shape, dtype=torch.float32) if backward else None

    try:
        from torch.nn.attention import SDPBackend

        choice = int(torch._fused_sdp_choice(q, k, v, None, 0.0, args.causal))
        names = {int(member): name for name, member in SDPBackend.__members__.items()}
        sdpa_backend = names.get(choice, str(choice))
    except (ImportError, AttributeError, RuntimeError):
        sdpa_backend = "unknown"

    def run_forward():
        with torch.no_grad():
            F.scaled_dot_product_attention(q, k, v, is_causal=args.causal)

    def run_backward():
        for t in (q, k, v):
            t.grad = None
        out = F.scaled_dot_product_attention(q, k, v, is_causal=args.causal)
        start = time.perf_counter()
        out.backward(dout)
        return time.perf_counter() - start

    def timed():
        if backward:
            return run_backward()
        start = time.perf_counter()
        run_forward()
        return time.perf_counter() - start

    baseline_rss = vm_kib("VmRSS")
    rss_reset = reset_peak_rss()
    for _ in range(args.warmup):
        timed()
    seconds = []
    while True:
        n = len(seconds)
        if args.iters > 0:
            if n >= args.iters:
                break
        elif n >= AUTO_MAX_RUNS or (n >= AUTO_MIN_RUNS and sum(seconds) >= AUTO_SECONDS):
            break
        seconds.append(timed())

    ms = [s * 1e3 for s in seconds]
    # ru_maxrss is in KiB on Linux: the peak of this whole process (import, inputs, all runs).
    ru_maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    peak = vm_kib("VmHWM") if rss_reset else None
    json.dump(
        {
            "impl": "torch-sdpa",
            "pass": args.pass_,
            "ms_median": statistics.median(ms),
            "ms_min": min(ms),
            "ms": ms,
            "runs": len(ms),
            "peak_rss_bytes": peak if peak is not None else ru_maxrss,
            "rss_reset": rss_reset and peak is not None,
            "ru_maxrss_bytes": ru_maxrss,
            "baseline_rss_bytes": baseline_rss,
            "sdpa_backend": sdpa_backend,
            "torch_version": torch.__version__,
            "threads": torch.get_num_threads(),
        },
        sys.stdout,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
