// "path:line" strings for the location of a record and for error messages. The path is the one
// the user wrote (after the file: prefix), so messages point at a file they recognise.
#ifndef KRINO_FILES_SOURCE_LOCATION_HPP
#define KRINO_FILES_SOURCE_LOCATION_HPP

#include <charconv>
#include <cstdint>
#include <string>

namespace krino::files {

class SourceLocation {
 public:
  explicit SourceLocation(const std::string& path) : prefix_(path + ":") {}

  // Writes "path:line" into `out`, reusing its storage.
  void format(uint64_t line, std::string& out) const {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, line).ptr;
    out.reserve(prefix_.size() + static_cast<size_t>(end - digits));
    out.assign(prefix_);
    out.append(digits, end);
  }

  std::string at(uint64_t line) const {
    std::string out;
    format(line, out);
    return out;
  }

 private:
  std::string prefix_;
};

}  // namespace krino::files

#endif  // KRINO_FILES_SOURCE_LOCATION_HPP
