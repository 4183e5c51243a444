#!/usr/bin/env bash
# (Superseded: session 66 ran bench/results/session66/call1.sh; the patch landed in 88e1e4b and was removed.)
# Session 66's first device call, prepared in session 65 (bench/NOTES.md "Plan for session 66").
# Binaries of main with bench/results/session65/partial-pairs.patch applied (a scratch commit:
# git apply, commit; bench/gpu/pack_bins.sh on a tiers 64;128;256 build: build-carry/bins.tar.xz;
# carry build-carry), then on the device:
#   COMMIT=<hash> bash bench/results/session65/next.sh      (timeout 600)
# 0. The forward's tests (the default filter: Sm90.ClusterSameBytes with the partial last tiles of
#    the patch, and its ineligible calls) and compute-sanitizer (partial tiles of 72 and 36 rows in
#    the cluster, the latter with an idle warpgroup). If they pass, the patch lands on main: the
#    cluster (its default rules) for seqlen_q with an even count of 128-row blocks, e.g. 1000,
#    2000, 4000, 8150 (it was only multiples of 256).
# 1. The same-run table with FA2 and cuDNN (tiers 64, 128, 256), wanted on an H200 (issue 4 and
#    5's figures are the H200's; none was lent in session 65).
# 2. The forward's causal head groups for the one-CTA kernel (FLASHATTN_SM90_CLUSTER=0: the calls
#    the cluster does not take, GQA packing, windows, seqlen_q not a multiple of 256, head_dim 64):
#    groups of 4 / 8 / 16 / none beside the default rule (sm/4 over sm/2 (batch, head) pairs,
#    sm/6 over sm/4 for 128-row tiles, else none). Session 65 found groups of 8 worth +4.7% at
#    causal d128 8k for the cluster's pairs (none: 32 heads' K/V, 128 MB, stream through a 50 MB
#    L2). Prediction: the one-CTA kernel gains +2-5% at d128 / d256 causal 8k-16k with groups of 8;
#    d64's 192-row tiles less (session 15: -2.5% with groups at 8k).
# (device_call.sh unpacks BINS into /tmp/bins.)
# 3. The backward's causal head groups (FLASHATTN_SM90_BWD_HEAD_GROUP; default 8 / 4 / 2 by key
#    blocks a head, session 28 on the H200): 1 / 2 / 4 / 8 / 16. Prediction: within +-1.5% of the
#    default (session 28 tuned it); if a size wins >2% at causal d256 8k (0.94x cuDNN on the H100
#    in session 65), the rule changes.
set -u
# The A/B's "new" on 2000, 4000 (an idle warpgroup in the last tiles) and 8150 queries is the
# patch's cluster; "off" one CTA (predicted: as at 2048 / 4096 / 8192, +1-2% without a mask, +4-9%
# causal at 4000 and 8150).
BINS=build-carry/bins.tar.xz CTEST_TIMEOUT=120 SAN=1 AB=1 ROUNDS=2 \
  SHAPES="128,2048,1;128,4096,1;128,8192,1;128,16384,1;256,4096,1;256,8192,1;64,4096,1;64,8192,1;64,16384,1;128,2000,0;128,2000,1;128,4000,0;128,4000,1;128,8150,0;128,8150,1" \
  VARIANTS="g4:FLASHATTN_SM90_CLUSTER=0,FLASHATTN_SM90_CAUSAL_GROUPS=4;g8:FLASHATTN_SM90_CLUSTER=0,FLASHATTN_SM90_CAUSAL_GROUPS=8;g16:FLASHATTN_SM90_CLUSTER=0,FLASHATTN_SM90_CAUSAL_GROUPS=16;none:FLASHATTN_SM90_CLUSTER=0,FLASHATTN_SM90_CAUSAL_GROUPS=0;off:FLASHATTN_SM90_CLUSTER=0" \
  TABLE=1 ROUNDS_TABLE=2 TABLE_ARGS="--hdims 64,128,256" BUDGET=500 bash bench/gpu/device_call.sh
python3 bench/gpu/sm90_variants.py --pass bwd --bench /tmp/bins/flashattn_gpu_bench \
  --variants "new:;h1:FLASHATTN_SM90_BWD_HEAD_GROUP=1;h2:FLASHATTN_SM90_BWD_HEAD_GROUP=2;h4:FLASHATTN_SM90_BWD_HEAD_GROUP=4;h8:FLASHATTN_SM90_BWD_HEAD_GROUP=8;h16:FLASHATTN_SM90_BWD_HEAD_GROUP=16" \
  --shapes "128,2048,1;128,8192,1;128,16384,1;256,4096,1;256,8192,1;256,16384,1;64,8192,1" --rounds 2 \
  --out /tmp/r/ab_bwd.json >/tmp/r/ab_bwd.txt 2>&1
echo "bwd ab rc=$?"; grep -A12 "^| shape" /tmp/r/ab_bwd.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
