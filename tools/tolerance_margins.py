#!/usr/bin/env python3
"""tools/tolerance_margins.py [SEEDS]: the tolerance rule's margin (err / tol, shared/STYLE.md) of
every padded and varlen case of tests/python/test_functions.py over SEEDS seeds (default 8), on
CUDA (bf16, fp16) and the CPU backend (bf16), sorted by the largest: where a case sits near 1, a
new seed or a changed rounding can tip it. Needs the installed package (run it from outside the
source tree, as gpu-check's python stage runs pytest); prints one line per (case, output)."""
import os, sys, collections
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "python"))
import torch
import conftest
import test_functions as tf

rec = []
def assert_close(name, ours, ref, low, dtype, extra=0.0):
    assert not torch.isnan(ours).any()
    err = (ours.double() - ref).abs().max().item() if ref.numel() else 0.0
    tol = conftest.tolerance(ref, low, dtype) + extra  # extra: the backward's D allowance (conftest)
    rec.append((name, err, tol, (low.double() - ref).abs().max().item() if ref.numel() else 0.0))
tf.assert_close = assert_close
seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
rows = collections.defaultdict(list)
for fn, cases in ((tf.test_padded, tf.PADDED), (tf.test_varlen, tf.VARLEN)):
    variants = ["func"] if fn is tf.test_padded else ["varlen_func"]
    for dev, dts in (("cuda", (torch.bfloat16, torch.float16)), ("cpu", (torch.bfloat16,))):
        for dt in dts:
            for case in cases:
                for seed in range(seeds):
                    rec.clear()
                    torch.manual_seed(seed)
                    try:
                        fn(dev, dt, variants[0], case)
                    except Exception as e:  # noqa
                        print("error", dev, dt, case[0], seed, repr(e)[:200]); continue
                    for i, (name, err, tol, low) in enumerate(rec):
                        rows[(fn.__name__, dev, str(dt)[6:], case[0], i, name)].append((err / tol if tol else 0.0, err, low, seed))
print("test device dtype case leaf | max err/tol (seed) | mean | err, low at max | seeds over 1")
for k, v in sorted(rows.items(), key=lambda kv: -max(x[0] for x in kv[1])):
    m = max(v)
    print(k, "| %.3f (seed %d) | %.3f | %.3g, %.3g | %d" % (m[0], m[3], sum(x[0] for x in v) / len(v), m[1], m[2], sum(x[0] > 1 for x in v)))
