#pragma once
// `krino eval`'s output: for every finished item, in input order, one line: its eval result
// (krino.evalresult/1) as the evaluator wrote it, or {"line": N, "error": {"code": ..., "message": ...}}
// with N its line in the input. Lines are written in blocks; finish() writes the rest.
#include "krino/core/runner/experiment_runner.hpp"

#include <cstdio>
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

  // Whether every item so far passed (true when there was none).
  bool all_passed() const { return all_passed_; }

 private:
  std::FILE* out_;
  std::string buffer_;
  bool all_passed_ = true;
};

}  // namespace krino::core
