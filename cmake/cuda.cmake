# The optional CUDA backend (src/cuda): included by the top-level CMakeLists after the flashattn
# target exists. FLASHATTN_CUDA=AUTO builds it when nvcc is found, ON requires it, OFF skips it.
set(FLASHATTN_CUDA AUTO CACHE STRING "Build the CUDA backend: AUTO (when nvcc is found), ON or OFF")
set_property(CACHE FLASHATTN_CUDA PROPERTY STRINGS AUTO ON OFF)
set(FLASHATTN_CUDA_ARCHS "80;90" CACHE STRING
    "GPU architectures to compile for, e.g. 80;90 (each gives -gencode arch=compute_XX,code=sm_XX; 90a is accepted)")
set(FLASHATTN_HEAD_DIMS "32;64;96;128;160;192;224;256" CACHE STRING
    "head_dim tiers to compile (development builds: fewer tiers compile faster)")
option(FLASHATTN_CUDA_VERBOSE "Print ptxas register/shared-memory/spill reports" OFF)

set(FLASHATTN_WITH_CUDA OFF)
if(NOT FLASHATTN_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(FLASHATTN_WITH_CUDA ON)
  elseif(FLASHATTN_CUDA STREQUAL "ON")
    message(FATAL_ERROR "flashattn: FLASHATTN_CUDA=ON but no CUDA compiler (nvcc) was found; "
                        "set CMAKE_CUDA_COMPILER or use FLASHATTN_CUDA=AUTO/OFF")
  endif()
endif()

if(NOT FLASHATTN_WITH_CUDA)
  message(STATUS "flashattn: CUDA backend OFF (FLASHATTN_CUDA=${FLASHATTN_CUDA}; no nvcc found or disabled)")
  return()
endif()

# No architectures from CMake: the -gencode flags below are the whole list.
set(CMAKE_CUDA_ARCHITECTURES OFF)
# One CUDA runtime for the whole program: the shared libcudart that CUDA::cudart links.
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
message(STATUS "flashattn: CUDA backend ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, archs ${FLASHATTN_CUDA_ARCHS}, "
               "head_dim tiers ${FLASHATTN_HEAD_DIMS})")

set(_fa_known_tiers 32 64 96 128 160 192 224 256)
set(_fa_cuda_sources ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm80/launch.cu
                     ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/instantiations/registry.cu)
set(_fa_tier_defs)
foreach(tier IN LISTS FLASHATTN_HEAD_DIMS)
  if(NOT tier IN_LIST _fa_known_tiers)
    message(FATAL_ERROR "flashattn: FLASHATTN_HEAD_DIMS: unknown tier ${tier} (known: ${_fa_known_tiers})")
  endif()
  file(GLOB _fa_tier_files ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/instantiations/*_hdim${tier}.cu
                           ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/instantiations/*_hdim${tier}x*.cu)
  list(APPEND _fa_cuda_sources ${_fa_tier_files})
  list(APPEND _fa_tier_defs FLASHATTN_CUDA_HDIM_${tier}=1)
endforeach()

set(_fa_gencode)
foreach(arch IN LISTS FLASHATTN_CUDA_ARCHS)
  list(APPEND _fa_gencode "-gencode=arch=compute_${arch},code=sm_${arch}")
endforeach()

add_library(flashattn_cuda OBJECT ${_fa_cuda_sources})
target_include_directories(flashattn_cuda PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_compile_definitions(flashattn_cuda PRIVATE FLASHATTN_WITH_CUDA ${_fa_tier_defs})
target_compile_options(flashattn_cuda PRIVATE ${_fa_gencode} -O3 -lineinfo -Xcompiler=-Wall
                       $<$<BOOL:${FLASHATTN_CUDA_VERBOSE}>:-Xptxas=-v>)
set_target_properties(flashattn_cuda PROPERTIES POSITION_INDEPENDENT_CODE ON CUDA_STANDARD 17
                                                 CUDA_STANDARD_REQUIRED ON)
target_link_libraries(flashattn_cuda PRIVATE CUDA::cudart)

target_sources(flashattn PRIVATE $<TARGET_OBJECTS:flashattn_cuda>)
# flashattn was created before this file ran: its CUDA_ARCHITECTURES came from whatever the
# caller set (scikit-build can pass an empty one, which CMake rejects); the -gencode flags rule.
set_property(TARGET flashattn PROPERTY CUDA_ARCHITECTURES OFF)
target_compile_definitions(flashattn PRIVATE FLASHATTN_WITH_CUDA)
target_link_libraries(flashattn PUBLIC CUDA::cudart)

# The sm90 path (src/cuda/sm90: wgmma, TMA, setmaxnreg need sm_90a): built when the architectures
# include 90 (or 90a), for its tiers (64, 96, 128, 192, 256) among FLASHATTN_HEAD_DIMS (192 brings
# the head_dim 192 / head_dim_v 128 pair too).
if("90" IN_LIST FLASHATTN_CUDA_ARCHS OR "90a" IN_LIST FLASHATTN_CUDA_ARCHS)
  set(_fa_sm90_sources ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm90/launch.cu
                       ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm90/bwd_launch.cu)
  foreach(tier 64 96 128 192 256)
    if(tier IN_LIST FLASHATTN_HEAD_DIMS)
      list(APPEND _fa_sm90_sources ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm90/fwd_bf16_hdim${tier}.cu
                                   ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm90/fwd_fp16_hdim${tier}.cu)
      if(tier EQUAL 192)
        list(APPEND _fa_sm90_sources ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm90/fwd_bf16_hdim192_128.cu
                                     ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm90/fwd_fp16_hdim192_128.cu)
      endif()
      if(NOT tier EQUAL 96)  # the sm90 backward: tiers 64, 128, 192 (experimental), 256
        list(APPEND _fa_sm90_sources ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm90/bwd_bf16_hdim${tier}.cu
                                     ${CMAKE_CURRENT_SOURCE_DIR}/src/cuda/sm90/bwd_fp16_hdim${tier}.cu)
      endif()
    endif()
  endforeach()
  add_library(flashattn_cuda90 OBJECT ${_fa_sm90_sources})
  target_include_directories(flashattn_cuda90 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_compile_definitions(flashattn_cuda90 PRIVATE FLASHATTN_WITH_CUDA FLASHATTN_WITH_SM90 ${_fa_tier_defs})
  target_compile_options(flashattn_cuda90 PRIVATE -gencode=arch=compute_90a,code=sm_90a -O3 -lineinfo
                         -Xcompiler=-Wall $<$<BOOL:${FLASHATTN_CUDA_VERBOSE}>:-Xptxas=-v>)
  set_target_properties(flashattn_cuda90 PROPERTIES POSITION_INDEPENDENT_CODE ON CUDA_STANDARD 17
                                                    CUDA_STANDARD_REQUIRED ON)
  target_link_libraries(flashattn_cuda90 PRIVATE CUDA::cudart)
  target_sources(flashattn PRIVATE $<TARGET_OBJECTS:flashattn_cuda90>)
  target_compile_definitions(flashattn PRIVATE FLASHATTN_WITH_SM90)
  if(FLASHATTN_BUILD_TESTS)
    # The building blocks in isolation (TMA swizzle, wgmma SS and RS descriptors): a diagnostic.
    add_executable(flashattn_sm90_probe ${CMAKE_CURRENT_SOURCE_DIR}/tests/cuda/sm90_probe.cu)
    target_include_directories(flashattn_sm90_probe PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include
                                                            ${CMAKE_CURRENT_SOURCE_DIR}/src)
    target_compile_options(flashattn_sm90_probe PRIVATE -gencode=arch=compute_90a,code=sm_90a)
    set_target_properties(flashattn_sm90_probe PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
    target_link_libraries(flashattn_sm90_probe PRIVATE flashattn CUDA::cudart)
  endif()
  message(STATUS "flashattn: sm90 path ON (sm_90a; the forward on H100/H200, FLASHATTN_DISABLE_SM90=1 turns it off)")
endif()

if(FLASHATTN_BUILD_TESTS)
  enable_testing()
  add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/tests/cuda ${CMAKE_CURRENT_BINARY_DIR}/tests/cuda)
endif()

# The GPU benchmark's timing program (bench/gpu_bench.py drives it; bench/GPU.md).
add_executable(flashattn_gpu_bench ${CMAKE_CURRENT_SOURCE_DIR}/bench/gpu/flashattn_gpu_bench.cc)
target_include_directories(flashattn_gpu_bench PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_link_libraries(flashattn_gpu_bench PRIVATE flashattn CUDA::cudart ${CMAKE_DL_LIBS})  # (dlopen: NVML's energy counter)

# Tile-shape tuning (bench/gpu/tune_sm80.cu): each variant gets its own translation unit so
# they compile in parallel. Off by default; tools/gpu-check turns it on.
option(FLASHATTN_CUDA_TUNING "Build flashattn_tune_sm80, the tile-shape comparison" OFF)
# A regex on the variant names below keeps only those that match (e.g. "d128" for one tier: keep
# its default, the baseline of max|diff|); empty: all. tools/gpu-check passes TUNE_FILTER.
set(FLASHATTN_TUNE_FILTER "" CACHE STRING "Regex: the tuning variants to build (empty: all)")
if(FLASHATTN_CUDA_TUNING)
  # name | fwd or bwd | head_dim | config (the first of each head_dim and pass is the tier default)
  set(_fa_tune_variants
      "fwd d64 default|fwd|64|FwdConfig<64, 64>"
      "fwd d64 padded|fwd|64|FwdConfig<64, 64, 0, 0, -1, 0, -1, 0>"
      "fwd d96 default|fwd|96|FwdConfig<96, 96>"
      "fwd d128 default|fwd|128|FwdConfig<128, 128>"
      "fwd d128 no skip|fwd|128|FwdConfig<128, 128, 4, 64, 1, 0, 0>"
      "fwd d128 padded|fwd|128|FwdConfig<128, 128, 0, 0, -1, 0, -1, 0>"
      "fwd d160 default|fwd|160|FwdConfig<160, 160>"
      "fwd d192 default|fwd|192|FwdConfig<192, 192>"
      "fwd d192 padded|fwd|192|FwdConfig<192, 192, 0, 0, -1, 0, -1, 0>"
      "fwd d192 w8 m128 (old)|fwd|192|FwdConfig<192, 192, 8, 64, 0, 128, 0, 0>"
      "fwd d224 default|fwd|224|FwdConfig<224, 224>"
      "fwd d256 default|fwd|256|FwdConfig<256, 256>"
      "fwd d256 padded|fwd|256|FwdConfig<256, 256, 0, 0, -1, 0, -1, 0>"
      "fwd d256 w8 m128 (old)|fwd|256|FwdConfig<256, 256, 8, 64, 0, 128, 0, 0>"
      "fwd d256 w8 m128 swizzle|fwd|256|FwdConfig<256, 256, 8, 64, 0, 128, 0>"
      "bwd d64 default|bwd|64|BwdConfig<64, 64, 128, 0, 128>"
      "bwd d64 STS|bwd|64|BwdConfig<64, 64, 128, 0, 128, -1, 0>"
      "bwd d64 split|bwd|64|BwdConfig<64, 64, 128, 0, 128, -1, -1, 1>"
      "bwd d64 padded|bwd|64|BwdConfig<64, 64, 128, 0, 128, 0>"
      "bwd d64 1stage|bwd|64|BwdConfig<64, 64, 128, 1, 128>"
      "bwd d32 default|bwd|32|BwdConfig<32, 32, 128, 0, 128>"
      "bwd d32 STS|bwd|32|BwdConfig<32, 32, 128, 0, 128, -1, 0>"
      "bwd d128 default|bwd|128|BwdConfig<128, 128>"
      "bwd d128 old order|bwd|128|BwdConfig<128, 128, 0, 0, 0, -1, -1, 0>"
      "bwd d128 split stmatrix|bwd|128|BwdConfig<128, 128, 0, 0, 0, -1, 1>"
      "bwd d128 padded|bwd|128|BwdConfig<128, 128, 0, 0, 0, 0>"
      "bwd d128 1stage|bwd|128|BwdConfig<128, 128, 0, 1>"
      "bwd d128 n64 (99 KB GPUs)|bwd|128|BwdConfig<128, 128, 64>"
      "bwd d128 n64 padded|bwd|128|BwdConfig<128, 128, 64, 0, 0, 0>"
      "bwd d160 default|bwd|160|BwdConfig<160, 160>"
      "bwd d160 stmatrix|bwd|160|BwdConfig<160, 160, 0, 0, 0, -1, 1>"
      "bwd d160 old|bwd|160|BwdConfig<160, 160, 0, 0, 0, -1, 0, 0>"
      "bwd d192 default|bwd|192|BwdConfig<192, 192>"
      "bwd d192 stmatrix|bwd|192|BwdConfig<192, 192, 0, 0, 0, -1, 1>"
      "bwd d192 old|bwd|192|BwdConfig<192, 192, 0, 0, 0, -1, 0, 0>"
      "bwd d256 default|bwd|256|BwdConfig<256, 256>"
      "bwd d256 STS|bwd|256|BwdConfig<256, 256, 0, 0, 0, -1, 0>"
      "bwd d256 old|bwd|256|BwdConfig<256, 256, 0, 0, 0, -1, 0, 0>"
      "bwd d256 padded|bwd|256|BwdConfig<256, 256, 0, 0, 0, 0>"
      "bwd d256 1stage|bwd|256|BwdConfig<256, 256, 0, 1>")
  set(_fa_tune_dir ${CMAKE_CURRENT_BINARY_DIR}/tune)
  set(_fa_tune_sources ${CMAKE_CURRENT_SOURCE_DIR}/bench/gpu/tune_sm80.cu)
  set(_fa_tune_decls "")
  set(_fa_tune_list "")
  set(_i 0)
  foreach(variant IN LISTS _fa_tune_variants)
    string(REPLACE "|" ";" _parts "${variant}")
    list(GET _parts 0 _name)
    list(GET _parts 1 _dir)
    list(GET _parts 2 _d)
    list(GET _parts 3 _cfg)
    if(FLASHATTN_TUNE_FILTER AND NOT _name MATCHES "${FLASHATTN_TUNE_FILTER}")
      continue()
    endif()
    if(_dir STREQUAL "bwd")
      set(_bwd true)
    else()
      set(_bwd false)
    endif()
    file(CONFIGURE OUTPUT ${_fa_tune_dir}/tune_variant_${_i}.cu CONTENT
         "// Generated by cmake/cuda.cmake (FLASHATTN_CUDA_TUNING).\n#include \"tune_common.cuh\"\nTuneEntry tune_entry_${_i}() {\n  using C = flashattn::cuda::sm80::${_cfg};\n  return {\"${_name}\", ${_bwd}, ${_d}, C::kSmemBytes, &tune_${_dir}_launch<C>};\n}\n")
    list(APPEND _fa_tune_sources ${_fa_tune_dir}/tune_variant_${_i}.cu)
    string(APPEND _fa_tune_decls "TuneEntry tune_entry_${_i}();\n")
    string(APPEND _fa_tune_list "tune_entry_${_i}(), ")
    math(EXPR _i "${_i} + 1")
  endforeach()
  file(CONFIGURE OUTPUT ${_fa_tune_dir}/tune_entries.inc CONTENT
       "// Generated by cmake/cuda.cmake (FLASHATTN_CUDA_TUNING).\n${_fa_tune_decls}const TuneEntry kTuneEntries[] = {${_fa_tune_list}};\n")
  add_executable(flashattn_tune_sm80 ${_fa_tune_sources})
  target_include_directories(flashattn_tune_sm80 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src
                             ${CMAKE_CURRENT_SOURCE_DIR}/bench/gpu ${_fa_tune_dir})
  target_compile_options(flashattn_tune_sm80 PRIVATE ${_fa_gencode} -O3 -lineinfo)
  target_compile_definitions(flashattn_tune_sm80 PRIVATE FLASHATTN_WITH_CUDA)
  set_target_properties(flashattn_tune_sm80 PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
  target_link_libraries(flashattn_tune_sm80 PRIVATE flashattn CUDA::cudart)
endif()
