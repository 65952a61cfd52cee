#pragma once
// Test cases given directly, one krino.testcase/1 object a line (`krino eval`'s input): the record
// source the runner reads instead of a dataset when there is no task. Blank lines are skipped; every
// other line is one record, numbered by its line so that results and errors can name it.
#include "krino/core/runner/dataset_stream.hpp"

#include <cstdint>
#include <functional>
#include <istream>

namespace krino::core {

class TestCaseLines {
 public:
  // `in` must outlive this object. `idle`, when set, hears true before a read that would wait for
  // more input (nothing is buffered and nothing has arrived), and false once a line has come again.
  explicit TestCaseLines(std::istream& in, std::function<void(bool)> idle = {}) : in_(in), idle_(std::move(idle)) {}

  // [serial] The next non-blank line as a record (its index the zero-based line number), or the end.
  DatasetRecord next();

 private:
  std::istream& in_;
  std::function<void(bool)> idle_;
  bool waiting_ = false;  // idle_ was told true last
  uint64_t line_ = 0;  // lines read so far
};

}  // namespace krino::core
