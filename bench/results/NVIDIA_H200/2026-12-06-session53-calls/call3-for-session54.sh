#!/usr/bin/env bash
# Prepared in session 53 (not run: too little device time was left to start a machine) for
# session 54: Nsight Compute, the full set, on one launch
# each of our head_dim-128 forward and backward at seqlen 16k (bf16, the standard shapes) and
# cuDNN's (one SDPA forward + backward: its fprop and bprop among the first 12 kernels), for
# NOTES' plan items 2-3 (where the d128 forward's and backward's energy a FLOP goes beside cuDNN's
# under the power cap). Clocks left alone (--clock-control none). Within CAP seconds.
set -u
T0=$(date +%s)
CAP=${CAP:-250}
t() { echo $(($(date +%s) - T0)); }
O=/tmp/r
rm -rf $O && mkdir -p $O
L=$O/log.txt
pk() { (cd /tmp && tar czf "$OUT/r.tgz" r); }
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >$O/smi.txt 2>&1
cat $O/smi.txt | tee -a $L
(cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLASHATTN_CUDA=ON -DFLASHATTN_BUILD_TESTS=OFF \
   -DFLASHATTN_CUDA_ARCHS=90 "-DFLASHATTN_HEAD_DIMS=128" && ninja -C /tmp/b -j"$(nproc)" flashattn_gpu_bench) >$O/build.txt 2>&1
echo "build rc=$? (t=$(t)s)" | tee -a $L
pk
prof() {  # pass who
  if (( $(t) > CAP - 40 )); then echo "skip $1 $2 (t=$(t)s)" | tee -a $L; return; fi
  timeout $((CAP - $(t))) bash bench/gpu/profile_sass.sh /tmp/b $O 128 16384 "$1" 0 "$2" >>$L 2>&1
  echo "$1 $2 rc=$? (t=$(t)s)" | tee -a $L
  pk
}
prof bwd ours
prof bwd cudnn
prof fwd ours
for p in bwd fwd; do
  [[ -f $O/ncu-details-$p-d128-16384.txt && -f $O/ncu-details-cudnn-bwd-d128-16384.txt ]] || continue
  r=$([[ $p == bwd ]] && echo "bprop" || echo "fprop")
  python3 bench/gpu/ncu_compare.py $O/ncu-details-$p-d128-16384.txt $O/ncu-details-cudnn-bwd-d128-16384.txt \
    --kernel-regex "$r|${p}_kernel" >$O/compare-$p.md 2>&1
  echo "== $p: ours / cuDNN" | tee -a $L
  cat $O/compare-$p.md | tee -a $L
done
rm -f $O/*.csv.gz; for f in $O/*.csv; do [[ -f $f ]] && gzip -9 "$f"; done
echo "end (t=$(t)s)" | tee -a $L
pk
