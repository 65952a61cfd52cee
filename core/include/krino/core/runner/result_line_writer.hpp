#pragma once
// `krino eval`'s output: for every finished item, in input order, one line: its eval result
// (krino.evalresult/1) as the evaluator wrote it, or {"line": N, "error": {"code": ..., "message": ...}}
// with N its line in the input. Lines are written in blocks, or at once while the input waits for
// more (set_input_idle); finish() writes the rest.
#include "krino/core/runner/experiment_runner.hpp"

#include <cstdio>
#include <mutex>
#include <string>

namespace krino::core {

class ResultLineWriter final : public ExperimentRunner::Observer {
 public:
  // `out` must outlive the writer. Items must come from test cases given directly, whose index is
  // their zero-based line number.
  explicit ResultLineWriter(std::FILE* out) : out_(out) {}

  void on_run_started(const krino::event::RunStarted&) override {}
  void on_item(const krino::event::ItemFinished& item) override;

  // Writes what is buffered and flushes `out`.
  void finish();

  // [thread-safe] The input has nothing more to read for now (true), or has again (false). While it
  // is idle, what is buffered and every later line go out at once, so a program that writes a test
  // case and waits for its result (a coprocess) gets it; otherwise lines are written in blocks.
  void set_input_idle(bool idle);

  // Whether every item so far passed (true when there was none).
  bool all_passed() const { return all_passed_; }

 private:
  // Writes what is buffered to `out`, and flushes it when `flush`; with mutex_ held.
  void write_out_locked(bool flush);

  std::FILE* out_;
  std::mutex mutex_;  // the items' thread against the reader's (set_input_idle)
  std::string buffer_;
  bool input_idle_ = false;
  bool all_passed_ = true;
};

}  // namespace krino::core
