// length: code points or words, within inclusive bounds.
#include "length_evaluator.h"

#include "text_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::text;
using namespace krino::text::testing;

BOOST_AUTO_TEST_SUITE(length_evaluator)

BOOST_AUTO_TEST_CASE(chars_are_code_points_and_bounds_are_inclusive) {
  const LengthEvaluator evaluator(config(R"({"min": 3, "max": 5})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "héllo"})");  // 6 bytes, 5 code points
  BOOST_TEST(r.name == "length");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(r.reason == "the output has 5 chars, within 3..5");
  BOOST_TEST(r.metadata.at("length").as_uint64() == 5u);
  BOOST_TEST(r.metadata.at("unit").as_string() == "chars");
  BOOST_TEST(*evaluate(evaluator, R"({"output": "abc"})").score == 1.0);
  const krino::EvalResult short_one = evaluate(evaluator, R"({"output": "ab"})");
  BOOST_TEST(*short_one.score == 0.0);
  BOOST_TEST(short_one.reason == "the output has 2 chars, fewer than the minimum of 3");
  const krino::EvalResult long_one = evaluate(evaluator, R"({"output": "abcdef"})");
  BOOST_TEST(*long_one.score == 0.0);
  BOOST_TEST(long_one.reason == "the output has 6 chars, more than the maximum of 5");
}

BOOST_AUTO_TEST_CASE(words) {
  const LengthEvaluator evaluator(config(R"({"unit": "words", "max": 3})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "  one\ttwo\nthree  "})");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.reason == "the output has 3 words, within 0..3");
  BOOST_TEST(r.metadata.at("unit").as_string() == "words");
  BOOST_TEST(*evaluate(evaluator, R"({"output": "one two three four"})").score == 0.0);
}

BOOST_AUTO_TEST_CASE(min_only_and_max_null_mean_no_upper_bound) {
  const LengthEvaluator evaluator(config(R"({"min": 2, "max": null})"));
  const krino::EvalResult r = evaluate(evaluator, "{\"output\": \"" + std::string(10000, 'x') + "\"}");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.reason == "the output has 10000 chars, at least 2");
}

BOOST_AUTO_TEST_CASE(empty_output_has_length_zero) {
  const LengthEvaluator evaluator(config(R"({"min": 1})"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": ""})").score == 0.0);
}

BOOST_AUTO_TEST_CASE(non_string_output_is_measured_as_compact_json) {
  const LengthEvaluator evaluator(config(R"({"max": 7})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": {"a": [1, 2]}})");  // {"a":[1,2]} is 11
  BOOST_TEST(r.metadata.at("length").as_uint64() == 11u);
  BOOST_TEST(*r.score == 0.0);
}

BOOST_AUTO_TEST_CASE(missing_output_scores_zero) {
  const LengthEvaluator evaluator(config(R"({"max": 10})"));
  BOOST_TEST(*evaluate(evaluator, R"({"other": "x"})").score == 0.0);
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(LengthEvaluator(config("{}")), krino::Error, invalid("set option 'min', 'max' or both"));
  BOOST_CHECK_EXCEPTION(LengthEvaluator(config(R"({"max": null})")), krino::Error, invalid("set option 'min', 'max' or both"));
  BOOST_CHECK_EXCEPTION(LengthEvaluator(config(R"({"min": 5, "max": 4})")), krino::Error,
                        invalid("option 'min' must not exceed option 'max'"));
  BOOST_CHECK_EXCEPTION(LengthEvaluator(config(R"({"min": -1})")), krino::Error, invalid("option 'min' must not be negative"));
  BOOST_CHECK_EXCEPTION(LengthEvaluator(config(R"({"max": 2.5})")), krino::Error, invalid("option 'max' must be an integer"));
  BOOST_CHECK_EXCEPTION(LengthEvaluator(config(R"({"max": 5, "unit": "bytes"})")), krino::Error,
                        invalid("option 'unit' must be one of chars, words, got 'bytes'"));
}

BOOST_AUTO_TEST_SUITE_END()
