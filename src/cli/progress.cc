// The progress line: the label, its detail and the seconds elapsed in the phase.
#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace flashattn::cli {
namespace {
constexpr double kShowAfterSeconds = 2.0;
constexpr auto kRedrawPeriod = std::chrono::milliseconds(250);
}  // namespace

Progress::Progress() : enabled_(isatty(STDERR_FILENO) == 1) {
  if (enabled_) ticker_ = std::thread([this] { tick(); });
}

Progress::~Progress() {
  if (!enabled_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    erase_locked();
  }
  wake_.notify_all();
  ticker_.join();
}

void Progress::phase(const std::string& label) {
  std::lock_guard<std::mutex> lock(mutex_);
  erase_locked();
  label_ = label;
  detail_.clear();
  start_ = Clock::now();
  active_ = true;
}

void Progress::detail(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  detail_ = text;
}

void Progress::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  erase_locked();
  active_ = false;
}

void Progress::erase_locked() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

void Progress::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, kRedrawPeriod);
    if (stop_ || !active_) continue;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    if (seconds < kShowAfterSeconds) continue;
    std::fprintf(stderr, "\r\033[K%s%s%s  %.0f s", label_.c_str(), detail_.empty() ? "" : ": ",
                 detail_.c_str(), seconds);
    std::fflush(stderr);
    shown_ = true;
  }
}

}  // namespace flashattn::cli
