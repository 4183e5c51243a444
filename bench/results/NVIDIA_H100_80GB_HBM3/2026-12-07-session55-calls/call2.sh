#!/usr/bin/env bash
# Session 55, call 2 (branch s55-call2): Q in registers in the kernel with extras too (softcap now
# unswitched), and the ldmatrix of Q before the record's decode (plan item 3: causal 512). _ab/base
# holds main's fwd_kernel.h (variant "main"); carry .deps/googletest and _ab; COMMIT by the caller.
# Order: build (tiers 64;96;128) + forward suite + sanitizers; plain A/B; softcap / ALiBi A/B;
# on an H200 the same-run table of tiers 64;128;256 (built in the background) if time is left.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
CAP=${CAP:-560}
t() { echo $(($(date +%s) - T0)); }
R=/tmp/r
H200=0
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && H200=1
if [[ $H200 == 1 ]]; then  # the table's tree: main's kernels, tiers 64;128;256
  rm -rf /tmp/tbl && mkdir -p /tmp/tbl && tar --exclude=./build-gpu --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/tbl
  cp _ab/base/fwd_kernel.h /tmp/tbl/src/cuda/sm90/
  (cmake -S /tmp/tbl -B /tmp/tbl/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLASHATTN_CUDA=ON -DFLASHATTN_BUILD_TESTS=OFF \
     -DFLASHATTN_CUDA_ARCHS=90 "-DFLASHATTN_HEAD_DIMS=64;128;256" && ninja -C /tmp/tbl/b -j16 flashattn_gpu_bench) >/tmp/tbl.txt 2>&1 &
fi
TIERS="64;96;128" BASE=_ab/base SAN=1 ROUNDS=3 BUDGET=330 \
SHAPES="128,512,1;128,512,0;128,1024,1;128,2048,0;128,2048,1;64,512,0;96,2048,0;128,8192,1" bash bench/gpu/device_call.sh
B=build-gpu/bin/flashattn_gpu_bench
for mod in "--softcap 30" "--alibi 1"; do
  tag=$(echo "$mod" | tr -d ' -')
  echo "===== A/B $mod (t=$(t)s)" | tee -a $R/log.txt
  timeout 70 python3 bench/gpu/sm90_variants.py --pass fwd --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
    --shapes "128,2048,0;128,8192,0;128,8192,1;64,8192,0;96,8192,0" --rounds 3 --bench-args "$mod" --no-cudnn \
    --out $R/ab-$tag.json >$R/ab-$tag.txt 2>&1
  echo "$tag rc=$?" | tee -a $R/log.txt
  grep -A8 "^| shape" $R/ab-$tag.txt | tee -a $R/log.txt
  (cd /tmp && tar czf "$OUT/r.tgz" r)
done
if [[ $H200 == 1 ]]; then
  wait
  echo "table build: $(tail -1 /tmp/tbl.txt)" | tee -a $R/log.txt
  if (( $(t) < CAP - 100 )); then
    echo "===== table, main's kernels (t=$(t)s)" | tee -a $R/log.txt
    timeout $((CAP - 10 - $(t))) python3 bench/gpu_bench.py --flashattn-bench /tmp/tbl/b/bin/flashattn_gpu_bench --peers fa2,cudnn \
      --rounds 2 --results $R/table >$R/table.txt 2>&1
    echo "table rc=$?" | tee -a $R/log.txt
    grep -E "^ +(64|128|256) " $R/table.txt >>$R/log.txt
  fi
fi
echo "===== done (t=$(t)s)" | tee -a $R/log.txt
(cd /tmp && tar czf "$OUT/r.tgz" r)
