# Runs PROGRAM with ARGS ('|'-separated) and fails unless it exits with EXPECTED; prints the
# program's output on failure. Used by tests/cli/CMakeLists.txt.
string(REPLACE "|" ";" arg_list "${ARGS}")
execute_process(COMMAND "${PROGRAM}" ${arg_list} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "flashattn ${arg_list}: exit status ${rc}, expected ${EXPECTED}\n"
                      "stdout:\n${out}\nstderr:\n${err}")
endif()
message(STATUS "flashattn ${arg_list}: exit status ${rc} as expected")
