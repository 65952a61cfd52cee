// contains: one text, or all / any of several; plain text, optional case folding.
#include "contains_evaluator.h"

#include "text_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::text;
using namespace krino::text::testing;

BOOST_AUTO_TEST_SUITE(contains_evaluator)

BOOST_AUTO_TEST_CASE(one_value) {
  const ContainsEvaluator evaluator(config(R"({"value": "Paris"})"));
  const krino::EvalResult hit = evaluate(evaluator, R"({"output": "The capital is Paris."})");
  BOOST_TEST(hit.name == "contains");
  BOOST_TEST(*hit.score == 1.0);
  BOOST_TEST(*hit.threshold == 1.0);
  BOOST_TEST(hit.reason == R"(the output contains "Paris")");
  BOOST_TEST(hit.metadata.at("found") == boost::json::parse(R"(["Paris"])"));
  BOOST_TEST(hit.metadata.at("missing") == boost::json::parse("[]"));
  const krino::EvalResult miss = evaluate(evaluator, R"({"output": "The capital is paris."})");
  BOOST_TEST(*miss.score == 0.0);
  BOOST_TEST(miss.reason == R"(the output does not contain "Paris")");
}

BOOST_AUTO_TEST_CASE(values_are_plain_text_not_patterns) {
  const ContainsEvaluator evaluator(config(R"({"value": "a.c"})"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": "abc"})").score == 0.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": "xa.cx"})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(all_values_by_default) {
  const ContainsEvaluator evaluator(config(R"({"values": ["flour", "eggs", "milk"]})"));
  const krino::EvalResult all = evaluate(evaluator, R"({"output": "Mix flour, milk and eggs."})");
  BOOST_TEST(*all.score == 1.0);
  BOOST_TEST(all.reason == "the output contains all 3 values");
  const krino::EvalResult some = evaluate(evaluator, R"({"output": "Mix flour and water."})");
  BOOST_TEST(*some.score == 0.0);
  BOOST_TEST(some.reason == R"(the output lacks "eggs", "milk")");
  BOOST_TEST(some.metadata.at("found") == boost::json::parse(R"(["flour"])"));
  BOOST_TEST(some.metadata.at("missing") == boost::json::parse(R"(["eggs", "milk"])"));
}

BOOST_AUTO_TEST_CASE(any_value) {
  const ContainsEvaluator evaluator(config(R"({"values": ["refund", "reimburse"], "mode": "any"})"));
  const krino::EvalResult one = evaluate(evaluator, R"({"output": "We will reimburse you."})");
  BOOST_TEST(*one.score == 1.0);
  BOOST_TEST(one.reason == R"(the output contains "reimburse")");
  const krino::EvalResult none = evaluate(evaluator, R"({"output": "Sorry."})");
  BOOST_TEST(*none.score == 0.0);
  BOOST_TEST(none.reason == "the output contains none of the 2 values");
}

BOOST_AUTO_TEST_CASE(ignore_case) {
  const ContainsEvaluator evaluator(config(R"({"values": ["paris", "ÉTÉ"], "ignore_case": true})"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": "PARIS en été"})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(missing_output_scores_zero) {
  const ContainsEvaluator evaluator(config(R"({"value": "x"})"));
  const krino::EvalResult r = evaluate(evaluator, R"({})");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(r.reason == "the actual output 'output' is missing (actualOutputs has no such key)");
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(ContainsEvaluator(config("{}")), krino::Error,
                        invalid("give exactly one of the options 'value' and 'values'"));
  BOOST_CHECK_EXCEPTION(ContainsEvaluator(config(R"({"value": "a", "values": ["b"]})")), krino::Error,
                        invalid("give exactly one of the options 'value' and 'values'"));
  BOOST_CHECK_EXCEPTION(ContainsEvaluator(config(R"({"values": []})")), krino::Error,
                        invalid("option 'values' must list at least one text"));
  BOOST_CHECK_EXCEPTION(ContainsEvaluator(config(R"({"value": ""})")), krino::Error, invalid("must not be empty"));
  BOOST_CHECK_EXCEPTION(ContainsEvaluator(config(R"({"values": ["a", ""]})")), krino::Error, invalid("must not be empty"));
  BOOST_CHECK_EXCEPTION(ContainsEvaluator(config(R"({"values": ["a", 1]})")), krino::Error,
                        invalid("option 'values' must be a list of strings"));
  BOOST_CHECK_EXCEPTION(ContainsEvaluator(config(R"({"value": "a", "mode": "most"})")), krino::Error,
                        invalid("option 'mode' must be one of all, any, got 'most'"));
}

BOOST_AUTO_TEST_SUITE_END()
