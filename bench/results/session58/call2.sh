#!/usr/bin/env bash
# Session 58 call 2: the plain kernel with softcap (fwd_kernel.h kCap) against the kernel with
# extras (FLASHATTN_SM90_FWD_CAP=0) in one binary. Carry [".deps/googletest"]; run as
# COMMIT=<hash> bash bench/results/session58/call2.sh (timeout_s ~560).
# Tests: the forward's softcap users (Sm90.SoftcapKernel, Sm90.Options, Sm90.PackedGqa, the Cuda
# options, CudaVsCpu), the plain grid (Sm90Grid: its kernels' SASS is unchanged); then the A/B of
# softcap 30 and the plain kernel beside it; then compute-sanitizer on the softcap test.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
TIERS="${TIERS:-64;96;128;192;256}" AB=0 TABLE=0 BUDGET=300 CTEST_TIMEOUT=120 \
TESTS="${FTESTS:-Sm90\\.SoftcapKernel|Sm90\\.Options|Sm90\\.PackedGqa|Cuda/Options|CudaVsCpu|Sm90Grid}" bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
echo "===== softcap A/B fwd (t=$(t)s)" | tee -a $R/log.txt
timeout 150 python3 bench/gpu/sm90_variants.py --pass fwd --bench $B --variants "extras:FLASHATTN_SM90_FWD_CAP=0;new:" \
  --shapes "${SHAPES:-64,2048,0;64,8192,0;64,8192,1;128,2048,0;128,8192,0;128,8192,1;256,2048,0;256,8192,0;256,8192,1}" \
  --rounds "${ROUNDS:-3}" --bench-args "--softcap 30" --no-cudnn --out $R/ab-softcap-fwd.json >$R/ab-softcap-fwd.txt 2>&1
echo "softcap fwd rc=$?" | tee -a $R/log.txt
grep -A12 "^| shape" $R/ab-softcap-fwd.txt | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
echo "===== the plain kernel, same shapes (t=$(t)s)" | tee -a $R/log.txt
timeout 60 python3 bench/gpu/sm90_variants.py --pass fwd --bench $B --variants "plain:" \
  --shapes "64,8192,0;128,2048,0;128,8192,0;256,8192,0" --rounds 1 --no-cudnn --out $R/plain-fwd.json >$R/plain-fwd.txt 2>&1
grep -A6 "^| shape" $R/plain-fwd.txt | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
if [[ "${SAN:-1}" == 1 ]]; then
  # The sanitize program (every kernel small, softcap's new cases among them; sm90's forward on 3
  # persistent CTAs: many tiles a CTA).
  for tool in memcheck racecheck; do
    echo "===== compute-sanitizer $tool (t=$(t)s)" | tee -a $R/log.txt
    FLASHATTN_SM90_PERSISTENT=3 timeout 110 compute-sanitizer --tool $tool --error-exitcode 3 \
      build-gpu/bin/flashattn_cuda_sanitize >$R/san_$tool.txt 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san_$tool.txt | tail -1)" | tee -a $R/log.txt
    (cd /tmp && tar czf "$OUT/r.tgz" r)
  done
fi
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
