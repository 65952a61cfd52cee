#pragma once
// Runs a command and measures its wall time and peak resident memory (wait4's ru_maxrss).
#include "test_paths.hpp"

#include <atomic>
#include <chrono>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#include <fcntl.h>

namespace krino::bench {

struct Measured {
  int exit_code = -1;
  double seconds = 0;
  double peak_rss_mb = 0;
  // CPU time of the child and of the processes it waited for (its workers): the figure to compare
  // on a shared machine, where wall time waits for other people's work.
  double user_seconds = 0;
  double system_seconds = 0;
};

inline std::string default_krino() { return std::string(KRINO_BINARY_DIR) + "/bin/krino"; }

// `child`, when given, receives the child's pid as soon as it exists (to signal a server that runs
// until told to stop).
inline Measured run_measured(const std::vector<std::string>& argv, bool quiet = true, std::atomic<pid_t>* child = nullptr) {
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid > 0 && child != nullptr) child->store(pid);
  if (pid == 0) {
    if (quiet) {
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      dup2(null, 2);  // per-item failure lines too: the figure is krino's, not the terminal's
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Measured m;
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
  m.user_seconds = static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
  m.system_seconds = static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6;
  return m;
}

}  // namespace krino::bench
