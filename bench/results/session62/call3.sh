#!/usr/bin/env bash
# Session 62 call 3: what the forward's K/V bytes from L2 cost (is a 2-CTA cluster with K/V
# multicast worth building?). Carried binaries (build-carry/bins.tar.xz, tiers 64;128, arch 90):
# flashattn_gpu_bench (main's kernels: the tree's default build is main's SASS), and two
# measurement builds of the bf16 head_dim 128 forward unit (-DFLASHATTN_SM90_MEASURE_KV_LOADS, wrong
# results): _kv2 loads every K and V tile twice, _kv0 skips every other stage use's load after the
# ring's first round (half the K/V bytes). A/B medians (3 rounds) and sustained TFLOP/s and TFLOP/J
# (bench/gpu/energy.py, 3 s a measurement).
# Run as COMMIT=<hash> bash bench/results/session62/call3.sh (timeout_s >= 360).
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
SH="128,2048,0;128,8192,0;128,16384,0;128,16384,1"
V="kv2:BENCH=/tmp/bins/flashattn_gpu_bench_kv2;kv0:BENCH=/tmp/bins/flashattn_gpu_bench_kv0"
BINS=build-carry/bins.tar.xz TESTS= AB=1 ROUNDS=3 SHAPES="$SH" VARIANTS="$V" BUDGET=200 bash bench/gpu/device_call.sh
R=/tmp/r
echo "===== energy (sustained)" | tee -a $R/log.txt
timeout 200 python3 bench/gpu/energy.py --bench /tmp/bins/flashattn_gpu_bench --sustain 3 --shapes "$SH" \
  --variants "new:;$V" --out $R/energy.json >$R/energy.txt 2>&1
echo "energy rc=$?" | tee -a $R/log.txt
cat $R/energy.txt >>$R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
tail -40 $R/log.txt
