#!/usr/bin/env bash
# Session 45 call 1 (carry build-carry: bench_trace = tier 128's flashattn_gpu_bench built with
# -DFLASHATTN_SM90_TRACE at b8ff132; .deps/googletest). (1) The item-cost split of the backward on
# the dynamic grid (bwd_item_cost.py, the trace marks of 9535de8). (2) Plan item 5: dropout 0.1 and
# softcap 30 backward, 74ad7ff's sm90 backward files ("main") against b8ff132 ("new"), tiers 64;128.
# (3) clock_probe.py at d128 causal 8k backward (ours and cuDNN's). $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
P=/tmp/p; rm -rf $P; mkdir -p $P
B=build-carry
run() {  # name shape [env...]
  local n=$1 s=$2; shift 2
  env "$@" $B/bench_trace --shapes $s --tokens 16384 --model-dim 2048 --pass bwd --dtype bf16 --iters 3 --warmup 2 >$P/raw-$n.txt 2>&1
  { echo "== $n ($s $*)"; python3 bench/gpu/bwd_item_cost.py --skip 3 $P/raw-$n.txt | grep -v "^launch (0, [34])"; } >>$P/phases.txt 2>&1
  gzip -f $P/raw-$n.txt
}
run c2k 128,2048,1
run c8k 128,8192,1
run c1k 128,1024,1
run n2k 128,2048,0
echo "phases done t=$(($(date +%s) - T0))s" >>$P/phases.txt
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=2 BUDGET=480 BASE=_ab/s44head \
  SHAPES="64,2048,1;64,8192,1;128,2048,1;128,8192,1;128,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
cp -r $P $O/phases
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
VAR="main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:"
SH="64,2048,1;64,8192,0;128,2048,1;128,8192,1;128,8192,0"
for a in "--dropout 0.1" "--softcap 30"; do
  echo "===== A/B $a (t=$(($(date +%s) - T0))s)" | tee -a $O/log.txt
  timeout 150 python3 bench/gpu/sm90_variants.py --pass bwd --bench build-gpu/bin/flashattn_gpu_bench --variants "$VAR" \
    --shapes "$SH" --rounds 2 --bench-args "$a" >"$O/ab-${a:2:7}.txt" 2>&1
  grep -A10 "^| shape" "$O/ab-${a:2:7}.txt" >>$O/log.txt
  pack
done
echo "===== clock probe (t=$(($(date +%s) - T0))s)" | tee -a $O/log.txt
timeout 90 python3 bench/gpu/clock_probe.py --bench build-gpu/bin/flashattn_gpu_bench --shape 128,8192,1 --pass bwd >$O/clock.txt 2>&1
tail -20 $O/clock.txt >>$O/log.txt
echo "===== done (t=$(($(date +%s) - T0))s)" >>$O/log.txt
pack
cat $P/phases.txt; cat $O/log.txt
