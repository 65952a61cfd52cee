#pragma once
// How a child process ended, as waitpid reports it, and the words an item error uses for it.
#include <string>

namespace krino::core {

class ExitStatus {
 public:
  ExitStatus() = default;
  // `wait_status` as waitpid() fills it.
  static ExitStatus from_wait_status(int wait_status) noexcept;

  bool known() const noexcept { return known_; }
  bool exited() const noexcept;     // called exit() (or returned from main)
  int exit_code() const noexcept;   // valid when exited()
  bool signalled() const noexcept;  // killed by a signal
  int signal() const noexcept;      // valid when signalled()
  bool success() const noexcept { return exited() && exit_code() == 0; }

  // "exit status 3", "killed by signal 9 (SIGKILL)", "an unknown status" before the exit is known.
  std::string describe() const;
  // The same as a predicate: "exited with status 3", "was killed by signal 9 (SIGKILL)".
  std::string how_it_ended() const;

 private:
  bool known_ = false;
  int wait_status_ = 0;
};

}  // namespace krino::core
