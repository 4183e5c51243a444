#!/usr/bin/env bash
# Session 43 call 3 (carry build-carry: bench_trace = tier 128's flashattn_gpu_bench with
# -DFLASHATTN_SM90_TRACE at branch s43-bwd-trace, whose records split an item into the wait for
# K/V, step 0, the later steps and the epilogue): what the backward's fixed ~2-3 steps an item
# (call 2) are made of, causal and not, and whether the dQ tickets play a part (old = the memset).
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
run c8k 128,8192,1
run c2k-memset 128,2048,1 FLASHATTN_SM90_BWD_DQ_STORE=0
run n2k 128,2048,0
run n8k 128,8192,0
run n2k-onecta 128,2048,0 FLASHATTN_SM90_BWD_STREAMK=0
pack
