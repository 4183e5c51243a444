#!/usr/bin/env bash
# Session 58 call 4. Carry [".deps/googletest"]; run as COMMIT=<hash> bash bench/results/session58/call4.sh.
# (1) The forward's 16k dip (H200 table: 8k -> 16k non-causal, ours -4.4% / -5.0% / -6.6% at head_dim
#     64 / 128 / 256): ours at 8k and 16k beside shapes that mix their traits (16k queries on 8k keys at
#     batch 1: one (batch, head) pair a round as at 16k, 8k-long walks; 8k queries on 16k keys at batch
#     2: two pairs a round, 16k-long walks), clocks and power sampled every 200 ms.
# (2) Softcap 30 beside FlexAttention (its score_mod), bench/gpu_bench.py --softcap.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
TIERS="${TIERS:-64;128;256}" TESTS="" AB=0 TABLE=0 BUDGET=150 bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 200 >$R/smi_trace.csv 2>&1 &
SMI=$!
echo "===== the 16k dip (t=$(t)s)" | tee -a $R/log.txt
timeout 200 python3 bench/gpu/sm90_variants.py --pass fwd --bench $B --variants "new:" --rounds "${ROUNDS:-4}" \
  --shapes "128,8192,0;128,16384,0;128,16384,0,8192,1,1;128,8192,0,16384,1,2;256,8192,0;256,16384,0;256,16384,0,8192,1,1;256,8192,0,16384,1,2;64,8192,0;64,16384,0" \
  --out $R/dip16k.json >$R/dip16k.txt 2>&1
echo "dip rc=$? (t=$(t)s)" | tee -a $R/log.txt
grep -A14 "^| shape" $R/dip16k.txt | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
echo "===== softcap 30 beside FlexAttention (t=$(t)s)" | tee -a $R/log.txt
timeout 240 python3 bench/gpu_bench.py --flashattn-bench $B --softcap 30 --peers flex --flex-hdims 128 \
  --hdims 64,128,256 --seqlens 2048,8192 --causal 0,1 --results $R/softcap >$R/softcap.txt 2>&1
echo "softcap table rc=$? (t=$(t)s)" | tee -a $R/log.txt
grep -E "^ +(64|128|256) |hdim" $R/softcap.txt | tee -a $R/log.txt
kill $SMI 2>/dev/null
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
