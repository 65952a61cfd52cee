#pragma once
// What is left of a process krino started: the exec task's tests check that nothing is (no live
// process, no unreaped child).
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>

namespace krino::test {

// Whether `pid` names a live process (a zombie waiting for its parent counts as gone).
inline bool process_alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  // The process may be reaped while this reads: a failed read means gone.
  std::FILE* stat = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (stat == nullptr) return false;
  char buffer[512];
  const std::size_t size = std::fread(buffer, 1, sizeof(buffer), stat);
  const bool failed = std::ferror(stat) != 0;
  std::fclose(stat);
  if (failed || size == 0) return false;
  const std::string text(buffer, size);
  const auto paren = text.rfind(')');
  return paren == std::string::npos || paren + 2 >= text.size() || text[paren + 2] != 'Z';
}

// Waits up to `limit` for `pid` to be gone.
inline bool gone_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (process_alive(pid)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// True when this process has no child at all, running or unreaped.
inline bool no_children() {
  int status = 0;
  return ::waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD;
}

}  // namespace krino::test
