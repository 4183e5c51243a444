#!/usr/bin/env bash
# Session 43 call 2 (carry build-carry: bench = flashattn_gpu_bench of tier 128 at main's kernels,
# bench_trace = the same with -DFLASHATTN_SM90_TRACE, both built on the CPU machine): where the d128
# causal backward's extra time goes (0.96x cuDNN at causal 8k against 1.00 without the mask).
# 1. The cost a work item beyond its steps (bench/gpu/bwd_item_cost.py: a line over the items'
#    durations against their steps; causal walks have items of every length) at causal 2k/4k/8k/16k.
# 2. Nsight Compute, one launch each, ours and cuDNN's main backward kernel at d128 8k causal and
#    not: duration, clock, instructions, L2 reduction sectors, and the warp states.
# $OUT/r.tgz.
set -u
O=/tmp/r; rm -rf $O; mkdir -p $O
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >$O/smi.txt 2>&1
B=build-carry
for s in 128,8192,1 128,16384,1 128,4096,1 128,2048,1 128,8192,0; do
  n=${s//,/-}
  $B/bench_trace --shapes $s --tokens 16384 --model-dim 2048 --pass bwd --dtype bf16 --iters 3 --warmup 2 >$O/raw-$n.txt 2>&1
  { echo "== $s"; grep -v '^[TB]' $O/raw-$n.txt | head -3; python3 bench/gpu/bwd_item_cost.py --skip 3 $O/raw-$n.txt; } | tee -a $O/item-cost.txt
  gzip -f $O/raw-$n.txt
done
pack
# The forward's per-tile phases at d128 2k and 8k (bench/gpu/fwd_trace.py), for the tile-turnover plan.
for s in 128,2048,0 128,8192,0; do
  n=${s//,/-}
  $B/bench_trace --shapes $s --pass fwd --iters 1 --warmup 1 >$O/fraw-$n.txt 2>&1
  { echo "== fwd $s"; python3 bench/gpu/fwd_trace.py <$O/fraw-$n.txt; } >>$O/fwd-trace.txt 2>&1
  gzip -f $O/fraw-$n.txt
done
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__inst_executed.sum,lts__t_sectors_op_red.sum,lts__t_sectors.sum,dram__bytes.sum,smsp__inst_executed.avg.per_cycle_active
for c in 1 0; do
  timeout 120 ncu --clock-control none -k regex:bwd_kernel -c 1 --metrics $M --section WarpStateStats \
    $B/bench --shapes 128,8192,$c --pass bwd --iters 1 --warmup 1 >$O/ncu-ours-c$c.txt 2>&1
  BACKEND=cudnn timeout 120 ncu --clock-control none -k regex:bprop -c 1 --launch-skip 1 --metrics $M --section WarpStateStats \
    python3 bench/gpu/fa2_once.py 128 8192 $c >$O/ncu-cudnn-c$c.txt 2>&1
  pack
done
for f in $O/ncu-*.txt; do echo "== $f"; grep -E "bwd_kernel|bprop|gpu__time|cycles_elapsed|inst_executed|sectors|dram__bytes|Stall|Warp Cycles" $f | head -24; done
cat $O/item-cost.txt
pack
