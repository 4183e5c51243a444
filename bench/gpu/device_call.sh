#!/usr/bin/env bash
# bench/gpu/device_call.sh: one device call that builds, tests and measures, within a time budget,
# its logs tarred into $OUT/r.tgz after every stage (a call cut off at its limit still returns
# what it has; the device returns at most 8 files). Run from the repository root on the GPU
# machine (carry .deps/googletest: the GPU image has no GoogleTest; and BASE's folder if used).
#
# Environment (all optional):
#   BUDGET     seconds this script may take (default 540); the table runs only if 200 are left
#   TIERS      head_dim tiers to build (default "64;96;128;192;256")
#   TESTS      ctest -R regex (default the sm90 forward's: "Sm90Layout|Sm90\.|Sm90Grid|CudaVarlen|CudaShapes";
#              empty: no tests). The build and the tests are tools/gpu-check's stages (its log in r/gc).
#   BASE       a folder of old files to build beside for an A/B (e.g. _ab/base holding
#              config.h, fwd_kernel.h, launch.cu of src/cuda/sm90 at the old commit, and launch.h
#              for a commit before session 38's two builds; BASE_SUBDIR
#              where they go, default src/cuda/sm90): this tree with them overlaid, built in
#              /tmp/base_main (flashattn_gpu_bench only), runs as the A/B variant "main"
#   BASES      more such folders, each its own variant: "name=folder;name=folder" (e.g. an A/A
#              control "aa=_ab/same" beside BASE's experiment, in one call)
#   VARIANTS   extra bench/gpu/sm90_variants.py variants after "new:", ";" between variants and "," between
#              a variant's settings (e.g. "noidle:FLASHATTN_SM90_SKIP_IDLE=0;c2:A=1,B=0"; a space would join them;
#              a forward switch's knob takes the slower switch-reading build: add
#              "switched:FLASHATTN_SM90_SWITCHED=1" as its baseline, bench/GPU.md)
#   SHAPES     the A/B's shapes (default: 15 forward shapes, 512-8k); ROUNDS (default 3); PASS (fwd/bwd)
#   AB         0: no A/B
#   SAN        1: compute-sanitizer memcheck, racecheck, synccheck, and racecheck with 3 persistent CTAs
#   BWD_TESTS  1: ctest -R Sm90Bwd (the backward's tests, which TESTS leaves out) within
#              BWD_TESTS_S seconds (default 250; 16 jobs: ~110 s with tier 128 alone, ~220 s with
#              three tiers), its failures in the log
#   TESTS_AFTER  a ctest -R regex run after the A/B (a variant's own tests, whose results then
#              come after its numbers), within TESTS_AFTER_S seconds (default 150); the backward's
#              included (no -E), its failures in the log
#   SAN_BWD    1: compute-sanitizer memcheck and racecheck of the sanitize program with
#              FLASHATTN_SM90_BWD_PERSISTENT=3 (three persistent backward CTAs: items in turn)
#   TABLE      1: bench/gpu_bench.py's same-run table with FA2 and cuDNN (ROUNDS_TABLE, default 2;
#              TABLE_ARGS more of its arguments, e.g. "--hdims 64,128" for a build of those tiers)
#   CTEST_TIMEOUT  seconds a test may take in the TESTS stage (default 150: the longest, Sm90.StreamKTail,
#              takes ~70 s; a hung test then fails instead of holding the call to its limit)
#   BINS       a tarball of binaries built on the development machine (bench/gpu/pack_bins.sh packs
#              flashattn_gpu_bench, flashattn_cuda_tests and flashattn_cuda_sanitize into
#              build-carry/bins.tar.xz: carry build-carry): nothing is built here. TESTS and TESTS_AFTER are then
#              gtest filters (TESTS default "Sm90Layout*:Sm90.*:*Sm90Grid*:CudaVarlen*:CudaShapes*"), each run
#              as 8 shards at once; BWD_TESTS runs "*Sm90Bwd*"; BASE / BASES need a build (name an old
#              binary in VARIANTS instead: "main:BENCH=path")
#   COMMIT     the commit to record in the results: write the hash into the call from the development
#              machine (a `git rev-parse` run on the device read a stale HEAD, session 46)
set -u -o pipefail
T0=$(date +%s)
BUDGET=${BUDGET:-540}
left() { echo $((BUDGET - ($(date +%s) - T0))); }
O=/tmp/r
rm -rf "$O" && mkdir -p "$O"
LOG=$O/log.txt
pack() { (cd /tmp && tar czf "$OUT/r.tgz.$BASHPID" r 2>/dev/null && mv -f "$OUT/r.tgz.$BASHPID" "$OUT/r.tgz"); }
sec() { pack; echo "===== $* (t=$(($(date +%s) - T0))s)" | tee -a "$LOG"; }
# Every 20 s the logs so far into $OUT too: a call cut off at its limit inside a stage (session 50's
# call 2 hung in ctest and returned only smi.txt) still returns the stage's log.
(n=0; while sleep 2; do n=$((n + 1)); ((n % 10 == 0)) && pack; done) &  # (2 s sleeps: an orphan outlives the kill by 2 s at most)
PACKER=$!
trap 'kill $PACKER 2>/dev/null' EXIT
export FLASHATTN_COMMIT=${COMMIT:-unknown}
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >"$O/smi.txt" 2>&1
J=$(nproc)
TIERS=${TIERS:-"64;96;128;192;256"}
if [[ -n "${BINS:-}" ]]; then
  TESTS=${TESTS-"Sm90Layout*:Sm90.*:*Sm90Grid*:CudaVarlen*:CudaShapes*"}
else
  TESTS=${TESTS-"Sm90Layout|Sm90\\.|Sm90Grid|CudaVarlen|CudaShapes"}
fi

# gtest FILTER within SECONDS as 8 shards at once (BINS: no ctest) into $O/NAME.*.log, the summary
# (tests passed, failed, shards cut off) and the failures in the log.
run_gtest() {
  local name=$1 filter=$2 secs=$3 i pids=() rcs=() pid
  sec "gtest --gtest_filter=$filter"
  for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout "$secs" "$BIN/flashattn_cuda_tests" --gtest_filter="$filter" \
      >"$O/$name.$i.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; rcs+=($?); done
  local passed skipped failed
  passed=$(cat "$O/$name".*.log | grep -c '^\[       OK \]')
  skipped=$(cat "$O/$name".*.log | grep -c '^\[  SKIPPED \] [A-Za-z]')
  failed=$(cat "$O/$name".*.log | grep -c '^\[  FAILED  \] [A-Za-z]')
  echo "$name: $passed passed, $skipped skipped, $failed failed, shard rcs ${rcs[*]} (124: cut off at $secs s)" | tee -a "$LOG"
  grep -h '^\[  FAILED  \] [A-Za-z]' "$O/$name".*.log | sort -u | head -20 | tee -a "$LOG"
}

if [[ -n "${BINS:-}" ]]; then
  # Carried binaries: unpack, and no build.
  [[ -z "${BASE:-}${BASES:-}" ]] || { echo "BASE / BASES need a build: not with BINS" | tee -a "$LOG"; pack; exit 2; }
  BIN=/tmp/bins
  rm -rf "$BIN" && mkdir -p "$BIN" && tar xJf "$BINS" -C "$BIN" || { echo "cannot unpack $BINS" | tee -a "$LOG"; pack; exit 1; }
  export LD_LIBRARY_PATH=/usr/local/cuda/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
  ls -l "$BIN" >>"$LOG"
  BVAR=""
  [[ -n "$TESTS" ]] && run_gtest tests "$TESTS" "${CTEST_TIMEOUT:-150}"
else  # (the build here, down to its fi)
BIN=build-gpu/bin

# The old files' trees beside (BASE as the A/B's "main", BASES by their names), built in the
# background while tools/gpu-check builds (and tests) this one.
BASES=${BASES:-}
[[ -n "${BASE:-}" ]] && BASES="main=$BASE${BASES:+;$BASES}"
declare -A BPID=()
if [[ -n "$BASES" ]]; then
  IFS=';' read -ra BLIST <<<"$BASES"
  for b in "${BLIST[@]}"; do
    name=${b%%=*} dir=${b#*=} R=/tmp/base_${b%%=*}
    rm -rf "$R" && mkdir -p "$R"
    tar --exclude=./build-gpu --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C "$R"
    cp -r "$dir"/. "$R/${BASE_SUBDIR:-src/cuda/sm90}/"  # (a folder may hold subfolders: BASE_SUBDIR=src)
    (cmake -S "$R" -B "$R/b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLASHATTN_CUDA=ON -DFLASHATTN_BUILD_TESTS=OFF \
       -DFLASHATTN_CUDA_ARCHS=90 "-DFLASHATTN_HEAD_DIMS=$TIERS" && ninja -C "$R/b" -j"$J" flashattn_gpu_bench) >"$O/build_$name.txt" 2>&1 &
    BPID[$name]=$!
  done
fi
STAGES=build
[[ -n "$TESTS" ]] && STAGES=build,test
sec "tools/gpu-check $STAGES (tiers $TIERS; ctest -R $TESTS)"
GPU_CHECK_STAGES=$STAGES BUILD_DIR="$PWD/build-gpu" FLASHATTN_HEAD_DIMS="$TIERS" GPU_CHECK_SM80_FORWARD=0 \
  CTEST_ARGS="-R $TESTS -E Sm90Bwd" CTEST_TIMEOUT=${CTEST_TIMEOUT:-150} tools/gpu-check "$O/gc" >/dev/null 2>&1
grep -E "build rc|tests (passed|failed)" "$O/gc/gpu-check.log" | tee -a "$LOG"
BVAR=""
for name in "${!BPID[@]}"; do
  wait "${BPID[$name]}"; rc=$?
  echo "$name build rc=$rc" | tee -a "$LOG"
  [[ $rc == 0 ]] && BVAR="$BVAR$name:BENCH=/tmp/base_$name/b/bin/flashattn_gpu_bench;"
done
grep -q '"build": {"rc": 0,' "$O/gc/results.json" || { tail -40 "$O/gc/gpu-check.log" | tee -a "$LOG"; pack; exit 1; }
fi

if [[ "${AB:-1}" == 1 ]]; then
  SHAPES=${SHAPES:-"64,512,1;64,1024,1;64,2048,1;64,512,0;64,1024,0;64,2048,0;128,512,1;128,1024,1;128,2048,1;128,512,0;256,512,1;256,2048,1;64,8192,0;128,8192,0;128,8192,1"}
  VAR="${BVAR}new:"
  [[ -n "${VARIANTS:-}" ]] && VAR="$VAR;$VARIANTS"
  sec "A/B ($VAR)"
  python3 bench/gpu/sm90_variants.py --pass "${PASS:-fwd}" --bench "$BIN/flashattn_gpu_bench" --variants "$VAR" \
    --shapes "$SHAPES" --rounds "${ROUNDS:-3}" --out "$O/ab.json" >"$O/ab.txt" 2>&1
  echo "ab rc=$?" | tee -a "$LOG"
  grep -A40 "^| shape" "$O/ab.txt" | tee -a "$LOG"
fi

# ctest -R REGEX within SECONDS into $O/NAME.log, its summary and failures in the log.
run_ctest() {
  local name=$1 regex=$2 secs=$3
  sec "ctest -R $regex"
  (cd build-gpu && timeout "$secs" ctest -j16 --output-on-failure --timeout "$((secs < 240 ? secs : 240))" \
     -R "$regex") >"$O/$name.log" 2>&1
  echo "$name rc=$? $(grep -E 'tests passed|tests failed' "$O/$name.log")" | tee -a "$LOG"
  grep -E '\*\*\*Failed|\*\*\*Timeout|\(Failed\)|\(Timeout\)|Exception' "$O/$name.log" | head -20 | tee -a "$LOG"
}

if [[ -n "${TESTS_AFTER:-}" ]]; then
  if [[ -n "${BINS:-}" ]]; then run_gtest tests_after "$TESTS_AFTER" "${TESTS_AFTER_S:-150}"
  else run_ctest tests_after "$TESTS_AFTER" "${TESTS_AFTER_S:-150}"; fi
fi

if [[ "${SAN:-0}" == 1 ]]; then
  S=$BIN/flashattn_cuda_sanitize
  for tool in memcheck racecheck synccheck; do
    sec "compute-sanitizer $tool"
    compute-sanitizer --tool $tool --error-exitcode 3 "$S" >"$O/san_$tool.txt" 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_$tool.txt" | tail -1)" | tee -a "$LOG"
  done
  sec "racecheck, 3 persistent CTAs"
  FLASHATTN_SM90_PERSISTENT=3 compute-sanitizer --tool racecheck --error-exitcode 3 "$S" >"$O/san_race3.txt" 2>&1
  echo "race3 rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/san_race3.txt" | tail -1)" | tee -a "$LOG"
fi

if [[ "${BWD_TESTS:-0}" == 1 ]]; then
  if [[ -n "${BINS:-}" ]]; then run_gtest bwdtests "*Sm90Bwd*" "${BWD_TESTS_S:-250}"
  else run_ctest bwdtests Sm90Bwd "${BWD_TESTS_S:-250}"; fi
fi

if [[ "${SAN_BWD:-0}" == 1 ]]; then
  for tool in memcheck racecheck; do
    sec "compute-sanitizer $tool, 3 persistent backward CTAs"
    FLASHATTN_SM90_BWD_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
      "$BIN/flashattn_cuda_sanitize" >"$O/san_bwd_$tool.txt" 2>&1
    echo "$tool (bwd grid 3) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/san_bwd_$tool.txt" | tail -1)" | tee -a "$LOG"
  done
fi

if [[ "${TABLE:-0}" == 1 && $(left) -gt 200 ]]; then
  sec "same-run table (left $(left) s)"
  timeout $(($(left) - 20)) python3 bench/gpu_bench.py --flashattn-bench "$BIN/flashattn_gpu_bench" ${TABLE_ARGS:-} \
    --peers fa2,cudnn --rounds "${ROUNDS_TABLE:-2}" --results "$O/table" >"$O/table.txt" 2>&1
  echo "table rc=$?" | tee -a "$LOG"
  grep -E "^ +(64|128|256) " "$O/table.txt" >>"$LOG"
fi
sec "done"
pack
