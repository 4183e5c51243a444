#!/usr/bin/env bash
# Session 52 call 1: the prepared call with COMMIT set, TABLE=1 (same-run table with tickets on
# everywhere, the patch's walk) and two more A/B shapes (d64 512, d256 causal 512).
# Prepared in session 51 for session 52's first call: the ticket-lead patch (bench/NOTES.md,
# "the ticket asked a key block early"). Before the call, on the development machine:
#   git apply bench/results/NVIDIA_H100_80GB_HBM3/2026-12-06-session51-calls/ticket-lead-fwd_kernel.patch
#   git commit -am "..."; set COMMIT below to that commit
#   mkdir -p _ab/base && git show c638825:src/cuda/sm90/fwd_kernel.h >_ab/base/fwd_kernel.h
#   mkdir -p .deps && cp -r /usr/src/googletest .deps/googletest
# and run it with carry [".deps/googletest", "_ab/base"]. It builds the patched tree and c638825's
# kernel beside it (the A/B's "main"), runs the forward suite with tickets forced on (the TESTS
# stage), the A/B ticket lead / late claims with tickets on in both (3 rounds), the sanitizers with
# tickets (SAN=1: memcheck, racecheck, synccheck, racecheck on 3 CTAs), then the forward suite with
# tickets off (the patch touches the static walk's next_item and q_at too).
# Prediction: every test passes both ways; d128 causal 8k-16k +0.7-1% (to the static rounds'
# figures or above), d128 512 +1-2%, other cells within 0.5%.
set -u
export COMMIT=370eeb1
export FLASHATTN_SM90_DYNAMIC=1
TIERS="64;128;256" TESTS="Sm90\\.|Sm90Grid" BASE=_ab/base ROUNDS=3 SAN=1 BUDGET=500 TABLE=1 \
  VARIANTS="static:FLASHATTN_SM90_DYNAMIC=0" \
  SHAPES="128,512,0;128,512,1;128,2048,1;128,8192,1;128,16384,1;64,512,1;64,8192,1;64,16384,1;256,8192,0;256,16384,1;64,512,0;256,512,1" \
  bash bench/gpu/device_call.sh
O=/tmp/r
echo "===== forward suite, tickets OFF" | tee -a $O/log.txt
(cd build-gpu && FLASHATTN_SM90_DYNAMIC=0 timeout 150 ctest -j16 --output-on-failure --timeout 100 \
   -R "Sm90\.|Sm90Grid" -E Sm90Bwd) >$O/fwd_off.log 2>&1
echo "fwd off rc=$? $(grep -E 'tests passed|tests failed' $O/fwd_off.log)" | tee -a $O/log.txt
grep -E '\(Failed\)|\(Timeout\)' $O/fwd_off.log | head | tee -a $O/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
