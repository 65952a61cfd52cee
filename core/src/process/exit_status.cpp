#include "krino/core/process/exit_status.hpp"

#include <cstring>
#include <sys/wait.h>

namespace krino::core {

ExitStatus ExitStatus::from_wait_status(int wait_status) noexcept {
  ExitStatus status;
  status.known_ = true;
  status.wait_status_ = wait_status;
  return status;
}

bool ExitStatus::exited() const noexcept { return known_ && WIFEXITED(wait_status_); }
int ExitStatus::exit_code() const noexcept { return WEXITSTATUS(wait_status_); }
bool ExitStatus::signalled() const noexcept { return known_ && WIFSIGNALED(wait_status_); }
int ExitStatus::signal() const noexcept { return WTERMSIG(wait_status_); }

std::string ExitStatus::describe() const {
  if (exited()) return "exit status " + std::to_string(exit_code());
  if (signalled()) {
    std::string text = "killed by signal " + std::to_string(signal());
    if (const char* name = ::sigabbrev_np(signal())) text += std::string(" (SIG") + name + ")";
    return text;
  }
  return "an unknown status";
}

std::string ExitStatus::how_it_ended() const {
  if (exited()) return "exited with status " + std::to_string(exit_code());
  if (signalled()) return "was " + describe();
  return "ended with an unknown status";
}

}  // namespace krino::core
