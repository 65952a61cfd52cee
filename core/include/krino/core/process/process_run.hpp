#pragma once
// One call of a per-example command: write the input to the child's stdin and close it, read
// stdout (bounded) and stderr (its tail) to their ends, wait for the exit; stop the whole process
// group on a timeout, on too much output, or when the run is cancelled.
//
// Threading: start() from any thread; `done` runs once, on the child's strand, never inside start().
#include "krino/core/process/child_process.hpp"
#include "krino/core/process/process_limits.hpp"
#include "krino/core/process/wake_timer.hpp"

#include <array>
#include <functional>
#include <memory>
#include <string>

namespace krino::core {

struct ProcessRunResult {
  enum class Ending {
    exited,            // the process ended by itself (with any status)
    timed_out,         // it ran past ProcessLimits::timeout and was stopped
    cancelled,         // the run was cancelled and it was stopped
    output_too_large,  // it wrote more than ProcessLimits::max_output_bytes and was stopped
  };
  Ending ending = Ending::exited;
  ExitStatus status;
  std::string output;       // stdout, at most max_output_bytes
  std::string stderr_tail;  // the last stderr_tail_bytes of stderr
  bool stderr_truncated = false;
  double elapsed_ms = 0;    // from the start of the process to its exit
};

class ProcessRun : public std::enable_shared_from_this<ProcessRun> {
 public:
  using Callback = std::function<void(ProcessRunResult)>;
  using Clock = std::chrono::steady_clock;

  // `started` is when the child was spawned (the latency includes its start-up).
  static void start(std::shared_ptr<ChildProcess> child, std::string input, const ProcessLimits& limits,
                    Clock::time_point started, Callback done);

 private:
  ProcessRun(std::shared_ptr<ChildProcess> child, std::string input, const ProcessLimits& limits,
             Clock::time_point started, Callback done);
  void begin();
  void read_output();
  void on_exit();
  void stop(ProcessRunResult::Ending why);
  void arm_timer();
  void on_timer();
  void close_pipes();
  void finish_if_done();

  std::shared_ptr<ChildProcess> child_;
  std::string input_;
  const ProcessLimits& limits_;
  Callback done_;
  Clock::time_point started_;
  Clock::time_point exited_at_;
  WakeTimer timer_;
  ProcessRunResult result_;
  std::array<char, 65536> output_chunk_;
  bool output_open_ = true;
  bool exited_ = false;
  bool finished_ = false;
};

}  // namespace krino::core
