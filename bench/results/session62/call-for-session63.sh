#!/usr/bin/env bash
# For session 63 (plan item 3): what the backward's Q / dO bytes from L2 cost, as call 3 of
# session 62 measured the forward's K / V. Build here first (tiers 64;128, arch 90, /tmp/bgpu):
#   bench/gpu/pack_bins.sh /tmp/bgpu                       (main's programs; then add the two below)
#   bench/gpu/measure_build.sh /tmp/bgpu src/cuda/sm90/bwd_bf16_hdim128.cu FLASHATTN_SM90_MEASURE_QDO_LOADS=0 /tmp/x/flashattn_gpu_bench_qdo0
#   bench/gpu/measure_build.sh /tmp/bgpu src/cuda/sm90/bwd_bf16_hdim128.cu FLASHATTN_SM90_MEASURE_QDO_LOADS=2 /tmp/x/flashattn_gpu_bench_qdo2
#   (cd /tmp/bgpu/bin && cp flashattn_gpu_bench flashattn_cuda_tests flashattn_cuda_sanitize /tmp/x/) &&
#   tar cJf build-carry/bins.tar.xz -C /tmp/x .
# then run as COMMIT=<hash> bash bench/results/session62/call-for-session63.sh (carry build-carry,
# timeout_s >= 300). A/B medians (3 rounds) and sustained TFLOP/s and TFLOP/J (energy.py, 3 s).
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
SH="128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,8192,1"
V="qdo2:BENCH=/tmp/bins/flashattn_gpu_bench_qdo2;qdo0:BENCH=/tmp/bins/flashattn_gpu_bench_qdo0"
BINS=build-carry/bins.tar.xz TESTS= AB=1 PASS=bwd ROUNDS=3 SHAPES="$SH" VARIANTS="$V" BUDGET=200 bash bench/gpu/device_call.sh
R=/tmp/r
echo "===== energy (sustained)" | tee -a $R/log.txt
timeout 200 python3 bench/gpu/energy.py --bench /tmp/bins/flashattn_gpu_bench --pass bwd --sustain 3 --shapes "$SH" \
  --variants "new:;$V" --out $R/energy.json >$R/energy.txt 2>&1
echo "energy rc=$?" | tee -a $R/log.txt
cat $R/energy.txt >>$R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
tail -30 $R/log.txt
