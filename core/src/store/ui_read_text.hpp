#pragma once
// Text both backends write the same way for what the web UI reads (internal to store).
#include "krino/core/store/store_types.hpp"

#include <krino/json_text.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::store::ui_text {

// A LIKE / ILIKE pattern (escape character '\') matching documents that contain `word` as it is
// written inside a JSON string: the word is JSON-escaped first, so a quote or a backslash in the
// search finds the escaped one in the document; % and _ match themselves.
inline std::string contains_pattern(std::string_view word) {
  std::string escaped;
  krino::json::append_json_string(escaped, word);
  std::string pattern = "%";
  for (std::size_t i = 1; i + 1 < escaped.size(); ++i) {  // without the quotes
    const char c = escaped[i];
    if (c == '%' || c == '_' || c == '\\') pattern += '\\';
    pattern += c;
  }
  pattern += '%';
  return pattern;
}

// An evaluator's buckets as kept: their counts separated by commas.
inline std::string buckets_text(const std::vector<std::int64_t>& buckets) {
  std::string text;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(buckets[i]);
  }
  return text;
}

inline std::vector<std::int64_t> parse_buckets(std::string_view text) {
  std::vector<std::int64_t> buckets(kScoreBuckets, 0);
  std::size_t at = 0;
  for (std::size_t b = 0; b < buckets.size() && at <= text.size(); ++b) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    std::from_chars(text.data() + at, text.data() + end, buckets[b]);
    at = end + 1;
  }
  return buckets;
}

}  // namespace krino::core::store::ui_text
