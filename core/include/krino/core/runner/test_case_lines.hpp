#pragma once
// Test cases given directly, one krino.testcase/1 object a line (`krino eval`'s input): the record
// source the runner reads instead of a dataset when there is no task. Blank lines are skipped; every
// other line is one record, numbered by its line so that results and errors can name it.
#include "krino/core/runner/dataset_stream.hpp"

#include <cstdint>
#include <istream>

namespace krino::core {

class TestCaseLines {
 public:
  // `in` must outlive this object.
  explicit TestCaseLines(std::istream& in) : in_(in) {}

  // [serial] The next non-blank line as a record (its index the zero-based line number), or the end.
  DatasetRecord next();

 private:
  std::istream& in_;
  uint64_t line_ = 0;  // lines read so far
};

}  // namespace krino::core
