#!/usr/bin/env bash
# Session 58 call 7 (H200): sustained speed and energy at issue 4's and 5's cells, ours beside cuDNN.
set -u
R=$OUT/r; mkdir -p $R
B=_h200/flashattn_gpu_bench
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv; nvidia-smi -q -d POWER | grep -i limit; } >$R/smi.txt 2>&1
timeout 150 python3 bench/gpu/energy.py --bench $B --pass fwd --sustain 1.5 --variants "new:" \
  --shapes "128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,16384,1;256,2048,0;256,8192,0;256,16384,0" \
  --out $R/energy-fwd.json >$R/energy-fwd.txt 2>&1
echo "fwd rc=$?"; grep -A10 "^| shape" $R/energy-fwd.txt
timeout 80 python3 bench/gpu/energy.py --bench $B --pass bwd --sustain 1.5 --variants "new:" \
  --shapes "128,4096,0;128,8192,0;128,16384,0" --out $R/energy-bwd.json >$R/energy-bwd.txt 2>&1
echo "bwd rc=$?"; grep -A6 "^| shape" $R/energy-bwd.txt
cat $R/smi.txt
