// LiteralMatcher: caseless comparison answers exactly as PCRE2's caseless literal match, whether it
// takes the ASCII path (no pattern compiled) or the regex.
#include "literal_matcher.h"

#include <krino/support/pcre2_regex.hpp>

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace krino::text;
using krino::Pcre2Regex;

namespace {

bool regex_equals(const std::string& literal, const std::string& text) {
  return Pcre2Regex(literal, Pcre2Regex::Options{true, true}).find(text, true).has_value();
}
bool regex_found_in(const std::string& literal, const std::string& text) {
  return Pcre2Regex(literal, Pcre2Regex::Options{true, true}).find(text).has_value();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(literal_matcher)

BOOST_AUTO_TEST_CASE(caseless_answers_as_pcre2_does_on_ascii_and_unicode) {
  const std::vector<std::string> texts = {
      "", "a", "A", "Paris", "PARIS", "paris ", " paris", "par1s", "[a-z]+", "[A-Z]+", "a.b", "A.B", "@[`{", "`{@[",
      "k", "K", "\xE2\x84\xAA" /* KELVIN SIGN */, "s", "S", "\xC5\xBF" /* LONG S */, "\xC3\x89" "cole", "\xC3\xA9" "COLE",
      "stra\xC3\x9F" "e", "STRASSE", "tab\there", "TAB\tHERE", std::string("nul\0x", 5), std::string("NUL\0X", 5),
      "The capital is Paris.", "THE CAPITAL IS PARIS.", "ok", "OK \xE2\x84\xAA", "\xCE\xA3\xCE\xB9", "\xCF\x83\xCE\xB9",
  };
  for (const std::string& literal : texts) {
    const LiteralMatcher matcher(literal, true);
    for (const std::string& text : texts) {
      BOOST_TEST(LiteralMatcher::caseless_equals(literal, text) == regex_equals(literal, text), literal << " = " << text);
      BOOST_TEST(matcher.equals(text) == regex_equals(literal, text), literal << " = " << text);
      BOOST_TEST(LiteralMatcher::caseless_found_in(literal, text) == regex_found_in(literal, text), literal << " in " << text);
      BOOST_TEST(matcher.found_in(text) == regex_found_in(literal, text), literal << " in " << text);
    }
  }
  BOOST_TEST(LiteralMatcher::caseless_equals("k", "\xE2\x84\xAA"));   // Unicode's equivalences still hold
  BOOST_TEST(LiteralMatcher::caseless_equals("Paris", "pARIS"));
  BOOST_TEST(!LiteralMatcher::caseless_equals("[a-z]", "b"));          // a literal, not a pattern
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_refused_as_before) {
  BOOST_CHECK_THROW(LiteralMatcher::caseless_equals("\xC3", "x"), std::exception);
  BOOST_CHECK_THROW(LiteralMatcher::caseless_equals("x", "\xC3"), std::exception);
}

BOOST_AUTO_TEST_SUITE_END()
