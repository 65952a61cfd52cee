#pragma once
// Reading JSON Lines in tests: every line one object (a malformed line throws, failing the test).
#include <boost/json.hpp>

#include <fstream>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

namespace krino::test {

inline std::vector<boost::json::object> json_lines_from(std::istream& in) {
  std::vector<boost::json::object> out;
  std::string line;
  while (std::getline(in, line)) out.push_back(boost::json::parse(line).as_object());
  return out;
}

// The objects of the file at `path`.
inline std::vector<boost::json::object> json_lines(const std::string& path) {
  std::ifstream in(path);
  return json_lines_from(in);
}

// The objects of `text`, one per line.
inline std::vector<boost::json::object> json_lines_of(const std::string& text) {
  std::istringstream in(text);
  return json_lines_from(in);
}

}  // namespace krino::test
