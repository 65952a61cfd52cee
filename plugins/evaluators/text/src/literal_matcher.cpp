#include "literal_matcher.h"

#include <algorithm>
#include <utility>

namespace krino::text {
namespace {

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool ascii_same_letters(char a, char b) { return ascii_lower(a) == ascii_lower(b); }

// PCRE2's caseless match (Unicode simple case folding) of an ASCII text against an ASCII text is
// ASCII case folding: its other equivalences (K and the Kelvin sign, s and the long s, ...) each
// need a character outside ASCII on one side. So both ASCII: compared here, nothing compiled.
bool both_ascii(std::string_view literal, std::string_view text) { return is_ascii(literal) && is_ascii(text); }

}  // namespace

LiteralMatcher::LiteralMatcher(std::string literal, bool ignore_case) : literal_(std::move(literal)) {
  if (ignore_case) caseless_.emplace(literal_, Pcre2Regex::Options{true, true});
}

bool LiteralMatcher::equals(std::string_view text) const {
  if (!caseless_) return text == literal_;
  if (both_ascii(literal_, text)) return caseless_equals(literal_, text);
  return caseless_->find(text, true).has_value();
}

bool LiteralMatcher::found_in(std::string_view text) const {
  if (!caseless_) return text.find(literal_) != std::string_view::npos;
  if (both_ascii(literal_, text)) return caseless_found_in(literal_, text);
  return caseless_->find(text).has_value();
}

bool LiteralMatcher::caseless_equals(std::string_view literal, std::string_view text) {
  if (!both_ascii(literal, text)) return Pcre2Regex(literal, Pcre2Regex::Options{true, true}).find(text, true).has_value();
  return literal.size() == text.size() && std::equal(literal.begin(), literal.end(), text.begin(), ascii_same_letters);
}

bool LiteralMatcher::caseless_found_in(std::string_view literal, std::string_view text) {
  if (!both_ascii(literal, text)) return Pcre2Regex(literal, Pcre2Regex::Options{true, true}).find(text).has_value();
  // (The empty literal is found in every text, the empty one too, where search() answers its end.)
  return literal.empty() || std::search(text.begin(), text.end(), literal.begin(), literal.end(), ascii_same_letters) != text.end();
}

}  // namespace krino::text
