// A one-line progress display on stderr for phases that run longer than about two seconds.
// A ticker thread redraws the line ('\r') four times a second; it stays silent when stderr is not
// a terminal, so scripts that capture stderr get clean output.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace flashattn::cli {

class Progress {
 public:
  Progress();
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts a new phase: its clock restarts and nothing shows for its first two seconds.
  void phase(const std::string& label);
  // Replaces the detail shown after the label (e.g. "run 3/10"), keeping the phase clock.
  void detail(const std::string& text);
  // Ends the current phase and erases the line.
  void clear();

 private:
  void tick();
  void erase_locked();

  using Clock = std::chrono::steady_clock;
  bool enabled_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool active_ = false;
  bool shown_ = false;
  std::string label_, detail_;
  Clock::time_point start_;
  std::thread ticker_;
};

}  // namespace flashattn::cli
