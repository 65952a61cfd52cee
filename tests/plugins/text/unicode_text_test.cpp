// unicode_text: code points, White_Space and words.
#include "unicode_text.h"

#include <boost/test/unit_test.hpp>

using namespace krino::text;

BOOST_AUTO_TEST_SUITE(unicode_text)

BOOST_AUTO_TEST_CASE(counts_code_points_not_bytes) {
  BOOST_TEST(count_code_points("") == 0u);
  BOOST_TEST(count_code_points("hello") == 5u);
  BOOST_TEST(count_code_points("héllo") == 5u);    // é is 2 bytes
  BOOST_TEST(count_code_points("日本語") == 3u);   // 3 bytes each
  BOOST_TEST(count_code_points("a😀b") == 3u);     // 4-byte emoji
}

BOOST_AUTO_TEST_CASE(white_space_is_the_unicode_property) {
  for (char32_t c : {U'\t', U'\n', U'\v', U'\f', U'\r', U' ', U'\u0085', U'\u00A0', U'\u1680', U'\u2000', U'\u200A',
                     U'\u2028', U'\u2029', U'\u202F', U'\u205F', U'\u3000'})
    BOOST_TEST(is_white_space(c));
  for (char32_t c : {U'a', U'\u200B' /* zero width space is not White_Space */, U'_', U'\u00AD', U'0'})
    BOOST_TEST(!is_white_space(c));
}

BOOST_AUTO_TEST_CASE(words_are_runs_between_white_space) {
  BOOST_TEST(count_words("") == 0u);
  BOOST_TEST(count_words("   ") == 0u);
  BOOST_TEST(count_words("one") == 1u);
  BOOST_TEST(count_words("  one two\tthree\n") == 3u);
  BOOST_TEST(count_words("non\u00A0breaking space") == 3u);
  BOOST_TEST(count_words("ideographic\u3000space") == 2u);
  BOOST_TEST(count_words("don't stop-me now.") == 3u);
}

BOOST_AUTO_TEST_CASE(trim_and_collapse) {
  BOOST_TEST(trim_white_space("  \u00A0 Paris \n") == "Paris");
  BOOST_TEST(trim_white_space(" \t ") == "");
  BOOST_TEST(trim_white_space("a b") == "a b");
  BOOST_TEST(collapse_white_space("  The \n\n quick\u2003brown   fox ") == "The quick brown fox");
  BOOST_TEST(collapse_white_space("") == "");
  BOOST_TEST(collapse_white_space(" \t") == "");
}

BOOST_AUTO_TEST_SUITE_END()
