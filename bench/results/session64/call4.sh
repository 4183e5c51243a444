#!/usr/bin/env bash
# (Ran in session 65 on an H100 with the patch at 944ac31; the patch is on main since e00a8fb, so it
# no longer applies: bench/NOTES.md session 65.)
# Session 64 call 4 (never ran: no device lent after 20:07; calls 3 and 4 folded here): the
# default's clusters at head_dim 128 over 512 keys (904fbe3, on main) and causal pairs by
# FLASHATTN_SM90_CLUSTER=1 (bench/results/session64/causal-pairs.patch, not on main until its
# tests have run on a GPU: it changes the default clusters' tile map too). To run it:
#   git apply bench/results/session64/causal-pairs.patch   (on a scratch commit)
#   bash bench/gpu/pack_bins.sh /tmp/bgpu3   (a tiers 64;128;256 build, pack_bins.sh's header)
#   device: COMMIT=<hash> bash bench/results/session64/call4.sh   (carry build-carry, timeout 600)
# The sm90 forward's tests (the default filter: Sm90.ClusterSameBytes has the causal pairs), the
# A/B new (default) / cl1 (the cluster wherever it applies: causal too) / off (one CTA), 2 rounds,
# cl1g16 / cl1g66: cl1 with causal head groups of 16 / 66 (the default's on 132 SMs: 33; a pair's
# unit is 256 rows, so the groups' L2 footprint doubles),
# compute-sanitizer (memcheck, racecheck, synccheck, racecheck on 3 CTAs), then the same-run table
# with FA2 and cuDNN. Without the patch it still tests and measures 904fbe3's default (cl1 = new
# for causal then: the cluster refuses the causal mask).
set -u
SH="128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,2048,1;128,4096,1;128,8192,1;128,16384,1;256,8192,1"
BINS=build-carry/bins.tar.xz CTEST_TIMEOUT=150 SAN=1 AB=1 ROUNDS=2 SHAPES="$SH" \
  VARIANTS="cl1:FLASHATTN_SM90_CLUSTER=1;cl1g16:FLASHATTN_SM90_CLUSTER=1,FLASHATTN_SM90_CAUSAL_GROUPS=16;cl1g66:FLASHATTN_SM90_CLUSTER=1,FLASHATTN_SM90_CAUSAL_GROUPS=66;off:FLASHATTN_SM90_CLUSTER=0" TABLE=1 ROUNDS_TABLE=2 \
  TABLE_ARGS="--hdims 64,128,256" BUDGET=560 bash bench/gpu/device_call.sh
tail -40 /tmp/r/log.txt
