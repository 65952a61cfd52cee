// Evaluations as GoogleTest tests: one test per example of capitals.jsonl, scored by krino's
// exact_match evaluator in-process, and one test case written by hand.
//
// With KRINO_SERVER_URL (and KRINO_PROJECT, KRINO_API_KEY) set, the run also appears on a krino
// results server: one run per test suite, one item per example, with the answer and the result.
//
// The "system under test" below is a lookup table that gets Australia wrong on purpose, so
// Dataset/CapitalsTest.answers/cap_03 fails with krino's message:
//   Evaluation 'exact_match' failed: score=0.00 (threshold=1.00)
//   Reason: expected "Canberra", got "Sydney"
#include <krino/testing/gtest.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>

#ifndef KRINO_EXAMPLE_DATASET
#define KRINO_EXAMPLE_DATASET "capitals.jsonl"
#endif

namespace {

// What a real test would call: the model, the agent, the service.
std::string capital_of(const std::string& question) {
  static const std::map<std::string, std::string> answers = {
      {"What is the capital of France?", "Paris"},
      {"What is the capital of Japan?", "Tokyo"},
      {"What is the capital of Australia?", "Sydney"},  // the known miss
  };
  const auto it = answers.find(question);
  return it == answers.end() ? "I don't know" : it->second;
}

// Plugins are loaded once for the whole binary; the evaluator keeps them loaded.
const krino::testing::Evaluator& exact_match() {
  static const krino::testing::Evaluator evaluator = krino::testing::load_evaluators().make("exact_match");
  return evaluator;
}

// Reports to a results server when KRINO_SERVER_URL is set; does nothing otherwise.
::testing::Environment* const reporting =
    ::testing::AddGlobalTestEnvironment(new krino::testing::gtest::ReportingEnvironment());

class CapitalsTest : public krino::testing::gtest::ExampleTest {};

TEST_P(CapitalsTest, answers) {
  const krino::testing::Example& example = GetParam();
  const std::string answer = capital_of(example.input());
  const krino::testing::EvalCheck check =
      krino::testing::check_eval(example.test_case_with_output(answer), exact_match());
  recorder().actual_output("output", answer).eval_results(check);  // what the server's item shows
  EXPECT_EVAL(check);
}

INSTANTIATE_TEST_SUITE_P(Dataset, CapitalsTest, krino::testing::gtest::dataset(KRINO_EXAMPLE_DATASET),
                         krino::testing::gtest::example_name);

TEST(HandWritten, case_is_ignored_when_asked) {
  static const krino::testing::Evaluator folded =
      krino::testing::load_evaluators().make("exact_match", R"({"ignore_case": true, "name": "folded"})");
  ASSERT_EVAL(krino::testing::make_test_case("PARIS", "Paris"), folded);
  EXPECT_TRUE(krino::testing::gtest::eval_passes(krino::testing::make_test_case("tokyo", "Tokyo"), folded));
}

}  // namespace
