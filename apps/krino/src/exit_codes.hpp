#pragma once
// The process exit codes of every krino command (docs/cli.md). Distinct so CI can tell them apart.
namespace krino::cli {

enum ExitCode : int {
  kSuccess = 0,           // ran, and the results meet the bar
  kEvaluationFailed = 1,  // ran, but items failed (pass rate under min_pass_rate), the gate failed, or lines failed
  kUsageError = 2,        // bad command line, experiment file or plugin options
  kRuntimeError = 3,      // could not finish: dataset unreadable, reporter failed, ...
  kInterrupted = 130      // stopped by Ctrl-C (SIGINT) or SIGTERM after flushing the reporters
};

}  // namespace krino::cli
