#include "csv_field.hpp"

#include <algorithm>
#include <set>

namespace krino::csv {

void append_field(std::string& out, std::string_view value) {
  const bool quote = value.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!value.empty() && (value.front() == ' ' || value.front() == '\t' || value.back() == ' ' ||
                                         value.back() == '\t'));
  if (!quote) {
    out.append(value.data(), value.size());
    return;
  }
  out += '"';
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

bool looks_like_formula(std::string_view value) {
  if (value.empty()) return false;
  const char first = value.front();
  return first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r';
}

void append_text_field(std::string& out, std::string_view value, bool formula_escape) {
  if (formula_escape && looks_like_formula(value)) {
    std::string escaped = "'";
    escaped.append(value.data(), value.size());
    append_field(out, escaped);
    return;
  }
  append_field(out, value);
}

std::string slug(std::string_view name) {
  std::string out;
  bool gap = false;
  for (char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    const bool alphanumeric = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9');
    if (!alphanumeric) {
      gap = true;
      continue;
    }
    if (gap && !out.empty()) out += '_';
    gap = false;
    out += static_cast<char>(byte >= 'A' && byte <= 'Z' ? byte - 'A' + 'a' : byte);
  }
  return out.empty() ? std::string("evaluator") : out;
}

std::vector<std::string> unique_slugs(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  std::set<std::string> taken;
  for (const auto& name : names) {
    const std::string stem = slug(name);
    std::string candidate = stem;
    for (int n = 2; taken.count(candidate) > 0; ++n) candidate = stem + "_" + std::to_string(n);
    taken.insert(candidate);
    out.push_back(std::move(candidate));
  }
  return out;
}

}  // namespace krino::csv
