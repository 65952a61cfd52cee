#include "csv_fields.hpp"
#include "files_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::files;
using namespace krino::files::testing;

namespace {

std::vector<std::string> split(std::string_view row, char delimiter = ',') {
  std::vector<std::string> fields;
  split_csv_fields(row, delimiter, fields);
  return fields;
}

using Fields = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_SUITE(csv_fields)

BOOST_AUTO_TEST_CASE(unquoted_fields_are_trimmed_and_quoted_ones_preserved) {
  BOOST_TEST(split("  a , b\t,c") == (Fields{"a", "b", "c"}));
  BOOST_TEST(split(R"(" a ", "b,c" ,"")") == (Fields{" a ", "b,c", ""}));
}

BOOST_AUTO_TEST_CASE(doubled_quotes_and_line_breaks_in_quotes) {
  BOOST_TEST(split(R"("say ""hi""",x)") == (Fields{R"(say "hi")", "x"}));
  BOOST_TEST(split("\"one\r\ntwo\nthree\"") == (Fields{"one\r\ntwo\nthree"}));
  BOOST_TEST(split(R"("""")") == (Fields{"\""}));
}

BOOST_AUTO_TEST_CASE(empty_fields_and_a_trailing_delimiter) {
  BOOST_TEST(split("") == (Fields{""}));
  BOOST_TEST(split(",") == (Fields{"", ""}));
  BOOST_TEST(split("a,,b,") == (Fields{"a", "", "b", ""}));
}

BOOST_AUTO_TEST_CASE(a_quote_inside_an_unquoted_field_is_kept) {
  BOOST_TEST(split(R"(5" screen,a"b)") == (Fields{"5\" screen", "a\"b"}));
}

BOOST_AUTO_TEST_CASE(other_delimiters) {
  BOOST_TEST(split("a; \"b;c\" ;d", ';') == (Fields{"a", "b;c", "d"}));
  BOOST_TEST(split(" a \t b\t", '\t') == (Fields{"a", "b", ""}));
}

BOOST_AUTO_TEST_CASE(text_after_a_closing_quote_is_an_error) {
  BOOST_TEST(error_of([] { split(R"(a,"b"c,d)"); }) == "field 2 has text after its closing quote");
  BOOST_TEST(error_of([] { split(R"(a,"open)"); }) == "field 2 opens a quote that never closes");
}

BOOST_AUTO_TEST_SUITE_END()
