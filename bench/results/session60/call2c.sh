#!/usr/bin/env bash
# Session 60 call 2c (the last ~60 s of device time): the tree's binaries built on the development
# machine (tiers 64;128, b057cbe's kernels; carry build-carry/bins.tar.xz): the deferred epilogue's
# same-bytes test and the option tests, then never / every tile / the default (6) in one binary.
# Not run in session 60 (no machine started); the tree: main + defer-min-blocks.patch.
set -u
R=$OUT/r; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tar xJf build-carry/bins.tar.xz -C build-carry
nvidia-smi --query-gpu=name,driver_version --format=csv >$R/smi.txt 2>&1
timeout 40 build-carry/flashattn_cuda_tests --gtest_filter='Sm90.DeferredEpilogueSameBytes:Sm90.Options*:Sm90.StreamKTail' >$R/tests.txt 2>&1
echo "tests rc=$?" >>$R/tests.txt
timeout 45 python3 bench/gpu/sm90_variants.py --bench build-carry/flashattn_gpu_bench --no-cudnn --rounds 1 \
  --variants "never:FLASHATTN_SM90_DEFER_MIN=100000;every:FLASHATTN_SM90_DEFER_MIN=0;new:" \
  --shapes "128,1024,0;128,2048,0;128,4096,0;128,512,1;128,1024,1;128,4096,1;64,512,1;64,2048,0" \
  --out $R/ab.json >$R/ab.txt 2>&1
echo "ab rc=$?" >>$R/ab.txt
