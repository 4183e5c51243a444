// `flashattn bench`: times flashattn (and the naive materialized baseline) on random inputs,
// reports throughput and memory, and checks the results against the double reference.
#pragma once

#include "cli/args.h"

namespace flashattn::cli {

// Runs the benchmark and prints its report (or JSON) on stdout. Returns the exit status: 0, or
// 3 when a result failed its check. Throws flashattn::Error for arguments the library rejects
// and std::runtime_error / std::bad_alloc for what the machine cannot do.
int run_bench(const BenchConfig& config);

}  // namespace flashattn::cli
