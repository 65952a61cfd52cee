#include "result_pattern.h"

#include <krino/plugin.hpp>

#include <utility>

namespace krino::agent {

namespace {

// Results come from JSON text, so they are UTF-8: the pattern is a full (not literal), case-sensitive
// Unicode regular expression.
Pcre2Regex compile_result_pattern(const std::string& pattern, const std::string& where) {
  try {
    return Pcre2Regex(pattern, Pcre2Regex::Options{});
  } catch (const Error& e) {
    throw invalid_argument(where + ": " + e.what());
  }
}

}  // namespace

ResultPattern::ResultPattern(std::string pattern, const std::string& where)
    : pattern_(std::move(pattern)), where_(where), regex_(compile_result_pattern(pattern_, where_)) {}

bool ResultPattern::found_in(std::string_view text) const {
  const RegexSearch search = regex_.search(text);
  if (search.failure)
    throw invalid_argument(where_ + ": the regular expression could not be searched in a result: " + *search.failure);
  return search.match.has_value();
}

}  // namespace krino::agent
