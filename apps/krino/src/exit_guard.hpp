#pragma once
// While a run is in progress only krino decides how the process ends. A plugin that calls exit()
// (exit(0) inside an evaluator, say) would otherwise end it with that status and half-written
// reports, and a CI job would go green. Inside this guard's lifetime such an exit is turned into
// exit code 3 (kRuntimeError) with a message on stderr. _exit() and signals cannot be caught here;
// a crash already ends the process with a failing status.
namespace krino::cli {

class ExitGuard {
 public:
  ExitGuard();
  ~ExitGuard();
  ExitGuard(const ExitGuard&) = delete;
  ExitGuard& operator=(const ExitGuard&) = delete;
};

}  // namespace krino::cli
