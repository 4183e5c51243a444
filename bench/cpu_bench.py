#!/usr/bin/env python3
"""CPU benchmark: flashattn against naive materialized attention and PyTorch SDPA, fp32.

The grid follows ANCHORS.md: batch * seqlen = 16384 tokens, model dim 2048 (heads = 2048 /
head_dim), head_dim 64 and 128, seqlen 512 .. 16384, causal and not, forward and backward. Each
measurement (implementation x shape x pass) runs in its own process, so the peak RSS it reports is
its own:
  flashattn   `flashattn bench ... --impl flashattn --json`
  naive       `flashattn bench ... --impl naive --json` (reports "skipped" when its score buffers
              would pass --naive-limit-gib)
  torch-sdpa  bench/torch_cpu_worker.py, run by a Python that has torch
All three use the same thread count. Results go to bench/results/cpu/<date>-<commit>.json (rewritten
after every measurement, so an interrupted run keeps what it measured); a table is printed at the
end. bench/README.md describes the records. Needs only the standard library; torch is needed by the
worker's Python alone (--torch-python).
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
IMPLS = ["flashattn", "naive", "torch-sdpa"]
PASSES = ["fwd", "bwd"]


def int_list(text):
    try:
        return [int(x) for x in text.split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got '{text}'")


def name_list(allowed):
    def parse(text):
        names = [x for x in text.split(",") if x]
        bad = [x for x in names if x not in allowed]
        if bad or not names:
            raise argparse.ArgumentTypeError(f"expected a comma-separated subset of {','.join(allowed)}")
        return names

    return parse


def find_cli():
    candidates = [os.environ.get("FLASHATTN_CLI")]
    candidates += [os.path.join(REPO, d, "bin", "flashattn") for d in ("build", "build-cli")]
    candidates.append(shutil.which("flashattn"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def find_torch_python():
    for c in (os.environ.get("FLASHATTN_BENCH_PYTHON"), "/work/venv-bench/bin/python"):
        if c and os.path.isfile(c):
            return c
    return sys.executable


def run(cmd, timeout):
    """Runs cmd; returns (returncode, stdout, stderr, seconds). returncode None: timed out."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or "", time.monotonic() - start


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git(*args):
    try:
        return subprocess.run(["git", "-C", REPO, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def flops(shape, pass_):
    """FlashAttention's count: 4 * batch * seqlen^2 * heads * head_dim, halved when causal; bwd 2.5x."""
    f = 4.0 * shape["batch"] * shape["seqlen"] ** 2 * shape["heads"] * shape["head_dim"]
    if shape["causal"]:
        f /= 2
    return f * (2.5 if pass_ == "bwd" else 1.0)


def measure(impl, shape, pass_, opts):
    """One measurement in its own process; returns the record."""
    record = {
        "impl": impl, "pass": pass_, "dtype": "float32", "head_dim": shape["head_dim"],
        "seqlen_q": shape["seqlen"], "seqlen_k": shape["seqlen"], "batch": shape["batch"],
        "heads": shape["heads"], "causal": shape["causal"], "threads": opts.threads,
        "status": "ok", "note": None, "ms": None, "ms_min": None, "runs": None, "tflops": None,
        "gflops": None, "peak_rss_bytes": None, "baseline_rss_bytes": None, "scratch_bytes": None,
    }
    common = ["--iters", str(opts.iters), "--warmup", str(opts.warmup)]
    if impl == "torch-sdpa":
        cmd = [opts.torch_python, os.path.join(HERE, "torch_cpu_worker.py"), "--batch", str(shape["batch"]),
               "--heads", str(shape["heads"]), "--seqlen", str(shape["seqlen"]), "--head-dim",
               str(shape["head_dim"]), "--pass", pass_, "--threads", str(opts.threads)] + common
        if shape["causal"]:
            cmd.append("--causal")
    else:
        cmd = [opts.cli, "bench", "--device", "cpu", "--dtype", "fp32", "--batch", str(shape["batch"]),
               "--seqlen", str(shape["seqlen"]), "--heads", str(shape["heads"]), "--head-dim",
               str(shape["head_dim"]), "--threads", str(opts.threads), "--impl", impl, "--json",
               "--naive-limit-gib", str(opts.naive_limit_gib)] + common
        if shape["causal"]:
            cmd.append("--causal")
        if pass_ == "bwd":
            cmd.append("--backward")
    record["command"] = " ".join(cmd)
    if opts.dry_run:
        record["status"] = "dry-run"
        return record

    code, out, err, seconds = run(cmd, opts.timeout)
    record["wall_s"] = round(seconds, 1)
    if code is None:
        record.update(status="error", note=f"timed out after {opts.timeout} s")
        return record
    try:
        result = json.loads(out)
    except json.JSONDecodeError:
        why = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        record.update(status="error", note=f"{why}: {err.strip()[-400:]}")
        return record

    if impl == "torch-sdpa":
        timing = result
        record.update(sdpa_backend=result.get("sdpa_backend"), torch_version=result.get("torch_version"),
                      ru_maxrss_bytes=result.get("ru_maxrss_bytes"))
    else:
        part = result.get("flashattn" if impl == "flashattn" else "naive") or {}
        if not part.get("ran", False):
            record.update(status="skipped", note=part.get("skipped"))
            return record
        timing = part.get(pass_)
        if timing is None:
            record.update(status="error", note="the JSON has no record of this pass")
            return record
        record["scratch_bytes"] = timing.get("scratch_bytes")
        if impl == "naive":
            record["score_buffer_bytes"] = part.get("score_buffer_bytes")
        else:
            record["path"] = part.get("path")
        record["check_ok"] = result.get("ok")
        if code == 3 or not result.get("ok", False):
            record.update(status="check-failed",
                          note="; ".join(f"{c['impl']} {c['what']} ({c.get('scope')})" for c in result.get("checks", [])
                                         if not c.get("ok")))
        elif code != 0:
            record.update(status="error", note=f"exit status {code}: {err.strip()[-400:]}")
    record.update(ms=timing["ms_median"], ms_min=timing["ms_min"], runs=timing["runs"],
                  peak_rss_bytes=timing.get("peak_rss_bytes"), baseline_rss_bytes=timing.get("baseline_rss_bytes"))
    f = flops(shape, pass_)
    record["gflops"] = f / (record["ms"] * 1e-3) / 1e9
    record["tflops"] = record["gflops"] / 1e3
    return record


def fmt_bytes(b):
    if b is None:
        return "-"
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if b >= scale:
            return f"{b / scale:.1f} {unit}" if unit != "GiB" else f"{b / scale:.2f} {unit}"
    return f"{b} B"


def print_table(records, out=sys.stdout):
    by_key = {}
    for r in records:
        key = (r["head_dim"], r["seqlen_q"], r["causal"], r["pass"])
        by_key.setdefault(key, {})[r["impl"]] = r
    width = 29  # one implementation's cell: ms, GFLOP/s, peak RSS, check flag

    def cell(r):
        if r is None:
            return " " * width
        if r["ms"] is not None:
            flag = "!" if r["status"] == "check-failed" else " "
            return f"{r['ms']:9.1f} {r['gflops']:7.1f} {fmt_bytes(r['peak_rss_bytes']):>10}{flag}"
        return f"{r['status']:>{width - 1}} "

    def ratio(row, other):
        a, b = row.get("flashattn"), row.get(other)
        if a and b and a["ms"] and b["ms"]:
            return f"{b['ms'] / a['ms']:.2f}x"
        return "-"

    lead = " " * 23
    print(lead + " | " + " | ".join(f"{name:<{width}}" for name in IMPLS) + " | ours/torch ours/naive", file=out)
    print(f"{'hdim':>4} {'seqlen':>6} {'causal':>6} {'pass':>4} | "
          + " | ".join(f"{'ms':>9} {'GFLOP/s':>7} {'peak RSS':>10} " for _ in IMPLS) + " |", file=out)
    for key in sorted(by_key):
        row = by_key[key]
        hd, s, causal, p = key
        cells = " | ".join(cell(row.get(i)) for i in IMPLS)
        print(f"{hd:>4} {s:>6} {'yes' if causal else 'no':>6} {p:>4} | {cells} | "
              f"{ratio(row, 'torch-sdpa'):>10} {ratio(row, 'naive'):>10}", file=out)
    print("ratios are speed-ups (other ms / flashattn ms): > 1 means flashattn is faster; "
          "! marks a failed reference check", file=out)
    for r in records:
        if r["status"] in ("skipped", "error", "check-failed"):
            print(f"  {r['impl']} {r['pass']} hdim {r['head_dim']} seqlen {r['seqlen_q']} "
                  f"{'causal' if r['causal'] else 'non-causal'}: {r['status']}: {r['note']}", file=out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--head-dims", type=int_list, default=[64, 128])
    parser.add_argument("--seqlens", type=int_list, default=[512, 1024, 2048, 4096, 8192, 16384])
    parser.add_argument("--causal", choices=["both", "yes", "no"], default="both")
    parser.add_argument("--passes", type=name_list(PASSES), default=PASSES, help="fwd,bwd")
    parser.add_argument("--impls", type=name_list(IMPLS), default=IMPLS, help="flashattn,naive,torch-sdpa")
    parser.add_argument("--tokens", type=int, default=16384, help="batch * seqlen (default 16384)")
    parser.add_argument("--model-dim", type=int, default=2048, help="heads * head_dim (default 2048)")
    parser.add_argument("--threads", type=int, default=os.cpu_count(), help="all cores by default")
    parser.add_argument("--iters", type=int, default=0,
                        help="timed runs per measurement; 0 (default) = at least 3 runs and ~3 s, at most 30")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--naive-limit-gib", type=float, default=4.0)
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per measurement")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke test: head_dim 64, seqlen 512 and 1024, 2 timed runs")
    parser.add_argument("--cli", default=find_cli(), help="the flashattn executable")
    parser.add_argument("--torch-python", default=find_torch_python(),
                        help="a Python with torch for the SDPA worker ($FLASHATTN_BENCH_PYTHON)")
    parser.add_argument("--out", help="results file (default bench/results/cpu/<date>-<commit>.json)")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    opts = parser.parse_args()
    if opts.quick:
        opts.head_dims, opts.seqlens = [64], [512, 1024]
        opts.iters = opts.iters or 2
    if opts.threads < 1 or opts.tokens < 1 or opts.iters < 0 or opts.warmup < 0:
        parser.error("--threads and --tokens must be >= 1, --iters and --warmup >= 0")
    if any(opts.model_dim % d for d in opts.head_dims):
        parser.error("every head dim must divide --model-dim")
    if any(opts.tokens % s for s in opts.seqlens):
        parser.error("every seqlen must divide --tokens")
    if any(i != "torch-sdpa" for i in opts.impls) and not opts.cli:
        parser.error("flashattn executable not found: build it (cmake --build build) or pass --cli")

    torch_version = None
    if "torch-sdpa" in opts.impls and not opts.dry_run:
        code, out, err, _ = run([opts.torch_python, "-c", "import torch; print(torch.__version__)"], 300)
        if code != 0:
            parser.error(f"{opts.torch_python} cannot import torch (pass --torch-python, or --impls without "
                         f"torch-sdpa): {err.strip()[-300:]}")
        torch_version = out.strip()

    version = None
    if opts.cli and not opts.dry_run:
        code, out, _, _ = run([opts.cli, "version"], 60)
        version = out.splitlines()[0] if code == 0 and out else None
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    now = datetime.datetime.now(datetime.timezone.utc)
    header = {
        "machine": platform.node(), "platform": platform.platform(), "cpu_model": cpu_model(),
        "cores": os.cpu_count(), "threads": opts.threads, "torch_version": torch_version,
        "torch_python": opts.torch_python if "torch-sdpa" in opts.impls else None,
        "flashattn_version": version, "cli": opts.cli, "commit": commit,
        "worktree_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
        "date": now.isoformat(timespec="seconds"), "tokens": opts.tokens, "model_dim": opts.model_dim,
        "iters": opts.iters, "warmup": opts.warmup, "naive_limit_gib": opts.naive_limit_gib,
        "argv": sys.argv[1:],
    }
    out_path = opts.out or os.path.join(HERE, "results", "cpu", f"{now.strftime('%Y-%m-%dT%H%M')}-{commit}.json")

    shapes = []
    for hd in opts.head_dims:
        for s in opts.seqlens:
            for causal in {"both": [False, True], "yes": [True], "no": [False]}[opts.causal]:
                shapes.append({"head_dim": hd, "seqlen": s, "batch": opts.tokens // s,
                               "heads": opts.model_dim // hd, "causal": causal})
    plan = [(impl, shape, p) for shape in shapes for p in opts.passes for impl in opts.impls]

    records = []
    for n, (impl, shape, p) in enumerate(plan, 1):
        label = (f"[{n}/{len(plan)}] {impl} {p} hdim {shape['head_dim']} seqlen {shape['seqlen']} "
                 f"batch {shape['batch']} heads {shape['heads']} {'causal' if shape['causal'] else 'non-causal'}")
        print(label, end="", flush=True, file=sys.stderr)
        record = measure(impl, shape, p, opts)
        records.append(record)
        if opts.dry_run:
            print(f"\n  {record['command']}", file=sys.stderr)
            continue
        result = f"{record['ms']:.1f} ms, {record['gflops']:.1f} GFLOP/s" if record["ms"] else record["status"]
        print(f": {result} ({record.get('wall_s', 0)} s)", file=sys.stderr)
        os.makedirs(os.path.dirname(out_path), exist_ok=True)
        with open(out_path, "w") as f:
            json.dump({"header": header, "records": records}, f, indent=1)
            f.write("\n")

    if opts.dry_run:
        return 0
    print()
    print_table(records)
    print(f"\nresults: {out_path}")
    return 1 if any(r["status"] in ("error", "check-failed") for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
