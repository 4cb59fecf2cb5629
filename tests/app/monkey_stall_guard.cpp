#include "monkey_stall_guard.hpp"

#include <dirent.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace articula {

namespace {

StallGuard* g_guard = nullptr;  // the one watching, for the crash handler

// Runs on the signalled thread: its own stack, written with async-signal-safe calls only.
void print_stack(int) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  char head[64];
  const int len = std::snprintf(head, sizeof head, "--- thread %ld:\n", syscall(SYS_gettid));
  if (len > 0) (void)!write(STDERR_FILENO, head, static_cast<size_t>(len));
  backtrace_symbols_fd(frames, n, STDERR_FILENO);
}

// Every thread of this process but the caller prints its stack, one after the other.
void print_all_stacks() {
  const long self = syscall(SYS_gettid);
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return;
  while (dirent* e = readdir(dir)) {
    const long tid = std::strtol(e->d_name, nullptr, 10);
    if (tid <= 0 || tid == self) continue;
    syscall(SYS_tgkill, getpid(), tid, SIGUSR2);
    usleep(200000);  // lets that thread finish writing before the next starts
  }
  closedir(dir);
}

// A crash: the acts that led to it and the crashing thread's stack, then the default action (a
// core and the signal's exit status). Best effort, as anything after a SIGSEGV.
void on_crash(int sig) {
  if (g_guard) g_guard->print_acts("monkey: crashed; the last acts:\n");
  print_stack(sig);
  signal(sig, SIG_DFL);
  raise(sig);
}

void install(int sig, void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, nullptr);
}

}  // namespace

StallGuard::StallGuard(double seconds) : seconds_(seconds) {
  void* warm[1];
  backtrace(warm, 1);  // loads the unwinder now: the first call may allocate
  install(SIGUSR2, print_stack);
  g_guard = this;
  install(SIGSEGV, on_crash);  // replaces Catch's handler, which only names the signal
  install(SIGBUS, on_crash);
  beat();
  watcher_ = std::thread([this] { watch(); });
}

StallGuard::~StallGuard() {
  stop();
}

void StallGuard::record(std::string act) {
  const double t = std::chrono::duration<double>(Clock::now() - start_).count();
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "t=%.3f s: ", t);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    acts_.push_back(stamp + std::move(act));
    if (acts_.size() > 40) acts_.pop_front();
  }
}

void StallGuard::beat() {
  last_beat_ = Clock::now().time_since_epoch().count();
}

void StallGuard::stop() {
  stopped_ = true;
  if (watcher_.joinable()) watcher_.join();
  g_guard = nullptr;
}

void StallGuard::watch() {
  while (!stopped_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    const Clock::time_point last{Clock::duration(last_beat_.load())};
    if (std::chrono::duration<double>(Clock::now() - last).count() > seconds_) {
      report();
      std::abort();
    }
  }
}

void StallGuard::report() {
  char head[96];
  std::snprintf(head, sizeof head,
                "monkey: no act and no turn of the test's loop for %.1f s; the last acts:\n",
                seconds_);
  print_acts(head);
  print_all_stacks();
}

void StallGuard::print_acts(const char* heading) {
  std::fputs(heading, stderr);
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);  // a crash may hold it
  if (lock.owns_lock())
    for (const std::string& a : acts_) std::fprintf(stderr, "  %s\n", a.c_str());
  std::fflush(stderr);
}

}  // namespace articula
