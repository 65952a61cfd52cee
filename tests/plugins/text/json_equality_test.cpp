// krino/json_equality.hpp: numbers by value, at any depth, without rounding through double.
#include <krino/json_equality.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using boost::json::parse;
using boost::json::value;
using krino::json::same_number;
using krino::json::same_value;

BOOST_AUTO_TEST_SUITE(json_equality)

BOOST_AUTO_TEST_CASE(integers_and_doubles_with_the_same_value_are_the_same_number) {
  BOOST_TEST(same_number(value(1), value(1.0)));
  BOOST_TEST(same_number(parse("42.0"), parse("42.00")));
  BOOST_TEST(same_number(parse("5"), parse("5.0")));
  BOOST_TEST(same_number(parse("-0.0"), parse("0")));
  BOOST_TEST(same_number(value(std::int64_t{7}), value(std::uint64_t{7})));
  BOOST_TEST(!same_number(value(1), value(2)));
  BOOST_TEST(!same_number(value(1), value(1.5)));
}

BOOST_AUTO_TEST_CASE(signedness_does_not_fool_integer_comparison) {
  BOOST_TEST(!same_number(value(std::int64_t{-1}), value(std::uint64_t{18446744073709551615ULL})));
  BOOST_TEST(same_number(parse("18446744073709551615"), value(std::uint64_t{18446744073709551615ULL})));
}

BOOST_AUTO_TEST_CASE(large_integers_are_not_rounded_through_double) {
  // Both convert to the double 9007199254740992.0, yet they differ by one.
  BOOST_TEST(!same_number(parse("9007199254740993"), parse("9007199254740992.0")));
  BOOST_TEST(!same_number(parse("9007199254740993"), parse("9007199254740992"), 1e-9));
  BOOST_TEST(same_number(parse("9007199254740992"), parse("9007199254740992.0")));
  // A double beyond every integer type never equals an integer.
  BOOST_TEST(!same_number(parse("1e30"), parse("18446744073709551615")));
}

BOOST_AUTO_TEST_CASE(tolerance_applies_to_the_mathematical_difference) {
  BOOST_TEST(!same_number(parse("0.1"), parse("0.1000000001")));
  BOOST_TEST(same_number(parse("0.1"), parse("0.1000000001"), 1e-9));
  BOOST_TEST(!same_number(parse("0.1"), parse("0.100000002"), 1e-9));
  BOOST_TEST(same_number(parse("3"), parse("3.0000000001"), 1e-9));
  BOOST_TEST(same_number(parse("10"), parse("12"), 2.0));
}

BOOST_AUTO_TEST_CASE(non_numbers_and_non_finite_values_are_never_the_same_number) {
  BOOST_TEST(!same_number(value("1"), value(1)));
  BOOST_TEST(!same_number(value(true), value(1)));
  BOOST_TEST(!same_number(value(std::numeric_limits<double>::infinity()), value(std::numeric_limits<double>::infinity())));
  BOOST_TEST(!same_number(value(std::nan("")), value(std::nan(""))));
}

BOOST_AUTO_TEST_CASE(deep_equality_compares_numbers_by_value_and_ignores_key_order) {
  BOOST_TEST(same_value(parse(R"({"a": [1, 2.0, {"b": 3}], "c": null})"), parse(R"({"c": null, "a": [1.0, 2, {"b": 3.00}]})")));
  BOOST_TEST(!same_value(parse("[1, 2]"), parse("[2, 1]")));
  BOOST_TEST(!same_value(parse(R"({"a": 1})"), parse(R"({"a": 1, "b": 2})")));
  BOOST_TEST(!same_value(parse(R"({"a": 1, "c": 2})"), parse(R"({"a": 1, "b": 2})")));
  BOOST_TEST(!same_value(parse(R"("1")"), parse("1")));
  BOOST_TEST(!same_value(parse("null"), parse("false")));
  BOOST_TEST(same_value(parse(R"("Ünïcode")"), parse(R"("\u00dcn\u00efcode")")));
}

BOOST_AUTO_TEST_SUITE_END()
