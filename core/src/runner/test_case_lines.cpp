#include "krino/core/runner/test_case_lines.hpp"

#include <string>

namespace krino::core {

DatasetRecord TestCaseLines::next() {
  DatasetRecord record;
  while (std::getline(in_, record.bytes)) {
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
