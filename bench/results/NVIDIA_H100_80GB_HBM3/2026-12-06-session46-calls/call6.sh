#!/usr/bin/env bash
# Session 46 call 6 (branch s46-dklate-extras): kDkLate in the kernel with extras (64-query steps)
# too. Tiers 64;128; A/B with --softcap 30: main = 64cb89e's bwd_kernel.h (_ab/base64cb), new; 3
# rounds. No tests (device time). $OUT/r.tgz.
set -u
export FLASHATTN_COMMIT=${COMMIT:-unknown}
TIERS="64;128" TESTS= SAN=0 TABLE=0 AB=0 PASS=bwd BUDGET=200 BASE=_ab/base64cb bash bench/gpu/device_call.sh >/dev/null 2>&1
O=/tmp/r
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
# (AB=0 skips the A/B and the base's wait: wait for the base build here)
for i in $(seq 60); do [[ -x /tmp/base_main/b/bin/flashattn_gpu_bench ]] && break; sleep 2; done
timeout 150 python3 bench/gpu/sm90_variants.py --pass bwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" --bench-args "--softcap 30" \
  --shapes "128,2048,1;128,8192,1;128,8192,0;64,2048,1;64,8192,0" --rounds 3 >"$O/ab-softcap.txt" 2>&1
echo "ab rc=$?" >>"$O/log.txt"; grep -A8 "^| shape" "$O/ab-softcap.txt" >>"$O/log.txt"
pack
cat "$O/log.txt"
