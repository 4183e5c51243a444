#!/usr/bin/env bash
# bench/gpu/pack_bins.sh BUILD_DIR [OUT]: build the device call's three programs in BUILD_DIR (a CUDA
# build configured on this machine, e.g. cmake -S . -B /tmp/bgpu -G Ninja -DCMAKE_BUILD_TYPE=Release
# -DFLASHATTN_CUDA=ON -DFLASHATTN_CUDA_ARCHS=90 "-DFLASHATTN_HEAD_DIMS=64;128" -DGTEST_ROOT=...)
# and pack them into OUT (default build-carry/bins.tar.xz) for bench/gpu/device_call.sh's BINS: the
# device then builds nothing (a tier-128 build takes ~1.5 minutes of two cores here and ~45 s of
# device time there).
set -euo pipefail
B=${1:?usage: pack_bins.sh BUILD_DIR [OUT]}
OUTF=${2:-build-carry/bins.tar.xz}
PROGS="flashattn_gpu_bench flashattn_cuda_tests flashattn_cuda_sanitize"
# shellcheck disable=SC2086
ninja -C "$B" -j"$(nproc)" $PROGS
mkdir -p "$(dirname "$OUTF")"
# shellcheck disable=SC2086
tar cJf "$OUTF" -C "$B/bin" $PROGS
ls -l "$OUTF"
