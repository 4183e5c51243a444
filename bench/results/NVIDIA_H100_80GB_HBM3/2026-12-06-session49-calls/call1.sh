#!/usr/bin/env bash
# Session 49 call 1 (carry .deps/googletest; tree 051ec19): the backward's programmatic dependent
# launch (FLASHATTN_SM90_BWD_PDL=1) A/B against the default, 3 rounds, tiers 96;128;192; then
# ctest -R Sm90Bwd (tiers 96, 128, 192: the writer change's first run at 96 and 192; with
# Sm90Bwd.DependentLaunch), memcheck and racecheck of the backward with the knob on (3 persistent
# CTAs); then ncu of the forward at d128 512 (ours and cuDNN's) as time allows.
set -u
export COMMIT=051ec19
T0=$(date +%s)
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
TIERS="96;128;192" TESTS= SAN=0 TABLE=0 AB=1 PASS=bwd ROUNDS=3 BUDGET=420 BWD_TESTS=1 BWD_TESTS_S=210 \
  VARIANTS="pdl:FLASHATTN_SM90_BWD_PDL=1" \
  SHAPES="128,512,0;128,1024,0;128,2048,0;128,8192,0;128,512,1;128,2048,1;96,1024,0;192,2048,0" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
for tool in memcheck racecheck; do
  log "===== compute-sanitizer $tool, 3 persistent backward CTAs, PDL on"
  FLASHATTN_SM90_BWD_PDL=1 FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    build-gpu/bin/flashattn_cuda_sanitize >"$O/san_bwd_pdl_$tool.txt" 2>&1
  log "$tool (bwd grid 3, pdl) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_bwd_pdl_$tool.txt" | tail -1)"
  pack
done
mkdir -p $O/prof
left=$((570 - ($(date +%s) - T0)))
if [[ $left -gt 60 ]]; then
  log "===== ncu fwd d128 512 (ours)"
  timeout $((left - 30)) bash bench/gpu/profile_sass.sh build-gpu $O/prof 128 512 fwd 0 >>$O/log.txt 2>&1
  pack
fi
left=$((570 - ($(date +%s) - T0)))
if [[ $left -gt 40 ]]; then
  log "===== ncu fwd d128 512 (cuDNN)"
  timeout $((left - 10)) bash bench/gpu/profile_sass.sh build-gpu $O/prof 128 512 fwd 0 cudnn >>$O/log.txt 2>&1
fi
rm -f $O/prof/*.csv
log "===== done"
pack
cat $O/log.txt
