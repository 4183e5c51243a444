#!/usr/bin/env bash
# Session 45 call 2 (carry build-carry, .deps/googletest): dK/dV stored from registers
# (FLASHATTN_SM90_BWD_DKDV_TMA=0: K/V released right after the item's last GEMMs, so the next
# item's loads run under the epilogue) against the TMA-store epilogue (default), on the dynamic
# grid, 3 rounds; then the trace build's item-cost split with DKDV_TMA=0. $OUT/r.tgz.
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
run c2k-regs 128,2048,1 FLASHATTN_SM90_BWD_DKDV_TMA=0
run c8k-regs 128,8192,1 FLASHATTN_SM90_BWD_DKDV_TMA=0
run n2k-regs 128,2048,0 FLASHATTN_SM90_BWD_DKDV_TMA=0
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=400 VARIANTS="regs:FLASHATTN_SM90_BWD_DKDV_TMA=0" \
  SHAPES="64,1024,1;64,2048,1;64,8192,1;128,1024,1;128,2048,1;128,4096,1;128,8192,1;128,2048,0;128,8192,0;64,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
cp -r $P $O/phases
(cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null)
cat $P/phases.txt; cat $O/log.txt
