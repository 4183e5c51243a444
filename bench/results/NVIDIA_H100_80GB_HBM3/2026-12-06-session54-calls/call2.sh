#!/usr/bin/env bash
# Session 54 call 2 (tree = branch s54-qregs-extras: Q in registers in the kernels with extras
# too; _ab/base = main 8decb3a's fwd_kernel.h (Q in registers, plain kernels only), variant
# "main"; _ab/old = 7fc953d's (no Q in registers), variant "old"). Whichever GPU comes: the forward
# suite; the plain A/B (old / main / new: old against main again; main against new an A/A, the plain
# kernels being the same code), the softcap-30 A/B (the kernel with extras); the same-run table;
# then Nsight Compute at seqlen 8k: our d128 forward and backward, cuDNN's fprop and bprop
# (ncu_compare.py side by side). Carry .deps/googletest and _ab.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
CAP=${CAP:-540}
t() { echo $(($(date +%s) - T0)); }
TIERS="64;96;128;256" BASE=_ab/base BASES="old=_ab/old" TABLE=0 BUDGET=$((CAP - 170)) ROUNDS=3 \
SHAPES="128,1024,0;128,2048,0;128,8192,0;128,512,1;128,2048,1;128,8192,1;128,16384,1;96,8192,0;96,2048,1" \
  bash bench/gpu/device_call.sh
R=/tmp/r
B=build-gpu/bin/flashattn_gpu_bench
echo "===== softcap A/B (t=$(t)s)" | tee -a $R/log.txt
timeout 120 python3 bench/gpu/sm90_variants.py --bench $B --variants "main:BENCH=/tmp/base_main/b/bin/flashattn_gpu_bench;new:" \
  --shapes "128,2048,0;128,8192,0;128,8192,1;96,8192,0;64,8192,0" --rounds 3 --bench-args "--softcap 30" --no-cudnn \
  --out $R/ab-softcap.json >$R/ab-softcap.txt 2>&1
echo "softcap rc=$?" | tee -a $R/log.txt
grep -A12 "^| shape" $R/ab-softcap.txt | tee -a $R/log.txt
if (( $(t) < CAP - 200 )); then
  echo "===== table (t=$(t)s)" | tee -a $R/log.txt
  timeout $((CAP - 130 - $(t))) python3 bench/gpu_bench.py --flashattn-bench $B --peers fa2,cudnn --rounds 2 --results $R/table >$R/table.txt 2>&1
  echo "table rc=$?" | tee -a $R/log.txt
fi
(cd /tmp && tar czf "$OUT/r.tgz" r)
O=/tmp/r2
rm -rf $O && mkdir -p $O
L=$O/log.txt
pk() { (cd /tmp && tar czf "$OUT/r2.tgz" r2); }
prof() {  # pass who
  if (( $(t) > CAP - 40 )); then echo "skip $1 $2 (t=$(t)s)" | tee -a $L; return; fi
  timeout $((CAP - $(t))) bash bench/gpu/profile_sass.sh build-gpu $O 128 8192 "$1" 0 "$2" >>$L 2>&1
  echo "$1 $2 rc=$? (t=$(t)s)" | tee -a $L
  pk
}
prof fwd ours
prof bwd cudnn
prof bwd ours
for p in fwd bwd; do
  [[ -f $O/ncu-details-$p-d128-8192.txt && -f $O/ncu-details-cudnn-bwd-d128-8192.txt ]] || continue
  r=$([[ $p == bwd ]] && echo "bprop" || echo "fprop")
  python3 bench/gpu/ncu_compare.py $O/ncu-details-$p-d128-8192.txt $O/ncu-details-cudnn-bwd-d128-8192.txt \
    --kernel-regex "$r|${p}_kernel" >$O/compare-$p.md 2>&1
  echo "== $p: ours / cuDNN" | tee -a $L
  cat $O/compare-$p.md | tee -a $L
done
rm -f $O/*.csv.gz; for f in $O/*.csv; do [[ -f $f ]] && gzip -9 "$f"; done
echo "end (t=$(t)s)" | tee -a $L
pk
