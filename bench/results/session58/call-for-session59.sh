#!/usr/bin/env bash
# Prepared in session 58 for session 59 (not run): on an H200 (kind nvidia-h200; an H100 may come
# instead: then this is an H100 table), the same-run table of main (FA2, cuDNN; 2 rounds) and the
# sustained speed and energy at issue 4's and 5's cells beside cuDNN (bench/gpu/energy.py, 1.5 s
# each). ~50 s build, ~90 s table, ~70 s energy. Carry [".deps/googletest"]; run as
# COMMIT=<hash> bash bench/results/session58/call-for-session59.sh (timeout_s ~400).
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
TIERS="64;128;256" TESTS="" AB=0 TABLE=1 ROUNDS_TABLE=2 BUDGET=260 bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
for pass in fwd bwd; do
  echo "===== sustained $pass (t=$(t)s)" | tee -a $R/log.txt
  shapes="128,2048,0;128,4096,0;128,8192,0;128,16384,0;128,16384,1;256,2048,0;256,8192,0;256,16384,0;64,8192,0"
  [[ $pass == bwd ]] && shapes="128,2048,0;128,4096,0;128,8192,0;128,16384,0;64,8192,0;256,8192,0"
  timeout 120 python3 bench/gpu/energy.py --bench $B --pass $pass --sustain 1.5 --variants "new:" \
    --shapes "$shapes" --out $R/energy-$pass.json >$R/energy-$pass.txt 2>&1
  echo "energy $pass rc=$?" | tee -a $R/log.txt
  grep -A12 "^| shape" $R/energy-$pass.txt | tee -a $R/log.txt
  (cd /tmp && tar czf "$OUT/r.tgz" r)
done
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
