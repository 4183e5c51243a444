#!/usr/bin/env bash
# Prepared in session 52 for session 53's first call: the same-run table with FlashAttention-2 and
# cuDNN on the H200 with today's defaults (tickets at every length, the dQ halves), the first H200
# table since session 28; then, if time is left, the forward suite once more. Before the call:
#   set COMMIT below to main's commit (from the development machine);
#   mkdir -p .deps && cp -r /usr/src/googletest .deps/googletest
# and run it with carry [".deps/googletest"]. If the machine is an H100, the table is still the
# defaults' (compare with session 51's H100 table).
set -u
export COMMIT=${COMMIT:-unknown}
TIERS="64;128;256" TESTS="" AB=0 TABLE=1 ROUNDS_TABLE=2 BUDGET=420 bash bench/gpu/device_call.sh
O=/tmp/r
echo "===== forward suite (defaults)" | tee -a $O/log.txt
(cd build-gpu && timeout 120 ctest -j16 --output-on-failure --timeout 110 -R "Sm90\.|Sm90Grid" -E Sm90Bwd) >$O/fwd.log 2>&1
echo "fwd rc=$? $(grep -E 'tests passed|tests failed' $O/fwd.log)" | tee -a $O/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
