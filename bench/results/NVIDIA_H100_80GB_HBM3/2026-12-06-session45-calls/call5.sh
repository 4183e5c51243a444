#!/usr/bin/env bash
# Session 45 call 5 (carry .deps/googletest, build-carry = the trace build of this commit):
# v_empty (V released apart from K). Tiers 64;128;256; s45a = 846fdd8's sm90 backward files (the
# A/B's "s45a"), new, 3 rounds; the trace split of the new; ctest -R Sm90Bwd; memcheck and
# racecheck with FLASHATTN_SM90_BWD_PERSISTENT=3. $OUT/r.tgz.
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
P=/tmp/p; rm -rf $P; mkdir -p $P
run() {  # name shape [env...]
  local n=$1 s=$2; shift 2
  env "$@" build-carry/bench_trace --shapes $s --tokens 16384 --model-dim 2048 --pass bwd --dtype bf16 --iters 3 --warmup 2 >$P/raw-$n.txt 2>&1
  { echo "== $n ($s $*)"; python3 bench/gpu/bwd_item_cost.py --skip 3 $P/raw-$n.txt | grep -v "^launch (0, [34])"; } >>$P/phases.txt 2>&1
  gzip -f $P/raw-$n.txt
}
run c2k 128,2048,1
run c8k 128,8192,1
run n2k 128,2048,0
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=560 BASES="s45a=_ab/s45a" \
  SHAPES="128,1024,1;128,2048,1;128,4096,1;128,8192,1;128,2048,0;128,8192,0;64,2048,1;64,8192,1;256,2048,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
cp -r $P $O/phases
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q "build rc=0" "$O/log.txt" || { tail -30 "$O/log.txt"; pack; exit 1; }
echo "===== ctest -R Sm90Bwd (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
(cd build-gpu && timeout 230 ctest -j16 --output-on-failure --timeout 220 -R Sm90Bwd) >"$O/bwdtests.log" 2>&1
echo "bwd ctest rc=$? $(grep -E 'tests passed|tests failed' "$O/bwdtests.log")" | tee -a "$O/log.txt"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/bwdtests.log" | head -20 | tee -a "$O/log.txt"
pack
S=build-gpu/bin/flashattn_cuda_sanitize
for tool in memcheck racecheck; do
  FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 50 compute-sanitizer --tool $tool --error-exitcode 3 "$S" >"$O/san_$tool.txt" 2>&1
  echo "$tool (bwd grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_$tool.txt" | tail -1)" | tee -a "$O/log.txt"
done
echo "===== done (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"
pack
cat $P/phases.txt; cat "$O/log.txt"
