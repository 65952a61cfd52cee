// krino/support/pcre2_regex.hpp: the one PCRE2 wrapper the text and agent plugins share; find()
// and search() must agree, since tool_error words its failures from search().
#include <krino/support/pcre2_regex.hpp>

#include <krino/plugin.hpp>

#include <boost/test/unit_test.hpp>

#include <string>

using krino::Pcre2Regex;

BOOST_AUTO_TEST_SUITE(pcre2_regex)

BOOST_AUTO_TEST_CASE(search_and_find_agree_on_a_match) {
  const Pcre2Regex regex("wor\\w+", Pcre2Regex::Options{});
  const auto found = regex.find("hello world");
  const auto searched = regex.search("hello world");
  BOOST_REQUIRE(found.has_value());
  BOOST_REQUIRE(searched.match.has_value());
  BOOST_TEST(!searched.failure.has_value());
  BOOST_TEST(found->begin == 6u);
  BOOST_TEST(found->end == 11u);
  BOOST_TEST(searched.match->begin == found->begin);
  BOOST_TEST(searched.match->end == found->end);
}

BOOST_AUTO_TEST_CASE(no_match_is_not_a_failure) {
  const Pcre2Regex regex("^Error", Pcre2Regex::Options{});
  const auto searched = regex.search("all fine");
  BOOST_TEST(!searched.match.has_value());
  BOOST_TEST(!searched.failure.has_value());
  BOOST_TEST(!regex.find("all fine").has_value());
}

BOOST_AUTO_TEST_CASE(unicode_classes_and_case_folding) {
  BOOST_TEST(Pcre2Regex("^\\w+$", Pcre2Regex::Options{}).find("Zürich").has_value());
  BOOST_TEST(Pcre2Regex("ÉTÉ", Pcre2Regex::Options{true, false}).find("un été chaud").has_value());
  BOOST_TEST(!Pcre2Regex("a.c", Pcre2Regex::Options{false, true}).find("abc").has_value());
  BOOST_TEST(Pcre2Regex("a.c", Pcre2Regex::Options{false, true}).find("xa.cx").has_value());
  BOOST_TEST(!Pcre2Regex("b", Pcre2Regex::Options{}).find("abc", true).has_value());
}

BOOST_AUTO_TEST_CASE(a_bad_pattern_names_the_offset) {
  try {
    Pcre2Regex("(unclosed", Pcre2Regex::Options{});
    BOOST_FAIL("expected an error");
  } catch (const krino::Error& e) {
    BOOST_TEST(e.code() == KRINO_INVALID_ARGUMENT);
    BOOST_TEST(std::string(e.what()).rfind("invalid regular expression at offset 9: ", 0) == 0);
  }
}

BOOST_AUTO_TEST_CASE(a_failed_search_is_reported_by_both) {
  const Pcre2Regex regex("a", Pcre2Regex::Options{});
  const std::string invalid_utf8 = "a\xff";
  const auto searched = regex.search(invalid_utf8);
  BOOST_REQUIRE(searched.failure.has_value());
  BOOST_TEST(!searched.resource_limit);
  BOOST_CHECK_THROW(regex.find(invalid_utf8), krino::Error);
}

BOOST_AUTO_TEST_SUITE_END()
