#!/usr/bin/env bash
# Session 62 call 1: is the d128 backward's partial last 80-query step worth a tail step?
# Binaries built on the development machine (tiers 64;128, arch 90, main's tree), carried as
# build-carry/bins.tar.xz (flashattn_gpu_bench). The backward at seqlen_q just under, at and just
# over a power of two with seqlen_k, batch and heads fixed (so the grid of key blocks is the same):
# 4080 = 51 x 80, 4096 = 51 x 80 + 16, 4160 = 52 x 80; 2000 / 2048 / 2080; 8160 / 8192 / 8240.
# Variants: main's default (80-query steps) and 64-query steps (FLASHATTN_SM90_BWD_BLOCK_M=64).
# Run as COMMIT=<hash> bash bench/results/session62/call1.sh (timeout_s >= 200).
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r; rm -rf $R; mkdir -p $R
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
export LD_LIBRARY_PATH=/usr/local/cuda/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tar xJf build-carry/bins.tar.xz -C build-carry
B=build-carry
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >$R/smi.txt 2>&1
echo "===== A/B bwd (t=$(t)s)" | tee -a $R/log.txt
timeout 300 python3 bench/gpu/sm90_variants.py --pass bwd --bench $B/flashattn_gpu_bench --rounds 3 \
  --variants "new:;m64:FLASHATTN_SM90_BWD_BLOCK_M=64" \
  --shapes "128,2000,0,2048,1,8;128,2048,0,2048,1,8;128,2080,0,2048,1,8;128,4080,0,4096,1,4;128,4096,0,4096,1,4;128,4160,0,4096,1,4;128,8160,0,8192,1,2;128,8192,0,8192,1,2;128,8240,0,8192,1,2" \
  --out $R/ab.json >$R/ab.txt 2>&1
echo "ab rc=$?" | tee -a $R/log.txt; grep -A20 "^| shape" $R/ab.txt >>$R/log.txt; pk
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
pk
