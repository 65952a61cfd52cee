// Compares text with a fixed literal, exactly or ignoring case.
#ifndef KRINO_TEXT_LITERAL_MATCHER_H
#define KRINO_TEXT_LITERAL_MATCHER_H

#include <krino/support/pcre2_regex.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace krino::text {

// Case-insensitive comparison uses Unicode simple case folding (through PCRE2), so "École" equals
// "éCOLE"; it does not expand "ß" to "ss". Compile once, compare many times; when the literal and
// the text are both ASCII the comparison needs no regex (the same answer, see literal_matcher.cpp).
class LiteralMatcher {
 public:
  LiteralMatcher(std::string literal, bool ignore_case);

  const std::string& literal() const { return literal_; }
  bool equals(std::string_view text) const;
  bool found_in(std::string_view text) const;

  // One caseless comparison with a literal known only now (a test case's expected output): no
  // pattern is compiled when both texts are ASCII, which a LiteralMatcher made per call would.
  static bool caseless_equals(std::string_view literal, std::string_view text);
  static bool caseless_found_in(std::string_view literal, std::string_view text);

 private:
  std::string literal_;
  std::optional<Pcre2Regex> caseless_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_LITERAL_MATCHER_H
