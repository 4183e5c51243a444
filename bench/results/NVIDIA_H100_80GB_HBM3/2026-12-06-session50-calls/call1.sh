#!/usr/bin/env bash
# Session 50 call 1 (carry .deps/googletest; tree COMMIT): the forward's tickets (FLASHATTN_SM90_DYNAMIC=1)
# first run: the forward suite with the knob on, the A/B tickets / static (3 rounds, 12 shapes),
# racecheck + memcheck on 3 persistent CTAs, the backward A/B stream-K plan / counter grid at non-causal
# 2k-8k, the same-run table (FA2, cuDNN; knob off = the commit's default) and the forward suite with
# the knob off, each as time allows.
set -u
export COMMIT=24f734b
export FLASHATTN_COMMIT=$COMMIT
T0=$(date +%s); LIMIT=${LIMIT:-575}
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
left() { echo $((LIMIT - ($(date +%s) - T0))); }
FLASHATTN_SM90_DYNAMIC=1 TIERS="64;128;256" SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=300 \
  VARIANTS="static:FLASHATTN_SM90_DYNAMIC=0" \
  SHAPES="128,512,0;128,512,1;128,1024,0;128,1024,1;128,2048,0;128,2048,1;128,8192,1;64,512,0;64,512,1;64,1024,1;64,2048,1;64,8192,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
for tool in racecheck memcheck; do
  log "===== $tool, 3 persistent CTAs (tickets)"
  FLASHATTN_SM90_DYNAMIC=1 FLASHATTN_SM90_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >"$O/san3_$tool.txt" 2>&1
  log "$tool (grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san3_$tool.txt" | tail -1)"
  pack
done
log "===== backward A/B: stream-K plan (new) / counter grid (dyn: FLASHATTN_SM90_BWD_STREAMK=0), non-causal"
timeout 90 python3 bench/gpu/sm90_variants.py --pass bwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "new:;dyn:FLASHATTN_SM90_BWD_STREAMK=0" --shapes "128,2048,0;128,4096,0;128,8192,0;64,4096,0" \
  --rounds 2 --out $O/ab_bwd.json >$O/ab_bwd.txt 2>&1
log "bwd ab rc=$?"; grep -A10 "^| shape" $O/ab_bwd.txt >>$O/log.txt
pack
if [[ $(left) -gt 130 ]]; then
  log "===== same-run table, knob off (left $(left) s)"
  FLASHATTN_SM90_DYNAMIC=0 timeout $(( $(left) - 30 )) python3 bench/gpu_bench.py --flashattn-bench build-gpu/bin/flashattn_gpu_bench \
    --peers fa2,cudnn --rounds 2 --results "$O/table" >"$O/table.txt" 2>&1
  log "table rc=$?"
  grep -E "^ +(64|128|256) " "$O/table.txt" >>"$O/log.txt"
  pack
fi
if [[ $(left) -gt 25 ]]; then
  log "===== forward suite, knob OFF (left $(left) s)"
  (cd build-gpu && FLASHATTN_SM90_DYNAMIC=0 timeout $(( $(left) - 8 )) ctest -j16 --output-on-failure --timeout 140 \
     -R "Sm90Layout|Sm90\.|Sm90Grid|CudaVarlen|CudaShapes" -E Sm90Bwd) >$O/fwd_off.log 2>&1
  log "fwd off rc=$? $(grep -E 'tests passed|tests failed' $O/fwd_off.log)"
  grep -E '\(Failed\)|\(Timeout\)' $O/fwd_off.log | head >>$O/log.txt
fi
log "===== done"
pack
cat $O/log.txt
