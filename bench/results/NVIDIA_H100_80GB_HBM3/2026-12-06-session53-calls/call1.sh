#!/usr/bin/env bash
# Session 53 call 1: the same-run table with FA2 and cuDNN from main's binary (ffaa668: the tree
# with _ab/base's three files, built as variant "main"), and the backward's dQ halves at 128-query
# steps (head_dim 64), with the writer taking whichever half is stored first.
# Tree: main + the d64 halves (kDqHalves 2 at kDqRows: a box of a warpgroup's 64 rows) + the writer
# testing both halves' barriers and adding the first stored ("either"; uncommitted).
# _ab/base   = main's bwd_config.h, bwd_kernel.h, bwd_launch.cu: variant "main" (and the table's binary)
# _ab/halves = the halves without "either" (bwd_kernel.h): variant "halves"
# Stages by importance: build; the table (main's binary); the backward A/B (main / halves / new);
# the backward tests (every Sm90Bwd suite but the red.global grid; tiers 64;128;256); the backward
# sanitizers on 3 persistent CTAs; the forward suite if time is left.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
TIERS="64;128;256" TESTS="" AB=0 BASE=_ab/base BASES="halves=_ab/halves" BUDGET=200 \
  bash bench/gpu/device_call.sh
O=/tmp/r
L=$O/log.txt
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
t() { echo $(($(date +%s) - T0)); }
echo "===== table (main's binary) (t=$(t)s)" | tee -a $L
timeout 170 python3 bench/gpu_bench.py --flashattn-bench /tmp/base_main/b/bin/flashattn_gpu_bench \
  --peers fa2,cudnn --rounds 2 --results $O/table >$O/table.txt 2>&1
echo "table rc=$?" | tee -a $L
grep -E "^ +(64|128|256) " $O/table.txt >>$L
pk
echo "===== backward A/B (t=$(t)s)" | tee -a $L
python3 bench/gpu/sm90_variants.py --pass bwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;halves:BENCH=/tmp/base_halves/b/bin/flashattn_gpu_bench;new:" \
  --shapes "64,1024,0;64,2048,0;64,4096,0;64,8192,0;64,16384,0;64,2048,1;64,8192,1;64,16384,1;128,4096,0;128,8192,0;128,8192,1;128,16384,1" \
  --rounds 3 --out $O/ab_bwd.json >$O/ab_bwd.txt 2>&1
echo "ab_bwd rc=$?" | tee -a $L
grep -A16 "^| shape" $O/ab_bwd.txt | tee -a $L
pk
echo "===== backward tests (t=$(t)s)" | tee -a $L
(cd build-gpu && timeout 200 ctest -j16 --output-on-failure --timeout 190 -R "Sm90Bwd" -E "Sm90BwdGrid\.|Sm90BwdLayout") >$O/bwd.log 2>&1
echo "bwd rc=$? $(grep -E 'tests passed|tests failed' $O/bwd.log)" | tee -a $L
grep -E '\(Failed\)|\(Timeout\)' $O/bwd.log | head -20 | tee -a $L
pk
for tool in memcheck racecheck; do
  FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >$O/san_bwd_$tool.txt 2>&1
  echo "$tool (bwd grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/san_bwd_$tool.txt | tail -1)" | tee -a $L
done
pk
if (($(t) < 500)); then
  echo "===== forward suite (t=$(t)s)" | tee -a $L
  (cd build-gpu && timeout $((570 - $(t))) ctest -j16 --output-on-failure --timeout 100 -R "Sm90\.|Sm90Grid" -E Sm90Bwd) >$O/fwd.log 2>&1
  echo "fwd rc=$? $(grep -E 'tests passed|tests failed' $O/fwd.log)" | tee -a $L
fi
echo "===== end (t=$(t)s)" | tee -a $L
pk
