#pragma once
// The exec task: the system under test is a program (docs/tasks/exec.md). Per example, a process
// gets the example as JSON on stdin and prints its reply on stdout; in worker mode, persistent
// processes answer one JSON line per request line. A timeout, a failure exit, a signal, output that
// is not a reply, or a worker that dies, hangs or answers garbage becomes that item's error (with
// the end of the program's stderr), and the run goes on.
//
// Every wait (for a process, a reply, a free worker) suspends the calling TBB task, so `parallelism`
// programs in flight hold no scheduler thread. Usable as an inner task (the conversation task calls
// it once per turn).
#include "krino/core/task/exec_options.hpp"
#include "krino/core/task/task.hpp"
#include "krino/core/task/task_factory.hpp"

#include <atomic>
#include <memory>

namespace krino::core {

class WorkerPool;

class ExecTask final : public Task {
 public:
  // Throws a configuration error naming the option at fault. With `raw_replies` (a trace extractor
  // reads the output), a program's JSON (or its envelope's actualOutputs) is handed over as it is,
  // whatever its type, instead of becoming actual outputs.
  ExecTask(const TaskConfig& config, const TaskEnvironment& environment, bool raw_replies = false);
  // Shuts the workers down: closes their stdin, waits kill_grace, then stops what is left.
  ~ExecTask() override;

  TaskResult run(const ExampleView& example, const krino_call_context& ctx) const override;
  bool calls_out() const override { return true; }
  const char* kind() const override { return "exec"; }

  const ExecOptions& options() const noexcept { return options_; }
  // Worker processes started so far (replacements included); 0 in per-example mode.
  std::size_t workers_started() const;

 private:
  TaskResult run_per_example(const std::string& example, const krino_call_context& ctx) const;
  TaskResult run_on_worker(const std::string& example, const krino_call_context& ctx) const;
  ItemError error(krino_status code, std::string message) const;

  ExecOptions options_;
  const TaskEnvironment environment_;
  bool raw_replies_ = false;
  std::unique_ptr<WorkerPool> pool_;
  mutable std::atomic<std::uint64_t> next_request_id_{1};
};

}  // namespace krino::core
