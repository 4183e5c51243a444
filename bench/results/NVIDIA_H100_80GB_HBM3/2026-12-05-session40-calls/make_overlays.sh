#!/usr/bin/env bash
# Session 40's overlay for call5.sh (run from the repository root; _ab40 is in .git/info/exclude):
#   _ab40/scaleout/{bwd_kernel.h,bwd_launch.h}  branch s40-scaleout (7704d6c): softmax's scale out of
#   dS at 80-query steps too (bwd90_scale_out), dK and dQ scaled at the end as the kLag kernels do.
set -euo pipefail
S=src/cuda/sm90
rm -rf _ab40 && mkdir -p _ab40/scaleout
for f in bwd_kernel.h bwd_launch.h; do git show s40-scaleout:$S/$f >_ab40/scaleout/$f; done
for f in bwd_kernel.h bwd_launch.h; do echo "== $f"; ! diff $S/$f _ab40/scaleout/$f || { echo "overlay $f: no change"; exit 1; }; done
