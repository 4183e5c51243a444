#!/usr/bin/env bash
# bench/gpu/measure_build.sh BUILD_DIR UNIT DEFINE OUT: a flashattn_gpu_bench whose one translation
# unit UNIT (e.g. src/cuda/sm90/fwd_bf16_hdim128.cu) is compiled with -DDEFINE (e.g.
# FLASHATTN_SM90_MEASURE_KV_LOADS=0): a measurement build beside BUILD_DIR's own bench, without a
# second build tree. UNIT's object is compiled with BUILD_DIR's own nvcc command plus the define
# and linked ahead of libflashattn.a (its template kernels then come from it: the archive's copy of
# the unit is not pulled in; the script checks that the binary holds as many cubins as BUILD_DIR's
# bench). BUILD_DIR must be built (ninja flashattn_gpu_bench). Carry OUT with the call (e.g. inside
# build-carry/bins.tar.xz, bench/gpu/pack_bins.sh's tarball, as a variant's BENCH=path).
set -euo pipefail
B=$(cd "${1:?usage: measure_build.sh BUILD_DIR UNIT DEFINE OUT}" && pwd)
UNIT=${2:?unit}
DEF=${3:?define}
OUTF=$(realpath -m "${4:?out}")
cd "$B"
# The unit's compile command (the first that names it) and the bench's link command.
CMD=$(ninja -t commands flashattn_gpu_bench | grep -F -- " -c " | grep -F -- "/$UNIT " | head -1 || true)
[[ -n "$CMD" ]] || { echo "measure_build.sh: no compile command for $UNIT in $B" >&2; exit 1; }
OBJ=$(mktemp --suffix=.o)
trap 'rm -f "$OBJ"' EXIT
# Drop the depfile flags, write the object elsewhere, add the define.
CMD=$(echo "$CMD" | sed -e 's# -MD -MT [^ ]* -MF [^ ]*##' -e "s# -o [^ ]*\\.o# -o $OBJ -D$DEF#")
eval "$CMD"
LINK=$(ninja -t commands flashattn_gpu_bench | tail -1 | sed -e 's#^: && ##' -e 's# && :$##')
LINK=$(echo "$LINK" | sed -e "s# -o bin/flashattn_gpu_bench# $OBJ -o $OUTF#")
eval "$LINK"
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
if command -v "$CUOBJDUMP" >/dev/null; then
  a=$("$CUOBJDUMP" -lelf bin/flashattn_gpu_bench | wc -l)
  b=$("$CUOBJDUMP" -lelf "$OUTF" | wc -l)
  [[ "$a" == "$b" ]] || { echo "measure_build.sh: $OUTF holds $b cubins, the bench $a (the unit linked twice?)" >&2; exit 1; }
fi
ls -l "$OUTF"
