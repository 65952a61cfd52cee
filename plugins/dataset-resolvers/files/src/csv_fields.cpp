#include "csv_fields.hpp"

#include <krino/plugin.hpp>

namespace krino::files {

void split_csv_fields(std::string_view row, char delimiter, std::vector<std::string>& fields) {
  fields.clear();
  const auto is_blank = [delimiter](char c) { return (c == ' ' || c == '\t') && c != delimiter; };
  size_t i = 0;
  for (;;) {
    while (i < row.size() && is_blank(row[i])) ++i;
    std::string& field = fields.emplace_back();
    if (i < row.size() && row[i] == '"') {
      ++i;
      for (;;) {
        const size_t quote = row.find('"', i);
        if (quote == std::string_view::npos)
          throw invalid_argument("field " + std::to_string(fields.size()) + " opens a quote that never closes");
        field.append(row.substr(i, quote - i));
        i = quote + 1;
        if (i < row.size() && row[i] == '"') {
          field.push_back('"');
          ++i;
          continue;
        }
        break;
      }
      while (i < row.size() && is_blank(row[i])) ++i;
      if (i == row.size()) return;
      if (row[i] != delimiter)
        throw invalid_argument("field " + std::to_string(fields.size()) + " has text after its closing quote");
      ++i;
      continue;
    }
    const size_t end = row.find(delimiter, i);
    std::string_view text = row.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
    field.assign(text);
    if (end == std::string_view::npos) return;
    i = end + 1;
  }
}

}  // namespace krino::files
