// exact_match: string forms, so 5 != 5.0 (the opposite of structural_match).
#include "exact_match_evaluator.h"

#include "text_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::text;
using namespace krino::text::testing;

BOOST_AUTO_TEST_SUITE(exact_match_evaluator)

BOOST_AUTO_TEST_CASE(defaults) {
  const ExactMatchEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "Paris"})", R"({"output": "Paris"})");
  BOOST_TEST(r.name == "exact_match");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "the actual output equals the expected output");
}

BOOST_AUTO_TEST_CASE(a_difference_scores_zero_and_says_both_values) {
  const ExactMatchEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "paris"})", R"({"output": "Paris"})");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason == R"(expected "Paris", got "paris")");
}

BOOST_AUTO_TEST_CASE(integer_and_double_differ_because_string_forms_differ) {
  const ExactMatchEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": 5})", R"({"output": 5.0})");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(r.reason == "expected 5.0, got 5");
  BOOST_TEST(*evaluate(evaluator, R"({"output": 5.0})", R"({"output": 5.00})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": 5})", R"({"output": 5})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(a_string_and_a_number_with_the_same_text_match) {
  const ExactMatchEvaluator evaluator(config("{}"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": 42})", R"({"output": "42"})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": "5.0"})", R"({"output": 5.0})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(structured_values_compare_as_compact_json_so_key_order_matters) {
  const ExactMatchEvaluator evaluator(config("{}"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": {"a": 1, "b": [true]}})", R"({"output": {"a":1,"b":[true]}})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": {"b": [true], "a": 1}})", R"({"output": {"a":1,"b":[true]}})").score == 0.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": "{\"a\":1}"})", R"({"output": {"a":1}})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(null_matches_only_null) {
  const ExactMatchEvaluator evaluator(config("{}"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": null})", R"({"output": null})").score == 1.0);
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "null"})", R"({"output": null})");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(r.reason == R"(expected null, got "null")");
  BOOST_TEST(*evaluate(evaluator, R"({"output": null})", R"({"output": "null"})").score == 0.0);
}

BOOST_AUTO_TEST_CASE(trim_whitespace_ignores_unicode_white_space_at_both_ends_only) {
  const ExactMatchEvaluator evaluator(config(R"({"trim_whitespace": true})"));
  const krino::EvalResult r = evaluate(evaluator, "{\"output\": \" \\u00a0Paris\\n\"}", R"({"output": "Paris "})");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.reason == "the actual output equals the expected output (ignoring surrounding white space)");
  BOOST_TEST(*evaluate(evaluator, R"({"output": "New  York"})", R"({"output": "New York"})").score == 0.0);
  const ExactMatchEvaluator strict(config("{}"));
  BOOST_TEST(*evaluate(strict, R"({"output": "Paris "})", R"({"output": "Paris"})").score == 0.0);
}

BOOST_AUTO_TEST_CASE(ignore_case_folds_unicode) {
  const ExactMatchEvaluator evaluator(config(R"({"ignore_case": true})"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": "ÉCOLE"})", R"({"output": "école"})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": "PARIS"})", R"({"output": "Paris"})").score == 1.0);
  // Whole-text equality, not containment; and pattern characters are literal.
  BOOST_TEST(*evaluate(evaluator, R"({"output": "Paris, France"})", R"({"output": "paris"})").score == 0.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": "aXc"})", R"({"output": "a.c"})").score == 0.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": "A.C"})", R"({"output": "a.c"})").score == 1.0);
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "x"})", R"({"output": "y"})");
  BOOST_TEST(r.reason == R"(expected "y", got "x" (ignoring case))");
}

BOOST_AUTO_TEST_CASE(both_options_together) {
  const ExactMatchEvaluator evaluator(config(R"({"ignore_case": true, "trim_whitespace": true})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "  YES "})", R"({"output": "yes"})");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.reason == "the actual output equals the expected output (ignoring case and surrounding white space)");
}

BOOST_AUTO_TEST_CASE(output_key_name_and_threshold) {
  const ExactMatchEvaluator evaluator(config(R"({"output_key": "answer", "name": "answer_exact", "threshold": 0.0})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"answer": "a", "output": "b"})", R"({"answer": "b", "output": "b"})");
  BOOST_TEST(r.name == "answer_exact");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(*r.threshold == 0.0);
  BOOST_TEST(r.success);  // 0 >= 0
}

BOOST_AUTO_TEST_CASE(a_missing_actual_output_scores_zero_with_a_reason) {
  const ExactMatchEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, R"({})", R"({"output": "Paris"})");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason == "the actual output 'output' is missing (actualOutputs has no such key)");
}

BOOST_AUTO_TEST_CASE(a_missing_expected_output_is_an_error_naming_the_key) {
  const ExactMatchEvaluator evaluator(config(R"({"output_key": "answer"})"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"answer": "x"})", R"({"output": "x"})"), krino::Error,
                        invalid("the test case has no expected output 'answer' (expectedOutputs.answer)"));
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(ExactMatchEvaluator(config(R"({"trim": true})")), krino::Error, invalid("unknown option 'trim'"));
  BOOST_CHECK_EXCEPTION(ExactMatchEvaluator(config(R"({"ignore_case": "yes"})")), krino::Error,
                        invalid("option 'ignore_case' must be true or false"));
  BOOST_CHECK_EXCEPTION(ExactMatchEvaluator(config(R"({"threshold": 1.5})")), krino::Error,
                        invalid("option 'threshold' must be between 0 and 1, got 1.5"));
  BOOST_CHECK_EXCEPTION(ExactMatchEvaluator(config(R"({"threshold": -0.1})")), krino::Error,
                        invalid("option 'threshold' must be between 0 and 1"));
  BOOST_CHECK_EXCEPTION(ExactMatchEvaluator(config(R"({"name": ""})")), krino::Error, invalid("option 'name' must not be empty"));
  BOOST_CHECK_EXCEPTION(ExactMatchEvaluator(config(R"({"output_key": ""})")), krino::Error,
                        invalid("option 'output_key' must not be empty"));
  BOOST_CHECK_EXCEPTION(ExactMatchEvaluator(config(R"({"name": 3})")), krino::Error, invalid("option 'name' must be a string"));
}

BOOST_AUTO_TEST_SUITE_END()
