#include <krino/json_extract.hpp>
#include <krino/utf8.hpp>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <string>

namespace utf8 = krino::utf8;

namespace {
const std::string kE = "\xC3\xA9";  // é, two bytes
const std::string kFffd = "\xEF\xBF\xBD";

std::string a_then_e_times(int n) {
  std::string text = "a";
  for (int i = 0; i < n; ++i) text += kE;
  return text;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(sdk_utf8)

// "a" + "é"x30 cut at 40 bytes falls inside the 20th "é": the reproducer.
BOOST_AUTO_TEST_CASE(a_cut_never_falls_inside_a_character) {
  const std::string text = a_then_e_times(30);
  BOOST_TEST(utf8::head(text, 40) == a_then_e_times(19));
  BOOST_TEST(utf8::head(text, 41) == a_then_e_times(20));
  BOOST_TEST(utf8::head(text, 1000) == text);
  BOOST_TEST(utf8::tail(text, 40) == a_then_e_times(20).substr(1));
  BOOST_TEST(utf8::excerpt(text, 40) == a_then_e_times(19) + "...");
  BOOST_TEST(utf8::excerpt(text, 40, "") == a_then_e_times(19));
  BOOST_TEST(utf8::excerpt("short", 40) == "short");
  for (std::size_t limit = 0; limit < 70; ++limit) {
    BOOST_TEST(utf8::is_valid(utf8::excerpt(text, limit)), limit);
    BOOST_TEST(utf8::is_valid(std::string(utf8::tail(text, limit))), limit);
  }
  BOOST_TEST(utf8::head("\xF0\x9F\x98\x80", 3).empty());  // a 4-byte character is kept whole or not at all
}

BOOST_AUTO_TEST_CASE(ill_formed_bytes_become_the_replacement_character) {
  BOOST_TEST(utf8::repaired("plain") == "plain");
  BOOST_TEST(utf8::repaired("caf" + kE) == "caf" + kE);
  BOOST_TEST(utf8::repaired("caf\xC3") == "caf" + kFffd);                        // cut sequence
  BOOST_TEST(utf8::repaired("x\x80y") == "x" + kFffd + "y");                     // stray continuation
  BOOST_TEST(utf8::repaired("\xE9t\xE9") == kFffd + "t" + kFffd);                 // Latin-1
  BOOST_TEST(utf8::repaired("\xC0\x80") == kFffd + kFffd);                        // overlong NUL
  BOOST_TEST(utf8::repaired("\xED\xA0\x80") == kFffd + kFffd + kFffd);            // a surrogate
  BOOST_TEST(utf8::repaired("\xF0\x9F\x98") == kFffd);                            // one maximal subpart
  BOOST_TEST(utf8::repaired("\xF4\x90\x80\x80") == kFffd + kFffd + kFffd + kFffd);  // above U+10FFFF
  BOOST_TEST(!utf8::is_valid("caf\xC3"));
  BOOST_TEST(utf8::is_valid("\xF0\x9F\x98\x80"));
  // Past the ASCII words read eight at a time: a bad byte in the first word, after it, in the tail.
  BOOST_TEST(!utf8::is_valid("abcdefg\x80" "abcdefgh"));
  BOOST_TEST(!utf8::is_valid("abcdefgh" "abcdefgh" "\xC3"));
  BOOST_TEST(!utf8::is_valid("abcdefgh" "abc\xC3" "defg"));
  BOOST_TEST(utf8::is_valid("abcdefgh" "caf\xC3\xA9" "abcdefgh" "ij"));
  BOOST_TEST(!utf8::is_valid("abcdefgh" "abcdefg\xC3"));  // a sequence cut at the end of a word
  // Whatever the bytes, the result is text a JSON parser accepts.
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b == '"' || b == '\\' || b < 0x20 ? 'x' : b);
  const std::string fixed = utf8::repaired(all);
  BOOST_TEST(utf8::is_valid(fixed));
  BOOST_TEST(boost::json::parse("\"" + fixed + "\"").is_string());
}

BOOST_AUTO_TEST_CASE(the_judge_reply_excerpt_is_valid_utf8) {
  BOOST_TEST(krino::json::reply_excerpt(a_then_e_times(30), 40) == a_then_e_times(19) + "...");
  BOOST_TEST(krino::json::reply_excerpt("ab\xFF", 200) == "ab" + kFffd);
}

BOOST_AUTO_TEST_SUITE_END()
