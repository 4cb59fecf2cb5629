// A stall guard for the GUI monkey: when neither an act nor a turn of the test's own event loop
// has been seen for a while, the GUI thread is stuck (a deadlock, a blocking wait on the simulation
// thread, an endless computation, or nested event loops that never end). Then it prints the last
// acts and every thread's stack and aborts, so a CI log says what hung instead of only "Timeout". A
// crash (SIGSEGV, SIGBUS) prints the last acts and the crashing stack the same way. Linux only
// (tgkill, execinfo).
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace articula {

class StallGuard {
 public:
  explicit StallGuard(double seconds);  // starts watching
  ~StallGuard();
  StallGuard(const StallGuard&) = delete;
  StallGuard& operator=(const StallGuard&) = delete;

  void record(std::string act);          // remembers the act (the last 40 are kept)
  void beat();                           // the test's event loop turned now
  void stop();                           // stops watching (idempotent)
  void print_acts(const char* heading);  // to stderr, oldest first

 private:
  using Clock = std::chrono::steady_clock;
  void watch();
  void report();

  double seconds_;
  Clock::time_point start_ = Clock::now();
  std::atomic<Clock::rep> last_beat_;
  std::atomic<bool> stopped_{false};
  std::mutex mutex_;
  std::deque<std::string> acts_;  // "t=12.345 s: click ..." newest last; guarded by mutex_
  std::thread watcher_;
};

}  // namespace articula
