#!/usr/bin/env bash
# Session 54 call 2 (tree = main 8decb3a: Q in registers landed; _ab/base = 7fc953d's fwd_kernel.h,
# variant "main"). Whichever GPU comes: the Q-in-registers A/B again (3 rounds, cuDNN beside), the
# same-run table of today's main (FA2, cuDNN), then Nsight Compute (session 53's prepared call 3,
# at seqlen 8k, the issues' anchor): one launch each of our d128 forward and backward and of
# cuDNN's fprop and bprop, ncu_compare.py side by side. Carry .deps/googletest and _ab.
set -u
export COMMIT=${COMMIT:-unknown}
T0=$(date +%s)
CAP=${CAP:-560}
TIERS="64;96;128;256" BASE=_ab/base TESTS="" TABLE=1 BUDGET=$((CAP - 170)) ROUNDS=3 \
SHAPES="128,1024,0;128,2048,0;128,8192,0;128,512,1;128,2048,1;128,8192,1;128,16384,1;96,8192,0;96,2048,1" \
  bash bench/gpu/device_call.sh
t() { echo $(($(date +%s) - T0)); }
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
