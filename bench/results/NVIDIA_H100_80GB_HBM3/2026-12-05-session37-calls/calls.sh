# Session 37's device calls (run from the repository root on the GPU machine, carry .deps/googletest)
# Call 1 (e8bf2a2):
export COMMIT=e8bf2a2; SAN=1 TABLE=1 AB=1 SHAPES="192,512,1;192,1024,1;192,2048,1;256,1024,1;64,512,1;64,1024,0;128,512,0;128,8192,0" \
  VARIANTS="alt:FLASHATTN_SM90_BLOCKN=alt;ff:FLASHATTN_SM90_FAST_FINISH=1" BUDGET=570 bash bench/gpu/device_call.sh
# Call 2 (fb38239; carry _ab37 too: _ab37/base/config.h is config.h with d128's alternative key block at 64):
export COMMIT=fb38239; SAN=1 TABLE=0 AB=1 BASE=_ab37/base SHAPES="128,512,1;128,1024,1;128,2048,1;192,512,1;64,512,1;64,1024,1" \
  VARIANTS="m64:BENCH=/tmp/base/b/bin/flashattn_gpu_bench,FLASHATTN_SM90_BLOCKN=alt;nff:FLASHATTN_SM90_FAST_FINISH=0" BUDGET=480 bash bench/gpu/device_call.sh
export COMMIT=1c39a19
SAN=1 TABLE=0 AB=1 BASE=_ab37/base3 BUDGET=400 SHAPES="64,512,1;64,1024,1;64,2048,1;128,512,1;128,1024,1;192,512,1;192,1024,1;96,1024,1;64,512,0;128,8192,1" bash bench/gpu/device_call.sh
mkdir -p /tmp/r/prof && bash bench/gpu/profile_sass.sh build-gpu /tmp/r/prof 64 512 fwd 1 >/tmp/r/prof/log.txt 2>&1
rm -f /tmp/r/prof/*.csv; (cd /tmp && tar czf $OUT/r.tgz r)
# Call 4: the four-stage ring at head_dim 64 against 1c39a19's config.h (carry _ab37)
export COMMIT=14d6685
SAN=1 TABLE=0 AB=1 BASE=_ab37/base4 BUDGET=420 SHAPES="64,512,1;64,1024,1;64,2048,1;64,8192,1;64,512,0;64,1024,0;64,2048,0;64,8192,0;64,16384,0;128,512,1" bash bench/gpu/device_call.sh
# Call 5: the early S_0 (FLASHATTN_SM90_EARLY_S0) A/B first, then its tests and racecheck (carry _ab37)
export COMMIT=d368bb1
TIERS="64;128;256" TESTS="" SAN=0 TABLE=0 AB=1 ROUNDS=2 BUDGET=200 VARIANTS="early:FLASHATTN_SM90_EARLY_S0=1" \
  SHAPES="64,512,1;64,1024,1;64,2048,1;128,512,1;128,1024,1;256,512,1;64,512,0;128,8192,0" bash bench/gpu/device_call.sh
(cd build-gpu && timeout 150 ctest -R "Sm90\\.(EarlyS0SameBytes|VariantEarlyS0)" -j8 --output-on-failure > /tmp/r/tests.txt 2>&1); tail -5 /tmp/r/tests.txt
(cd /tmp && tar czf $OUT/r.tgz r)
FLASHATTN_SM90_EARLY_S0=1 FLASHATTN_SM90_PERSISTENT=3 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 build-gpu/bin/flashattn_cuda_sanitize > /tmp/r/race_early.txt 2>&1; echo "race rc=$? $(grep SUMMARY /tmp/r/race_early.txt | tail -1)"
(cd /tmp && tar czf $OUT/r.tgz r)
