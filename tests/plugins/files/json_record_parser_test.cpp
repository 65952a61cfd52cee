#include "files_test_support.hpp"
#include "json_record_parser.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::files;
using namespace krino::files::testing;

namespace {
std::string error_for(std::string_view record) {
  return error_of([&] { parse_json_record(record); });
}
}  // namespace

BOOST_AUTO_TEST_SUITE(json_record_parser)

BOOST_AUTO_TEST_CASE(parses_an_object) {
  BOOST_TEST(boost::json::value(parse_json_record(R"( {"a":[1,{"b":null}]} )")) == json(R"({"a":[1,{"b":null}]})"));
}

BOOST_AUTO_TEST_CASE(syntax_errors_say_where) {
  BOOST_TEST(error_for(R"({"a":1 "b":2})").rfind("invalid JSON at column 8: ", 0) == 0);
  BOOST_TEST(error_for("{\"a\":\n  tru}").rfind("invalid JSON at line 2, column 3 of the example: ", 0) == 0);
  BOOST_TEST(error_for(R"({"a":1)").rfind("invalid JSON at column 7: ", 0) == 0);  // truncated
}

BOOST_AUTO_TEST_CASE(trailing_text_is_an_error_and_trailing_blanks_are_not) {
  BOOST_TEST(error_for(R"({"a":1} x)") == "unexpected text after the JSON value at column 9");
  BOOST_TEST(error_for("{\"a\":1} \t\r\n").empty());
}

BOOST_AUTO_TEST_CASE(non_objects_are_named) {
  BOOST_TEST(error_for("[1]") == "an example must be a JSON object, not an array");
  BOOST_TEST(error_for("\"x\"") == "an example must be a JSON object, not a string");
  BOOST_TEST(error_for("12") == "an example must be a JSON object, not a number");
  BOOST_TEST(error_for("null") == "an example must be a JSON object, not null");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_rejected) {
  BOOST_TEST(!error_for("{\"a\":\"\xC3\x28\"}").empty());
}

BOOST_AUTO_TEST_CASE(deep_nesting_up_to_the_limit_is_accepted) {
  std::string deep = "{\"a\":" + std::string(400, '[') + std::string(400, ']') + "}";
  BOOST_TEST(error_for(deep).empty());
  std::string too_deep = "{\"a\":" + std::string(kMaxRecordDepth + 5, '[') + std::string(kMaxRecordDepth + 5, ']') + "}";
  BOOST_TEST(!error_for(too_deep).empty());
}

BOOST_AUTO_TEST_SUITE_END()
