#!/usr/bin/env bash
# Session 58 call 5: sustained speed and energy a FLOP (bench/gpu/energy.py; flashattn_gpu_bench
# --sustain), ours beside cuDNN, forward (default build, the switch-reading build, and O's rescale
# skipped where no row's max moved) and backward. Carry [".deps/googletest"]; run as
# COMMIT=<hash> bash bench/results/session58/call5.sh.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
TIERS="${TIERS:-64;128;256}" TESTS="" AB=0 TABLE=0 BUDGET=150 bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
nvidia-smi -q -d POWER >$R/power_limits.txt 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 200 >$R/smi_trace.csv 2>&1 &
SMI=$!
echo "===== forward, sustained ${SUSTAIN:-2} s (t=$(t)s)" | tee -a $R/log.txt
timeout 200 python3 bench/gpu/energy.py --bench $B --pass fwd --sustain "${SUSTAIN:-2}" \
  --variants "new:;switched:FLASHATTN_SM90_SWITCHED=1;skip:FLASHATTN_SM90_SKIP_RESCALE=1" \
  --shapes "64,8192,0;128,2048,0;128,8192,0;128,16384,0;128,16384,1;256,8192,0;256,16384,0" \
  --out $R/energy-fwd.json >$R/energy-fwd.txt 2>&1
echo "fwd rc=$? (t=$(t)s)" | tee -a $R/log.txt
grep -A10 "^| shape" $R/energy-fwd.txt | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
echo "===== backward, sustained (t=$(t)s)" | tee -a $R/log.txt
timeout 150 python3 bench/gpu/energy.py --bench $B --pass bwd --sustain "${SUSTAIN:-2}" --variants "new:" \
  --shapes "64,8192,0;128,8192,0;128,16384,0;256,8192,0" --out $R/energy-bwd.json >$R/energy-bwd.txt 2>&1
echo "bwd rc=$? (t=$(t)s)" | tee -a $R/log.txt
grep -A8 "^| shape" $R/energy-bwd.txt | tee -a $R/log.txt
kill $SMI 2>/dev/null
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
