// The flashattn command: `bench`, `version`, `help`. Exit status: 0 success, 1 library or
// runtime error, 2 usage error, 3 a benchmark result failed its check.
#include <omp.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/bench.h"
#include "flashattn/flashattn.h"

namespace {

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int usage_error(const std::string& message) {
  std::fprintf(stderr, "flashattn: %s\n\n%s", message.c_str(), flashattn::cli::usage_text());
  return kExitUsage;
}

int print_version() {
  using flashattn::Backend;
  std::printf("flashattn %s\n", FLASHATTN_VERSION);
  std::printf("backends: cpu%s (default: %s)\n", flashattn::backend_available(Backend::Cuda) ? ", cuda" : "",
              flashattn::backend_name(flashattn::default_backend()));
  std::printf("cpu threads: %d\n", omp_get_num_procs());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("missing command");
  const std::string& command = args[0];
  try {
    if (command == "help" || command == "--help" || command == "-h") {
      std::fputs(flashattn::cli::usage_text(), stdout);
      return 0;
    }
    if (command == "version" || command == "--version") {
      if (args.size() > 1) return usage_error("version takes no arguments");
      return print_version();
    }
    if (command == "bench") {
      const std::vector<std::string> rest(args.begin() + 1, args.end());
      for (const std::string& a : rest)
        if (a == "--help" || a == "-h") {
          std::fputs(flashattn::cli::usage_text(), stdout);
          return 0;
        }
      return flashattn::cli::run_bench(flashattn::cli::parse_bench_args(rest));
    }
    return usage_error("unknown command '" + command + "'");
  } catch (const flashattn::cli::UsageError& e) {
    return usage_error(e.what());
  } catch (const flashattn::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kExitError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "flashattn: out of memory\n");
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flashattn: %s\n", e.what());
    return kExitError;
  }
}
