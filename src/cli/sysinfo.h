// Facts about this process and machine, read from /proc: peak resident memory (VmHWM), free
// memory, the CPU model. Each function degrades to 0 or "unknown" where /proc lacks the field.
#pragma once

#include <cstddef>
#include <string>

namespace flashattn::cli {

// The process's peak resident set size in bytes (VmHWM of /proc/self/status), 0 if unknown.
std::size_t peak_rss_bytes();
// Its current resident set size (VmRSS), 0 if unknown.
std::size_t current_rss_bytes();
// Lowers the peak RSS to the current RSS (writes 5 to /proc/self/clear_refs, Linux >= 4.0), so
// that each phase of a run reports its own peak. False where the kernel refuses.
bool reset_peak_rss();
// MemAvailable of /proc/meminfo in bytes, 0 if unknown.
std::size_t mem_available_bytes();
// "model name" of /proc/cpuinfo, or "unknown".
std::string cpu_model();

}  // namespace flashattn::cli
