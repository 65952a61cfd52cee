// The OTLP/JSON spellings: ids in hex or base64, times as numbers or strings, AnyValues, enums.
#include "otlp_values.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::otel;

BOOST_AUTO_TEST_SUITE(otlp_values)

BOOST_AUTO_TEST_CASE(ids_in_either_spelling_become_lower_case_hex) {
  // The proto example's upper-case hex, and the same bytes as protobuf's MessageToJson writes them.
  BOOST_TEST(normalize_id("5B8EFFF798038103D269B633813FC60C", 16) == "5b8efff798038103d269b633813fc60c");
  BOOST_TEST(normalize_id("W47/95gDgQPSabYzgT/GDA==", 16) == "5b8efff798038103d269b633813fc60c");
  BOOST_TEST(normalize_id("EEE19B7EC3C1B174", 8) == "eee19b7ec3c1b174");
  BOOST_TEST(normalize_id("7uGbfsPBsXQ=", 8) == "eee19b7ec3c1b174");
  // Neither spelling (wrong length, not base64): kept as written, still usable as a key.
  BOOST_TEST(normalize_id("span-7", 8) == "span-7");
  BOOST_TEST(normalize_id("", 8) == "");
}

BOOST_AUTO_TEST_CASE(times_as_numbers_or_decimal_strings) {
  const boost::json::value number = boost::json::parse("1544712660000000000");
  const boost::json::value text = boost::json::parse("\"1544712660000000000\"");
  BOOST_TEST(*unix_nanos(&number) == 1544712660000000000ull);
  BOOST_TEST(*unix_nanos(&text) == 1544712660000000000ull);
  const boost::json::value bad = boost::json::parse("\"soon\"");
  BOOST_TEST(!unix_nanos(&bad).has_value());
  BOOST_TEST(!unix_nanos(nullptr).has_value());
}

BOOST_AUTO_TEST_CASE(any_values_become_plain_json) {
  const auto plain = [](const char* any) { return any_value(boost::json::parse(any)); };
  BOOST_TEST(plain(R"({"stringValue": "x"})") == "x");
  BOOST_TEST(plain(R"({"intValue": "42"})") == 42);
  BOOST_TEST(plain(R"({"intValue": 42})") == 42);
  BOOST_TEST(plain(R"({"intValue": "not a number"})") == "not a number");
  BOOST_TEST(plain(R"({"doubleValue": 0.5})") == 0.5);
  BOOST_TEST(plain(R"({"boolValue": true})") == true);
  BOOST_TEST(plain(R"({})").is_null());
  BOOST_TEST(plain(R"({"arrayValue": {"values": [{"stringValue": "a"}, {"intValue": "1"}]}})") ==
             boost::json::parse(R"(["a", 1])"));
  BOOST_TEST(plain(R"({"kvlistValue": {"values": [{"key": "k", "value": {"arrayValue": {}}}]}})") ==
             boost::json::parse(R"({"k": []})"));
  BOOST_TEST(attributes(nullptr).empty());
  const boost::json::value list = boost::json::parse(R"([{"key": "a", "value": {"stringValue": "b"}}, {"value": {}}, 5])");
  BOOST_TEST(attributes(&list) == boost::json::parse(R"({"a": "b"})").as_object());
}

BOOST_AUTO_TEST_CASE(enums_as_names_or_numbers) {
  const boost::json::value name = boost::json::parse("\"SPAN_KIND_CLIENT\"");
  const boost::json::value number = boost::json::parse("3");
  const boost::json::value out_of_range = boost::json::parse("9");
  BOOST_TEST(span_kind(&name) == "CLIENT");
  BOOST_TEST(span_kind(&number) == "CLIENT");
  BOOST_TEST(span_kind(&out_of_range) == "");
  const boost::json::value error = boost::json::parse("2");
  BOOST_TEST(status_code(&error) == "ERROR");
}

BOOST_AUTO_TEST_SUITE_END()
