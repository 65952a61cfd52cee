// structural_match: the evaluator around compare_structures (operands, scores, errors, metadata).
#include "structural_match_evaluator.h"

#include "text_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::text;
using namespace krino::text::testing;

BOOST_AUTO_TEST_SUITE(structural_match_evaluator)

BOOST_AUTO_TEST_CASE(a_perfect_match_by_value) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": {"id": "INV-1", "total": 42.00, "lines": ["a", "b"]}})",
                                       R"({"output": {"id": "INV-1", "total": 42.0, "lines": ["a", "b"]}})");
  BOOST_TEST(r.name == "structural_match");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "4 of 4 leaves match (strict)");
  BOOST_TEST(r.metadata_object().at("matchMode").as_string() == "strict");
  BOOST_TEST(r.metadata_object().at("matchedLeaves").to_number<std::uint64_t>() == 4u);
  BOOST_TEST(r.metadata_object().at("totalLeaves").to_number<std::uint64_t>() == 4u);
  BOOST_TEST(r.metadata_object().at("mismatchedPathCount").to_number<std::uint64_t>() == 0u);
  BOOST_TEST(r.metadata_object().at("mismatchedPaths").as_array().empty());
}

BOOST_AUTO_TEST_CASE(one_equals_one_point_zero_here_but_not_in_exact_match) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": 1})", R"({"output": 1.0})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": [5]})", R"({"output": [5.0]})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(partial_scores_are_exact_fractions_over_the_mode_denominator) {
  const char* actual = R"({"output": {"a": 1, "b": 3, "c": 4}})";
  const char* expected = R"({"output": {"a": 1, "b": 2}})";
  const krino::EvalResult s = evaluate(StructuralMatchEvaluator(config("{}")), actual, expected);
  BOOST_TEST(*s.score == 1.0 / 3.0);
  BOOST_TEST(!s.success);
  BOOST_TEST(s.reason == "1 of 3 leaves match (strict): $.b: expected 2, got 3; $.c: unexpected (got 4)");
  BOOST_TEST(s.metadata_object().at("mismatchedPaths") == boost::json::parse(R"(["$.b", "$.c"])"));
  BOOST_TEST(s.metadata_object().at("mismatchedPathCount").to_number<std::uint64_t>() == 2u);
  const krino::EvalResult l = evaluate(StructuralMatchEvaluator(config(R"({"match_mode": "lenient"})")), actual, expected);
  BOOST_TEST(*l.score == 0.5);
  BOOST_TEST(l.reason == "1 of 2 leaves match (lenient): $.b: expected 2, got 3");
  BOOST_TEST(l.metadata_object().at("matchMode").as_string() == "lenient");
  const krino::EvalResult passing =
      evaluate(StructuralMatchEvaluator(config(R"({"match_mode": "lenient", "threshold": 0.5})")), actual, expected);
  BOOST_TEST(passing.success);
}

BOOST_AUTO_TEST_CASE(strict_null_against_missing_scores_zero_lenient_one) {
  const char* actual = R"({"output": {}})";
  const char* expected = R"({"output": {"a": null}})";
  BOOST_TEST(*evaluate(StructuralMatchEvaluator(config("{}")), actual, expected).score == 0.0);
  BOOST_TEST(*evaluate(StructuralMatchEvaluator(config(R"({"match_mode": "lenient"})")), actual, expected).score == 1.0);
}

BOOST_AUTO_TEST_CASE(lenient_multiset_one_one_two_against_one_two) {
  const StructuralMatchEvaluator evaluator(config(R"({"match_mode": "lenient"})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": [1, 2]})", R"({"output": [1, 1, 2]})");
  BOOST_TEST(*r.score == 2.0 / 3.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason == "2 of 3 leaves match (lenient): $[1]: no unused element of the actual array matches 1");
  const StructuralMatchEvaluator binary(config(R"({"match_mode": "lenient", "binary": true})"));
  BOOST_TEST(*evaluate(binary, R"({"output": [1, 2]})", R"({"output": [1, 1, 2]})").score == 0.0);
  BOOST_TEST(*evaluate(binary, R"({"output": [2, 1, 1]})", R"({"output": [1, 1, 2]})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(binary_scores_one_or_zero) {
  const StructuralMatchEvaluator evaluator(config(R"({"binary": true})"));
  const krino::EvalResult miss = evaluate(evaluator, R"({"output": {"a": 1, "b": 2, "c": 3}})", R"({"output": {"a": 1, "b": 2, "c": 4}})");
  BOOST_TEST(*miss.score == 0.0);
  BOOST_TEST(miss.reason == "2 of 3 leaves match (strict): $.c: expected 4, got 3");
  BOOST_TEST(miss.metadata_object().at("matchedLeaves").to_number<std::uint64_t>() == 2u);
  BOOST_TEST(*evaluate(evaluator, R"({"output": {"a": 1}})", R"({"output": {"a": 1.0}})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(json_string_operands_are_parsed) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": "{\"b\": [1, 2], \"a\": 1.0}"})", R"({"output": {"a": 1, "b": [1, 2]}})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": {"a": 1}})", R"({"output": " {\"a\": 1} "})").score == 1.0);
  // Both sides strings; only the operand itself is parsed, not strings nested inside it.
  BOOST_TEST(*evaluate(evaluator, R"({"output": "[\"[1]\"]"})", R"({"output": "[\"[1]\"]"})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": ["[1]"]})", R"({"output": [[1]]})").score == 0.0);
  // A string holding a JSON scalar is that scalar: "5" is the number 5.
  BOOST_TEST(*evaluate(evaluator, R"({"output": 5.0})", R"({"output": "5"})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": "\"hi\""})", R"({"output": "\"hi\""})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(a_string_that_is_not_json_is_an_error) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"output": "Sure! {\"a\": 1}"})", R"({"output": {"a": 1}})"), krino::Error,
                        invalid("the actual output 'output' is a string but not valid JSON"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"output": {"a": 1}})", R"({"output": "hello"})"), krino::Error,
                        invalid("the expected output 'output' is a string but not valid JSON"));
}

BOOST_AUTO_TEST_CASE(duplicate_keys_in_a_string_operand_are_an_error) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"output": "{\"a\": 1, \"a\": 2}"})", R"({"output": {"a": 2}})"), krino::Error,
                        invalid("the actual output 'output' is a string but not valid JSON: duplicate object key \"a\""));
}

BOOST_AUTO_TEST_CASE(non_finite_numbers_are_an_error) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"output": "[NaN]"})", R"({"output": [1]})"), krino::Error,
                        invalid("the actual output 'output' is a string but not valid JSON"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"output": "{\"x\": Infinity}"})", R"({"output": {"x": 1}})"), krino::Error,
                        invalid("not valid JSON"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"output": "[1e400]"})", R"({"output": [1]})"), krino::Error,
                        invalid("number out of the range of a double"));
  // 1e400 in the test case document itself reaches the evaluator as infinity.
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"output": [1]})", R"({"output": {"x": [1e400]}})"), krino::Error,
                        invalid("the expected output 'output' holds a number that is not finite"));
}

BOOST_AUTO_TEST_CASE(a_missing_expected_value_is_an_error) {
  const StructuralMatchEvaluator evaluator(config(R"({"output_key": "invoice"})"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, R"({"invoice": {}})", R"({"output": {}})"), krino::Error,
                        invalid("the test case has no expected output 'invoice'"));
}

BOOST_AUTO_TEST_CASE(an_expected_null_is_a_value) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": null})", R"({"output": null})").score == 1.0);
  BOOST_TEST(*evaluate(evaluator, R"({"output": 0})", R"({"output": null})").score == 0.0);
}

BOOST_AUTO_TEST_CASE(a_missing_actual_value_scores_zero) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, R"({})", R"({"output": {"a": 1, "b": [1, 2]}})");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason == "the actual output 'output' is missing (actualOutputs has no such key)");
  BOOST_TEST(r.metadata_object().at("matchedLeaves").to_number<std::uint64_t>() == 0u);
  BOOST_TEST(r.metadata_object().at("totalLeaves").to_number<std::uint64_t>() == 3u);
  BOOST_TEST(r.metadata_object().at("mismatchedPaths") == boost::json::parse(R"(["$"])"));
}

BOOST_AUTO_TEST_CASE(the_reason_lists_ten_differences_and_counts_the_rest) {
  const StructuralMatchEvaluator evaluator(config("{}"));
  const krino::EvalResult r =
      evaluate(evaluator, R"({"output": [0,0,0,0,0,0,0,0,0,0,0,0,0]})", R"({"output": [1,1,1,1,1,1,1,1,1,1,1,1,1]})");
  BOOST_TEST(*r.score == 0.0);
  std::string expected_reason = "0 of 13 leaves match (strict): ";
  for (int i = 0; i < 10; ++i) expected_reason += (i > 0 ? "; $[" : "$[") + std::to_string(i) + "]: expected 1, got 0";
  expected_reason += "; ... and 3 more differences";
  BOOST_TEST(r.reason == expected_reason);
  BOOST_TEST(r.metadata_object().at("mismatchedPaths").as_array().size() == 13u);
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(StructuralMatchEvaluator(config(R"({"match_mode": "loose"})")), krino::Error,
                        invalid("option 'match_mode' must be one of strict, lenient, got 'loose'"));
  BOOST_CHECK_EXCEPTION(StructuralMatchEvaluator(config(R"({"match_mode": "STRICT"})")), krino::Error,
                        invalid("option 'match_mode' must be one of strict, lenient"));
  BOOST_CHECK_EXCEPTION(StructuralMatchEvaluator(config(R"({"binary": "true"})")), krino::Error,
                        invalid("option 'binary' must be true or false"));
  BOOST_CHECK_EXCEPTION(StructuralMatchEvaluator(config(R"({"mode": "strict"})")), krino::Error,
                        invalid("unknown option 'mode' (known options: name, threshold, output_key, match_mode, binary)"));
}

BOOST_AUTO_TEST_SUITE_END()
