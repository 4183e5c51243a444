#!/usr/bin/env bash
# Prepared in session 50 for session 51's first call (carry .deps/googletest; set COMMIT to the tree
# it runs): the late ticket claims (FLASHATTN_SM90_DYNAMIC=1; session 50's call 2 hung before its
# A/B). First apply and commit the patch beside this script:
#   git apply bench/results/NVIDIA_H100_80GB_HBM3/2026-12-06-session50-calls/late-claims-fwd_kernel.patch
# (it also changes the default path's walk: an empty first item; the forward suite with the knob
# OFF must run too, so this script ends with it). First Sm90.SwitchedSameBytes alone with the knob on (60 s cap: the one hang of call 2 that
# the tail-only fix does not explain), then the forward suite with the knob on, racecheck and
# memcheck on 3 persistent CTAs, and the A/B late tickets / static rounds, 3 rounds.
# Prediction (bench/gpu/ticket_model.py): causal 1k-2k +2-3%, causal 512 0 to +0.5%, 512 without
# a mask +2.5-3%, d256 without a mask (no stream-K tail) +1-2%; every test passes.
set -u
export COMMIT=919ad5f
export FLASHATTN_COMMIT=$COMMIT FLASHATTN_SM90_DYNAMIC=1
T0=$(date +%s); LIMIT=${LIMIT:-560}
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz.$BASHPID" r 2>/dev/null && mv -f "$OUT/r.tgz.$BASHPID" "$OUT/r.tgz"); }
(n=0; while sleep 2; do n=$((n + 1)); ((n % 10 == 0)) && pack; done) &  # logs so far every 20 s
PACKER=$!
trap 'kill $PACKER 2>/dev/null' EXIT
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
left() { echo $((LIMIT - ($(date +%s) - T0))); }
rm -rf "$O" && mkdir -p "$O"
log "===== build (tiers 64;128;256)"
GPU_CHECK_STAGES=build BUILD_DIR="$PWD/build-gpu" FLASHATTN_HEAD_DIMS="64;128;256" GPU_CHECK_SM80_FORWARD=0 \
  tools/gpu-check "$O/gc" >/dev/null 2>&1
grep -E "build rc" "$O/gc/gpu-check.log" | tee -a "$O/log.txt"; pack
log "===== Sm90.SwitchedSameBytes alone, knob on"
(cd build-gpu && timeout 60 ctest --output-on-failure --timeout 55 -R "Sm90\.SwitchedSameBytes") >$O/switched.log 2>&1
log "switched rc=$? $(grep -E 'tests passed|tests failed' $O/switched.log)"; pack
log "===== ctest Sm90\\. and Sm90Grid, knob on"
(cd build-gpu && timeout 200 ctest -j16 --output-on-failure --timeout 120 -R "Sm90\.|Sm90Grid" -E Sm90Bwd) >$O/fwd_on.log 2>&1
log "fwd on rc=$? $(grep -E 'tests passed|tests failed' $O/fwd_on.log)"
grep -E '\(Failed\)|\(Timeout\)' $O/fwd_on.log | head >>$O/log.txt; pack
log "===== forward suite, knob OFF (the patch's default path; left $(left) s)"
(cd build-gpu && FLASHATTN_SM90_DYNAMIC=0 timeout 200 ctest -j16 --output-on-failure --timeout 120 \
   -R "Sm90\.|Sm90Grid" -E Sm90Bwd) >$O/fwd_off.log 2>&1
log "fwd off rc=$? $(grep -E 'tests passed|tests failed' $O/fwd_off.log)"
grep -E '\(Failed\)|\(Timeout\)' $O/fwd_off.log | head >>$O/log.txt
pack
for tool in racecheck memcheck; do
  FLASHATTN_SM90_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >"$O/san3_$tool.txt" 2>&1
  log "$tool (grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san3_$tool.txt" | tail -1)"
done
pack
log "===== A/B late tickets (new) / static rounds (left $(left) s)"
timeout $(( $(left) - 10 )) python3 bench/gpu/sm90_variants.py --pass fwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "new:;static:FLASHATTN_SM90_DYNAMIC=0" --rounds 3 --out $O/ab.json \
  --shapes "128,512,0;128,512,1;128,1024,1;128,2048,0;128,2048,1;128,8192,1;64,512,0;64,512,1;64,1024,1;64,2048,1;64,8192,0;64,8192,1;256,512,0;256,1024,1;256,2048,0;256,8192,0" \
  >$O/ab.txt 2>&1
log "ab rc=$?"; grep -A20 "^| shape" $O/ab.txt >>$O/log.txt
log "===== done"
pack
cat $O/log.txt
