// The assertion's message, word for word as Dokimos's assertEval writes it.
#include "krino/testing/eval_check.hpp"

#include <boost/test/unit_test.hpp>

using krino::testing::EvalCheck;
using krino::testing::EvalOutcome;
using krino::testing::failure_message;

BOOST_AUTO_TEST_SUITE(testing_failure_message)

BOOST_AUTO_TEST_CASE(score_and_threshold_with_two_decimals_then_the_reason) {
  EvalOutcome outcome;
  outcome.name = "faithfulness";
  outcome.score = 0.65;
  outcome.threshold = 0.8;
  outcome.reason = "the answer adds a date the context does not give";
  BOOST_TEST(failure_message(outcome) ==
             "Evaluation 'faithfulness' failed: score=0.65 (threshold=0.80)\n"
             "Reason: the answer adds a date the context does not give");
}

BOOST_AUTO_TEST_CASE(rounds_to_two_decimals_as_printf_does) {
  EvalOutcome outcome;
  outcome.name = "x";
  outcome.score = 0.666666;
  outcome.threshold = 1.0;
  BOOST_TEST(failure_message(outcome) == "Evaluation 'x' failed: score=0.67 (threshold=1.00)\nReason: ");
}

BOOST_AUTO_TEST_CASE(a_missing_score_or_threshold_is_named) {
  EvalOutcome outcome;
  outcome.name = "judge";
  outcome.reason = "no verdict";
  BOOST_TEST(failure_message(outcome) == "Evaluation 'judge' failed: score=n/a (threshold=none)\nReason: no verdict");
}

BOOST_AUTO_TEST_CASE(an_evaluator_error_says_errored) {
  EvalOutcome outcome;
  outcome.name = "exact_match";
  outcome.error = "the test case is invalid: \"inputs\" must be an object";
  BOOST_TEST(failure_message(outcome) ==
             "Evaluation 'exact_match' errored: the test case is invalid: \"inputs\" must be an object");
}

BOOST_AUTO_TEST_CASE(a_check_names_every_miss_in_order_and_passes_only_when_all_pass) {
  EvalOutcome pass;
  pass.name = "a";
  pass.success = true;
  pass.score = 1.0;
  EvalOutcome miss_b;
  miss_b.name = "b";
  miss_b.score = 0.5;
  miss_b.threshold = 0.75;
  miss_b.reason = "half";
  EvalOutcome miss_c;
  miss_c.name = "c";
  miss_c.error = "boom";
  EvalCheck check{{pass, miss_b, miss_c}};
  BOOST_TEST(!check.passed());
  BOOST_TEST(check.message() ==
             "Evaluation 'b' failed: score=0.50 (threshold=0.75)\nReason: half\nEvaluation 'c' errored: boom");
  BOOST_TEST(EvalCheck{{pass}}.passed());
  BOOST_TEST(EvalCheck{{pass}}.message().empty());
}

BOOST_AUTO_TEST_SUITE_END()
