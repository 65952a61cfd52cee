#include "exit_guard.hpp"

#include "exit_codes.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace krino::cli {
namespace {

std::atomic<bool> run_in_progress{false};

// Runs when anything calls exit(): handlers run in the reverse order of their registration, so one
// registered when the guard starts (after the plugins are loaded) runs before theirs.
void refuse_exit_during_run() {
  if (!run_in_progress.load()) return;
  const char message[] =
      "krino: the process was ended by exit() from inside a plugin while the run was in progress; "
      "the run did not finish and its reports are incomplete\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(kRuntimeError);
}

}  // namespace

ExitGuard::ExitGuard() {
  static const bool registered = std::atexit(refuse_exit_during_run) == 0;
  (void)registered;
  run_in_progress.store(true);
}

ExitGuard::~ExitGuard() { run_in_progress.store(false); }

}  // namespace krino::cli
