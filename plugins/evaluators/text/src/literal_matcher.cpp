#include "literal_matcher.h"

#include <utility>

namespace krino::text {

LiteralMatcher::LiteralMatcher(std::string literal, bool ignore_case) : literal_(std::move(literal)) {
  if (ignore_case) caseless_.emplace(literal_, Pcre2Regex::Options{true, true});
}

bool LiteralMatcher::equals(std::string_view text) const {
  if (!caseless_) return text == literal_;
  return caseless_->find(text, true).has_value();
}

bool LiteralMatcher::found_in(std::string_view text) const {
  if (!caseless_) return text.find(literal_) != std::string_view::npos;
  return caseless_->find(text).has_value();
}

}  // namespace krino::text
