#!/usr/bin/env bash
# Session 44 call 6 (carry build-carry: bench_trace = tier 128's flashattn_gpu_bench built with
# -DFLASHATTN_SM90_TRACE at 79b19f2): what is left of the backward's fixed cost an item on the
# dynamic grid (bench/gpu/bwd_item_cost.py: fixed = wait for K/V + step 0 - a step + epilogue),
# against one CTA a tile (FLASHATTN_SM90_BWD_DYNAMIC=0) and the stream-K grid (non-causal).
set -u
O=/tmp/r; rm -rf $O; mkdir -p $O
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
B=build-carry
run() {  # name shape [env...]
  local n=$1 s=$2; shift 2
  env "$@" $B/bench_trace --shapes $s --tokens 16384 --model-dim 2048 --pass bwd --dtype bf16 --iters 3 --warmup 2 >$O/raw-$n.txt 2>&1
  { echo "== $n ($s $*)"; python3 bench/gpu/bwd_item_cost.py --skip 3 $O/raw-$n.txt | grep -v "^launch (0, [34])"; } | tee -a $O/phases.txt
  gzip -f $O/raw-$n.txt
}
run c2k 128,2048,1
run c2k-static 128,2048,1 FLASHATTN_SM90_BWD_DYNAMIC=0
run c8k 128,8192,1
run c1k 128,1024,1
run n2k 128,2048,0
pack
