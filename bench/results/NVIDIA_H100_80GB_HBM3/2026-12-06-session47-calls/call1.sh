#!/usr/bin/env bash
# Session 47 call 1 (carry .deps/googletest; _ab/b48o and _ab/b48q travel with the tree).
# A/B 1 (tiers 64;128;256): the L2 prefetch switch (switched baseline, pf1 Q, pf2 K/V, pf3 both)
# on the short forward. A/B 2 (head_dim 256): 48-key blocks (overlays: o48 with the O tile and one Q
# buffer, q48 with two Q buffers and no O tile) against 80 (new) and 64 (a64). Then their CLI checks
# against the reference and ctest of the forward's tests (incl. Sm90.L2PrefetchSameBytes).
set -u
export COMMIT=${COMMIT:-unknown} FLASHATTN_COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
O=/tmp/r
J=$(nproc)
pack() { (cd /tmp && tar czf "$OUT/r.tgz" r 2>/dev/null); }
log() { echo "$* (t=$(($(date +%s) - T0))s)" | tee -a "$O/log.txt"; }
declare -A BP=()
mkdir -p /tmp/blogs
for v in o48:b48o q48:b48q; do
  name=${v%%:*} dir=_ab/${v#*:} R=/tmp/base_${v%%:*}
  rm -rf "$R" && mkdir -p "$R"
  tar --exclude=./build-gpu --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C "$R"
  cp "$dir"/* "$R/src/cuda/sm90/"
  (cmake -S "$R" -B "$R/b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLASHATTN_CUDA=ON -DFLASHATTN_BUILD_TESTS=OFF \
     -DFLASHATTN_CUDA_ARCHS=90 "-DFLASHATTN_HEAD_DIMS=256" && ninja -C "$R/b" -j"$J" flashattn_gpu_bench flashattn_cli) >/tmp/blogs/build_$name.txt 2>&1 &
  BP[$name]=$!
done
TIERS="64;128;256" TESTS= SAN=0 TABLE=0 AB=1 PASS=fwd ROUNDS=3 BUDGET=560 \
  VARIANTS="switched:FLASHATTN_SM90_SWITCHED=1;pf1:FLASHATTN_SM90_L2_PREFETCH=1;pf2:FLASHATTN_SM90_L2_PREFETCH=2;pf3:FLASHATTN_SM90_L2_PREFETCH=3" \
  SHAPES="256,512,1;256,512,0;256,1024,1;256,1024,0;256,2048,1;128,512,1;128,512,0;128,1024,1;128,1024,0;64,512,1;64,512,0;64,1024,1;128,8192,0;256,8192,1" \
  bash bench/gpu/device_call.sh >/dev/null 2>&1
cp /tmp/blogs/* $O/ 2>/dev/null
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -30 "$O/log.txt"; pack; exit 1; }
for name in o48 q48; do wait "${BP[$name]}"; log "$name build rc=$?"; cp /tmp/blogs/build_$name.txt $O/; done
log "===== CLI checks of the 48-key kernels"
for name in o48 q48; do
  for a in "--seqlen 509 --causal" "--seqlen 1000" "--seqlen 777 --seqlen-k 1031 --causal" "--seqlen 1024 --heads 8 --heads-kv 2"; do
    FLASHATTN_SM90_BLOCKN=alt timeout 60 /tmp/base_$name/b/bin/flashattn bench --device cuda --head-dim 256 --batch 2 --heads 4 $a --no-naive --json >$O/cli_$name.json 2>$O/cli_$name.err
    rc=$?; echo "$name [$a] rc=$rc $(grep -o '"path":"[^"]*"' $O/cli_$name.json | head -1) mismatched:$(grep -o '"mismatched":[0-9]*' $O/cli_$name.json | tr '\n' ' ') $(grep -o '"ok":[a-z]*}$' $O/cli_$name.json)" | tee -a $O/log.txt
  done
done
pack
log "===== A/B 2 (d256 48-key blocks)"
B1=/tmp/base_o48/b/bin/flashattn_gpu_bench B2=/tmp/base_q48/b/bin/flashattn_gpu_bench
python3 bench/gpu/sm90_variants.py --pass fwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "new:;a64:FLASHATTN_SM90_BLOCKN=alt;o48:BENCH=$B1,FLASHATTN_SM90_BLOCKN=alt;q48:BENCH=$B2,FLASHATTN_SM90_BLOCKN=alt;o48pf:BENCH=$B1,FLASHATTN_SM90_BLOCKN=alt,FLASHATTN_SM90_L2_PREFETCH=3" \
  --shapes "256,512,1;256,512,0;256,1024,1;256,1024,0;256,2048,1;256,2048,0" --rounds 3 --out $O/ab2.json >$O/ab2.txt 2>&1
log "ab2 rc=$?"; grep -A12 "^| shape" $O/ab2.txt | tee -a $O/log.txt
pack
log "===== ctest forward (Sm90Layout|Sm90\\.|Sm90Grid|CudaShapes)"
(cd build-gpu && timeout 170 ctest -j16 --output-on-failure --timeout 160 -R "Sm90Layout|Sm90\.|Sm90Grid|CudaShapes" -E Sm90Bwd) >$O/tests.log 2>&1
log "ctest rc=$? $(grep -E 'tests passed|tests failed' $O/tests.log)"
grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' $O/tests.log | head -20 | tee -a $O/log.txt
log "===== done"
pack
cat $O/log.txt
