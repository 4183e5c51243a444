#!/usr/bin/env bash
# Session 54 call 3 (warm after call 2, the same machine and build-gpu of 5b986da, whose plain
# kernels are main's code: call 2's A/A): the same-run table with FA2 and cuDNN, 2 rounds.
# (The device's git HEAD read 7fc953d, stale: the JSON's commit field was set to 5b986da here.)
set -u; O=/tmp/r3; rm -rf $O; mkdir -p $O
timeout 150 python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench --peers fa2,cudnn --rounds 2 \
  --results $O/table > $O/table.txt 2>&1; echo rc=$?
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/smi.txt; (cd /tmp && tar czf $OUT/r3.tgz r3)
