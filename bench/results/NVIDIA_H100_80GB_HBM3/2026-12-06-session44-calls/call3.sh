#!/usr/bin/env bash
# Session 44 call 3 (warm after call 2, build-gpu at 55001a3, tiers 64;128;256): the same-run
# table with FA2 and cuDNN, 2 rounds.
export FLASHATTN_COMMIT=55001a3
mkdir -p $OUT/table && timeout 400 python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
  --peers fa2,cudnn --rounds 2 --results $OUT/table > $OUT/table.txt 2>&1
