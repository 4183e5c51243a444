// /proc readers for the benchmark's memory report.
#include "cli/sysinfo.h"

#include <fstream>
#include <sstream>

namespace flashattn::cli {
namespace {

// The number in a "Name:   123 kB" line of a /proc file, in bytes; 0 if absent.
std::size_t proc_kib_field(const char* file, const std::string& name) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, name.size(), name) != 0 || line.size() <= name.size() || line[name.size()] != ':')
      continue;
    std::istringstream fields(line.substr(name.size() + 1));
    std::size_t kib = 0;
    fields >> kib;
    return kib * 1024;
  }
  return 0;
}

}  // namespace

std::size_t peak_rss_bytes() { return proc_kib_field("/proc/self/status", "VmHWM"); }

std::size_t current_rss_bytes() { return proc_kib_field("/proc/self/status", "VmRSS"); }

bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return bool(out);
}

std::size_t mem_available_bytes() { return proc_kib_field("/proc/meminfo", "MemAvailable"); }

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    std::size_t begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? "unknown" : line.substr(begin);
  }
  return "unknown";
}

}  // namespace flashattn::cli
