#!/usr/bin/env bash
# Session 66's device call (bench/NOTES.md "Session 66"): binaries of 37b1b2f (main 725c097 + the
# partial-pairs patch + windows in the cluster), packed here (bench/gpu/pack_bins.sh; carry
# build-carry). On the device: COMMIT=<hash> bash bench/results/session66/call1.sh (timeout 600).
# 1. The forward's tests (ClusterSameBytes with partial last tiles and windows) and compute-sanitizer
#    (partial tiles; windows with rank 1's trailing passes, one with an idle warpgroup).
# 2. A/B: the cluster at 2000 / 4000 / 8150 queries against one CTA ("off"); the one-CTA kernel's
#    causal head groups of 8 ("g8") against its default rule ("off").
# 3. Windows (bench --window): the new default (the cluster where the window spans over 512 keys)
#    against one CTA ("off"), and the cluster forced at a 256-key window ("cl1").
# 4. The same-run table (tiers 64, 128, 256) on an H200 only (session 65 took the H100's), after 3.
# 5. The backward's causal head groups (FLASHATTN_SM90_BWD_HEAD_GROUP 2 / 4 / 8 / 16 beside the default).
set -u
H200=0; nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && H200=1
BINS=build-carry/bins.tar.xz CTEST_TIMEOUT=120 SAN=1 AB=1 ROUNDS=2 \
  SHAPES="128,2000,0;128,2000,1;128,4000,0;128,4000,1;128,8150,0;128,8150,1;128,8192,1;128,16384,1;256,8192,1;64,8192,1" \
  VARIANTS="off:FLASHATTN_SM90_CLUSTER=0;g8:FLASHATTN_SM90_CLUSTER=0,FLASHATTN_SM90_CAUSAL_GROUPS=8" \
  BUDGET=300 bash bench/gpu/device_call.sh
cp /tmp/r/log.txt /tmp/r/log1.txt 2>/dev/null
B=/tmp/bins/flashattn_gpu_bench
w() {  # name window shapes variants
  python3 bench/gpu/sm90_variants.py --bench $B --bench-args "--window $2" --shapes "$3" --variants "$4" --rounds 2 \
    --out /tmp/r/win_$1.json >/tmp/r/win_$1.txt 2>&1
  echo "window $2 rc=$?"; grep -A12 "^| shape" /tmp/r/win_$1.txt
}
w 4096 "4096,-1" "128,8192,1;128,16384,1;256,8192,1;128,8192,0" "new:;off:FLASHATTN_SM90_CLUSTER=0"
w 1024 "1024,0" "128,8192,1;128,16384,1;256,16384,1" "new:;off:FLASHATTN_SM90_CLUSTER=0"
w 256 "256,0" "128,8192,1" "new:;cl1:FLASHATTN_SM90_CLUSTER=1"
(cd /tmp && tar czf "$OUT/r.tgz" r)
if [ $H200 = 1 ]; then  # (device_call.sh starts /tmp/r afresh: the first part moves aside)
  mv /tmp/r /tmp/r1
  BINS=build-carry/bins.tar.xz TESTS= AB=0 TABLE=1 ROUNDS_TABLE=2 TABLE_ARGS="--hdims 64,128,256" BUDGET=300 \
    bash bench/gpu/device_call.sh
  mv /tmp/r1 /tmp/r/first
  (cd /tmp && tar czf "$OUT/r.tgz" r)
fi
python3 bench/gpu/sm90_variants.py --pass bwd --bench $B \
  --variants "new:;h2:FLASHATTN_SM90_BWD_HEAD_GROUP=2;h4:FLASHATTN_SM90_BWD_HEAD_GROUP=4;h8:FLASHATTN_SM90_BWD_HEAD_GROUP=8;h16:FLASHATTN_SM90_BWD_HEAD_GROUP=16" \
  --shapes "128,8192,1;128,16384,1;256,8192,1;256,16384,1" --rounds 2 \
  --out /tmp/r/ab_bwd.json >/tmp/r/ab_bwd.txt 2>&1
echo "bwd ab rc=$?"; grep -A8 "^| shape" /tmp/r/ab_bwd.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
