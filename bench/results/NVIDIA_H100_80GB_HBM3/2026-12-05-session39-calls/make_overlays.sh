#!/usr/bin/env bash
# Makes session 39's overlays in _ab39/ from the tree's own files (run from the repository root,
# before call2.sh; each sed must change exactly the lines NOTES names: the diffs are printed).
set -euo pipefail
S=src/cuda/sm90
rm -rf _ab39 && mkdir -p _ab39/bwdlean _ab39/bwdaa _ab39/nolag _ab39/pack
sed -e 's/bp\.deterministic ? bp\.num_n_blocks/false ? bp.num_n_blocks/' -e 's/if (bp\.deterministic) {/if (false) {/' \
    -e 's/bp\.rotate_walk, n_block/true, n_block/' -e 's/P\.dq_tensor/true/g' $S/bwd_kernel.h >_ab39/bwdlean/bwd_kernel.h
cp $S/bwd_kernel.h _ab39/bwdaa/
sed 's/  return !kExtras \&\& !C::kSplitD \&\& !C::kDqT;/  return !kExtras \&\& !C::kSplitD \&\& !C::kDqT \&\& C::kD != 128;/' $S/bwd_kernel.h >_ab39/nolag/bwd_kernel.h
sed 's/const int pack = kDropout ? 1 : P.pack;/const int pack = kDropout || !kSwitches ? 1 : P.pack;/' $S/fwd_kernel.h >_ab39/pack/fwd_kernel.h
for o in bwdlean nolag; do echo "== $o"; ! diff $S/bwd_kernel.h _ab39/$o/bwd_kernel.h || { echo "overlay $o: no change"; exit 1; }; done
echo "== pack"; ! diff $S/fwd_kernel.h _ab39/pack/fwd_kernel.h || { echo "overlay pack: no change"; exit 1; }
