#include "agent_test_support.hpp"

#include <krino/agent/argument_matcher.hpp>

using namespace krino::agent;
using namespace krino::agent::testing;

namespace {

bool argument_matcher_match(const ArgumentMatcher& matcher, std::string_view expected, std::string_view actual) {
  return matcher.matches(json(expected).as_object(), json(actual).as_object());
}

ArgumentMatcher in_mode(ArgMatchMode mode) {
  ArgumentMatcher matcher;
  matcher.mode = mode;
  return matcher;
}

ToolCall argument_matcher_call(std::string_view text) { return read_tool_call(json(text), "call"); }

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_argument_matcher)

BOOST_AUTO_TEST_CASE(numbers_compare_by_value_at_any_depth) {
  const ArgumentMatcher exact;
  BOOST_TEST(argument_matcher_match(exact, R"({"n":1})", R"({"n":1.0})"));
  BOOST_TEST(argument_matcher_match(exact, R"({"n":42.0})", R"({"n":42.00})"));
  BOOST_TEST(argument_matcher_match(exact, R"({"o":{"l":[1,{"x":2}]}})", R"({"o":{"l":[1.0,{"x":2.0}]}})"));
  BOOST_TEST(!argument_matcher_match(exact, R"({"n":1})", R"({"n":"1"})"));
  BOOST_TEST(!argument_matcher_match(exact, R"({"n":1})", R"({"n":true})"));
  BOOST_TEST(!argument_matcher_match(exact, R"({"n":0.3})", R"({"n":0.30000000000000004})"));
  BOOST_TEST(argument_matcher_match(exact, R"({"n":null})", R"({"n":null})"));
  BOOST_TEST(!argument_matcher_match(exact, R"({"n":null})", R"({"n":0})"));
  BOOST_TEST(!argument_matcher_match(exact, R"({"l":[1,2]})", R"({"l":[2,1]})"));
}

BOOST_AUTO_TEST_CASE(strings_are_exact_unless_trim_or_ignore_case) {
  ArgumentMatcher matcher;
  BOOST_TEST(!argument_matcher_match(matcher, R"({"s":"Paris"})", R"({"s":" paris "})"));
  matcher.trim = true;
  BOOST_TEST(argument_matcher_match(matcher, R"({"s":"Paris"})", R"({"s":"  Paris\n"})"));
  BOOST_TEST(!argument_matcher_match(matcher, R"({"s":"Paris"})", R"({"s":" paris "})"));
  matcher.ignore_case = true;
  BOOST_TEST(argument_matcher_match(matcher, R"({"s":"Paris"})", R"({"s":" paris "})"));
  BOOST_TEST(argument_matcher_match(matcher, R"({"o":{"l":["A"]}})", R"({"o":{"l":["a "]}})"));
  matcher.trim = false;
  BOOST_TEST(argument_matcher_match(matcher, R"({"s":"PARIS"})", R"({"s":"paris"})"));
  BOOST_TEST(!argument_matcher_match(matcher, R"({"s":"Paris"})", R"({"s":"paris "})"));
  // Case folding is ASCII only (documented): non-ASCII letters compare as bytes.
  BOOST_TEST(!argument_matcher_match(matcher, R"({"s":"É"})", R"({"s":"é"})"));
}

// The mode names describe the actual side relative to expected.
BOOST_AUTO_TEST_CASE(modes_have_the_documented_orientation) {
  const char* expected = R"({"city":"Paris","nights":2})";
  const char* more = R"({"city":"Paris","nights":2.0,"breakfast":true})";
  const char* fewer = R"({"city":"Paris"})";
  BOOST_TEST(argument_matcher_match(in_mode(ArgMatchMode::exact), expected, R"({"nights":2,"city":"Paris"})"));
  BOOST_TEST(!argument_matcher_match(in_mode(ArgMatchMode::exact), expected, more));
  BOOST_TEST(!argument_matcher_match(in_mode(ArgMatchMode::exact), expected, fewer));
  BOOST_TEST(argument_matcher_match(in_mode(ArgMatchMode::subset), expected, more));
  BOOST_TEST(!argument_matcher_match(in_mode(ArgMatchMode::subset), expected, fewer));
  BOOST_TEST(argument_matcher_match(in_mode(ArgMatchMode::superset), expected, fewer));
  BOOST_TEST(!argument_matcher_match(in_mode(ArgMatchMode::superset), expected, more));
  BOOST_TEST(!argument_matcher_match(in_mode(ArgMatchMode::superset), expected, R"({"city":"Rome"})"));
  BOOST_TEST(argument_matcher_match(in_mode(ArgMatchMode::ignore), expected, R"({"x":1})"));
}

BOOST_AUTO_TEST_CASE(empty_expected_arguments_are_not_a_wildcard_under_exact) {
  BOOST_TEST(argument_matcher_match(in_mode(ArgMatchMode::exact), "{}", "{}"));
  BOOST_TEST(!argument_matcher_match(in_mode(ArgMatchMode::exact), "{}", R"({"q":"x"})"));
  BOOST_TEST(argument_matcher_match(in_mode(ArgMatchMode::subset), "{}", R"({"q":"x"})"));
}

BOOST_AUTO_TEST_CASE(nested_objects_need_equal_key_sets_in_every_mode) {
  BOOST_TEST(!argument_matcher_match(in_mode(ArgMatchMode::subset), R"({"o":{"a":1}})", R"({"o":{"a":1,"b":2}})"));
  BOOST_TEST(!argument_matcher_match(in_mode(ArgMatchMode::superset), R"({"o":{"a":1,"b":2}})", R"({"o":{"a":1}})"));
  BOOST_TEST(argument_matcher_match(in_mode(ArgMatchMode::subset), R"({"o":{"a":1}})", R"({"o":{"a":1.0},"x":0})"));
}

BOOST_AUTO_TEST_CASE(modes_parse_and_describe) {
  BOOST_TEST(std::string(to_string(*parse_arg_match_mode("superset"))) == "superset");
  BOOST_TEST(!parse_arg_match_mode("SUBSET").has_value());
  ArgumentMatcher matcher = in_mode(ArgMatchMode::subset);
  matcher.trim = true;
  matcher.ignore_case = true;
  BOOST_TEST(matcher.describe() == "subset, trim, ignore case");
  BOOST_TEST(in_mode(ArgMatchMode::ignore).describe() == "ignore");
}

BOOST_AUTO_TEST_CASE(per_tool_overrides_are_keyed_by_the_expected_name) {
  const ToolCallMatcher matcher(ArgumentMatcher{}, {{"book_hotel", in_mode(ArgMatchMode::ignore)}});
  BOOST_TEST(matcher.matches(argument_matcher_call(R"({"name":"book_hotel"})"), argument_matcher_call(R"({"name":"book_hotel","arguments":{"x":1}})")));
  BOOST_TEST(!matcher.matches(argument_matcher_call(R"({"name":"search"})"), argument_matcher_call(R"({"name":"search","arguments":{"x":1}})")));
  BOOST_TEST(!matcher.matches(argument_matcher_call(R"({"name":"book_hotel"})"), argument_matcher_call(R"({"name":"search"})")));
  BOOST_TEST(&matcher.for_tool("book_hotel") != &matcher.default_matcher());
  BOOST_TEST(&matcher.for_tool("other") == &matcher.default_matcher());
}

BOOST_AUTO_TEST_SUITE_END()
