#include "csv_columns.hpp"

#include <krino/plugin.hpp>

#include <string_view>
#include <unordered_map>

namespace krino::files {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

std::vector<CsvColumn> read_csv_columns(const std::vector<std::string>& header, const std::string& path) {
  std::vector<CsvColumn> columns;
  columns.reserve(header.size());
  std::unordered_map<std::string, size_t> seen;  // lowercased name -> 1-based column
  bool has_input = false;
  bool has_expected = false;
  bool has_actual = false;
  std::string listing;
  for (const std::string& raw : header) {
    const std::string name(trim(raw));
    listing += (listing.empty() ? "" : ", ") + name;
    if (name.empty()) {
      columns.push_back({CsvRole::ignored, name});
      continue;
    }
    const std::string key = lowercase(name);
    if (auto [it, inserted] = seen.emplace(key, columns.size() + 1); !inserted) {
      throw invalid_argument("'" + path + "': columns " + std::to_string(it->second) + " and " +
                             std::to_string(columns.size() + 1) + " are both named '" + name + "'");
    }
    CsvRole role = CsvRole::metadata;
    if (key == "input") {
      role = CsvRole::input;
      has_input = true;
    } else if (key == "id") {
      role = CsvRole::id;
    } else if (!has_expected && (key == "expectedoutput" || key == "expected_output" || key == "output")) {
      role = CsvRole::expected_output;
      has_expected = true;
    } else if (!has_actual && (key == "actualoutput" || key == "actual_output")) {
      role = CsvRole::actual_output;
      has_actual = true;
    }
    columns.push_back({role, name});
  }
  if (!has_input)
    throw invalid_argument("'" + path + "' has no 'input' column (header: " + listing + ")");
  return columns;
}

}  // namespace krino::files
