#!/usr/bin/env bash
# Session 62 call 4: the forward in clusters of two with K/V multicast (fwd_kernel.h kCluster,
# FLASHATTN_SM90_CLUSTER=1). Carried binaries (build-carry/bins.tar.xz, tiers 64;128, arch 90).
# Order: the cluster's same-bytes test first (a hang there is cut at 90 s and the rest still runs
# what does not take the cluster), then the A/B (main's default, the cluster, and the static
# rounds without stream-K that the cluster also has), sustained TFLOP/s and TFLOP/J, the forward
# tests, and compute-sanitizer memcheck / racecheck of the sanitize program (cluster cases in it).
# Run as COMMIT=<hash> bash bench/results/session62/call4.sh (timeout_s >= 560).
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r; rm -rf $R; mkdir -p $R
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
export LD_LIBRARY_PATH=/usr/local/cuda/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bins; rm -rf $B; mkdir -p $B; tar xJf build-carry/bins.tar.xz -C $B
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >$R/smi.txt 2>&1
log() { echo "$*" | tee -a $R/log.txt; }
log "===== Sm90.ClusterSameBytes (t=$(t)s)"
timeout 90 $B/flashattn_cuda_tests --gtest_filter='Sm90.ClusterSameBytes' >$R/t_cluster.txt 2>&1
log "cluster test rc=$? $(grep -E '^\[  (PASSED|FAILED) ' $R/t_cluster.txt | tr '\n' ' ')"; pk
V="new:;cl:FLASHATTN_SM90_CLUSTER=1;static:FLASHATTN_SM90_DYNAMIC=0,FLASHATTN_SM90_STREAMK=0"
if grep -q '^\[  PASSED  \] 1 test' $R/t_cluster.txt; then
  log "===== A/B (t=$(t)s)"
  timeout 200 python3 bench/gpu/sm90_variants.py --bench $B/flashattn_gpu_bench --rounds 3 --variants "$V" \
    --shapes "128,1024,0;128,2048,0;128,4096,0;128,8192,0;128,16384,0" --out $R/ab.json >$R/ab.txt 2>&1
  log "ab rc=$?"; grep -A12 "^| shape" $R/ab.txt >>$R/log.txt; pk
  log "===== energy (t=$(t)s)"
  timeout 150 python3 bench/gpu/energy.py --bench $B/flashattn_gpu_bench --sustain 3 \
    --shapes "128,2048,0;128,8192,0;128,16384,0" --variants "new:;cl:FLASHATTN_SM90_CLUSTER=1" \
    --out $R/energy.json >$R/energy.txt 2>&1
  log "energy rc=$?"; grep -A8 "^| shape" $R/energy.txt >>$R/log.txt; pk
fi
log "===== forward tests (t=$(t)s)"
pids=()
for i in 0 1 2 3 4 5 6 7; do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 90 $B/flashattn_cuda_tests \
    --gtest_filter='Sm90.*:*Sm90Grid*:CudaVarlen*:-Sm90.ClusterSameBytes' >$R/tests.$i.log 2>&1 &
  pids+=($!)
done
rcs=""; for p in "${pids[@]}"; do wait $p; rcs="$rcs $?"; done
log "tests: $(cat $R/tests.*.log | grep -c '^\[       OK \]') passed, $(cat $R/tests.*.log | grep -c '^\[  FAILED  \] [A-Za-z]') failed, rcs$rcs"
grep -h '^\[  FAILED  \] [A-Za-z]' $R/tests.*.log | sort -u | head | tee -a $R/log.txt; pk
for tool in memcheck racecheck; do
  log "===== compute-sanitizer $tool (t=$(t)s)"
  timeout 110 compute-sanitizer --tool $tool --error-exitcode 3 $B/flashattn_cuda_sanitize >$R/san_$tool.txt 2>&1
  log "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san_$tool.txt | tail -1) $(grep -c '^ok' $R/san_$tool.txt) cases ok"
  pk
done
log "===== done (t=$(t)s)"; pk
