// krino/json_text.hpp: the string form of a value, the basis of exact_match.
#include <krino/json_text.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using boost::json::parse;
using krino::json::string_form;
using krino::json::to_compact_json;

BOOST_AUTO_TEST_SUITE(json_text)

BOOST_AUTO_TEST_CASE(a_string_is_its_own_text) {
  BOOST_TEST(string_form(parse(R"("Paris")")) == "Paris");
  BOOST_TEST(string_form(parse(R"("say \"hi\"\n")")) == "say \"hi\"\n");
}

BOOST_AUTO_TEST_CASE(integers_and_doubles_keep_distinct_forms) {
  BOOST_TEST(string_form(parse("5")) == "5");
  BOOST_TEST(string_form(parse("5.0")) == "5.0");
  BOOST_TEST(string_form(parse("5.00")) == "5.0");
  BOOST_TEST(string_form(parse("-12")) == "-12");
  BOOST_TEST(string_form(parse("0.1")) == "0.1");
  BOOST_TEST(string_form(parse("2.5e-7")) == "2.5e-07");
  BOOST_TEST(string_form(parse("1e21")) == "1e+21");
  BOOST_TEST(string_form(parse("18446744073709551615")) == "18446744073709551615");
}

BOOST_AUTO_TEST_CASE(other_values_are_compact_json) {
  BOOST_TEST(string_form(parse("null")) == "null");
  BOOST_TEST(string_form(parse("true")) == "true");
  BOOST_TEST(string_form(parse(R"({ "b" : [1, 2.0, "x"], "a" : {} })")) == R"({"b":[1,2.0,"x"],"a":{}})");
  BOOST_TEST(to_compact_json(parse(R"("tab\there")")) == R"("tab\there")");
}

BOOST_AUTO_TEST_SUITE_END()
