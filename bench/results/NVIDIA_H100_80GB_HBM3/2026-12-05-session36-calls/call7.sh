#!/usr/bin/env bash
# Session 36 call 7 (warm): the new defaults: rebuild, the head_dim 64 grid and the skip tests, A/B.
set -u
O=/tmp/r7; rm -rf $O; mkdir -p $O
ninja -C build-gpu flashattn_gpu_bench flashattn_cuda_tests >$O/build.txt 2>&1; echo "build rc=$?"
(cd build-gpu && timeout 60 ctest -j8 --timeout 50 -R "Sm90Grid.Forward/.*_d64_|Sm90\.(SkipMasked|VariantSkipMasked|VariantThreeConsumers)") >$O/tests.txt 2>&1
echo "tests rc=$?"; grep -E "tests passed|tests failed|\*\*\*" $O/tests.txt | head
timeout 60 python3 bench/gpu/sm90_variants.py --pass fwd --bench build-gpu/bin/flashattn_gpu_bench \
  --variants "new:;old:FLASHATTN_SM90_SKIP_MASKED=0" --shapes "64,512,1;64,1024,1;64,2048,1;256,512,1;64,512,0" \
  --rounds 2 --out $O/ab.json >$O/ab.txt 2>&1
echo "ab rc=$?"; grep -A8 "^| shape" $O/ab.txt
(cd /tmp && tar czf "$OUT/r7.tgz" r7)
