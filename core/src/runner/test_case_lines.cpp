#include "krino/core/runner/test_case_lines.hpp"

#include <string>

namespace krino::core {

DatasetRecord TestCaseLines::next() {
  DatasetRecord record;
  while (true) {
    // in_avail() is what is buffered, or what the descriptor says has arrived: 0 means the next
    // read waits (a pipe whose writer waits for our answers), -1 the end.
    if (idle_ && !waiting_ && in_.rdbuf()->in_avail() <= 0) {
      waiting_ = true;
      idle_(true);
    }
    if (!std::getline(in_, record.bytes)) break;
    if (waiting_) {
      waiting_ = false;
      idle_(false);
    }
    ++line_;
    if (record.bytes.find_first_not_of(" \t\r") != std::string::npos) {
      record.kind = DatasetRecord::Kind::record;
      record.index = line_ - 1;
      return record;
    }
  }
  record.bytes.clear();
  return record;  // Kind::end
}

}  // namespace krino::core
