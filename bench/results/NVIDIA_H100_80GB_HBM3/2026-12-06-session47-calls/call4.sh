#!/usr/bin/env bash
# Session 47 call 4: the forward's per-tile timeline at today's kernels (bench/gpu/fwd_trace.sh:
# a -DFLASHATTN_SM90_TRACE build of tiers 64 and 128), short shapes and 2k.
set -u
mkdir -p $OUT/t
bash bench/gpu/fwd_trace.sh $OUT/t "128,512,0 128,512,1 128,1024,0 128,2048,0 64,512,1 64,512,0" > $OUT/t/run.log 2>&1
echo rc=$?
cat $OUT/t/trace-*.txt
