// krino/strict_json.hpp: what boost::json::parse lets through, and what parse_strict_json refuses.
#include "text_test_support.hpp"

#include <krino/strict_json.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using krino::json::parse_strict_json;
using krino::text::testing::invalid;

BOOST_AUTO_TEST_SUITE(strict_json)

BOOST_AUTO_TEST_CASE(boost_json_parse_silently_keeps_the_last_duplicate_key) {
  // The reason parse_strict_json exists.
  const boost::json::value lenient = boost::json::parse(R"({"a": 1, "a": 2})");
  BOOST_TEST(lenient.as_object().size() == 1u);
  BOOST_TEST(lenient.at("a").as_int64() == 2);
}

BOOST_AUTO_TEST_CASE(boost_json_parse_turns_an_overflowing_literal_into_infinity) {
  const boost::json::value lenient = boost::json::parse("[1e400]");
  BOOST_TEST(std::isinf(lenient.at(0).as_double()));
}

BOOST_AUTO_TEST_CASE(valid_json_parses_like_boost_json) {
  const boost::json::value v = parse_strict_json(R"( {"a": [1, 2.5, "x", null, true], "b": {"c": {}}} )");
  BOOST_TEST(v == boost::json::parse(R"({"a": [1, 2.5, "x", null, true], "b": {"c": {}}})"));
  BOOST_TEST(parse_strict_json(R"("just a string")").as_string() == "just a string");
  BOOST_TEST(parse_strict_json("42").as_int64() == 42);
}

BOOST_AUTO_TEST_CASE(the_same_key_in_different_objects_is_fine) {
  const boost::json::value v = parse_strict_json(R"({"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]})");
  BOOST_TEST(v.at("b").at(1).at("a").as_int64() == 2);
}

BOOST_AUTO_TEST_CASE(a_duplicate_key_is_refused_at_any_depth) {
  BOOST_CHECK_EXCEPTION(parse_strict_json(R"({"a": 1, "a": 2})"), krino::Error, invalid("duplicate object key \"a\""));
  BOOST_CHECK_EXCEPTION(parse_strict_json(R"({"x": [{"k": 1, "j": 2, "k": 3}]})"), krino::Error,
                        invalid("duplicate object key \"k\""));
  // Escapes spell the same key differently.
  BOOST_CHECK_EXCEPTION(parse_strict_json(R"({"é": 1, "\u00e9": 2})"), krino::Error, invalid("duplicate object key"));
}

BOOST_AUTO_TEST_CASE(non_finite_numbers_are_refused) {
  BOOST_CHECK_EXCEPTION(parse_strict_json("[1e400]"), krino::Error, invalid("number out of the range of a double"));
  BOOST_CHECK_EXCEPTION(parse_strict_json("-1e309"), krino::Error, invalid("number out of the range of a double"));
  BOOST_CHECK_EXCEPTION(parse_strict_json("NaN"), krino::Error, invalid("offset 0"));
  BOOST_CHECK_EXCEPTION(parse_strict_json(R"({"a": Infinity})"), krino::Error, invalid("offset 6"));
}

BOOST_AUTO_TEST_CASE(syntax_errors_name_the_offset) {
  BOOST_CHECK_EXCEPTION(parse_strict_json(R"({"a": 1,})"), krino::Error, invalid("offset 8"));
  BOOST_CHECK_EXCEPTION(parse_strict_json("[1, 2] [3]"), krino::Error, invalid("offset 7"));
  BOOST_CHECK_EXCEPTION(parse_strict_json("not json"), krino::Error, invalid("offset 0"));
  BOOST_CHECK_EXCEPTION(parse_strict_json(""), krino::Error, invalid("offset 0"));
}

BOOST_AUTO_TEST_CASE(nesting_is_bounded) {
  const std::string deep = std::string(krino::json::kStrictJsonMaxDepth + 1, '[') + std::string(krino::json::kStrictJsonMaxDepth + 1, ']');
  BOOST_CHECK_THROW(parse_strict_json(deep), krino::Error);
  const std::string ok = std::string(krino::json::kStrictJsonMaxDepth, '[') + std::string(krino::json::kStrictJsonMaxDepth, ']');
  BOOST_CHECK_NO_THROW(parse_strict_json(ok));
}

BOOST_AUTO_TEST_SUITE_END()
