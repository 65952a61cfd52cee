// The Catch2 adapter as a test binary uses it: GENERATE over a dataset, CHECK_EVAL / REQUIRE_EVAL.
// The sample dataset of sdk/examples/gtest_eval holds one known miss (cap_03), so this binary fails
// with krino's message; CTest checks its output (tests/testing/CMakeLists.txt).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <krino/testing/catch2.hpp>

#include <map>
#include <string>

namespace {

std::string capital_of(const std::string& question) {
  static const std::map<std::string, std::string> answers = {
      {"What is the capital of France?", "Paris"},
      {"What is the capital of Japan?", "Tokyo"},
      {"What is the capital of Australia?", "Sydney"},  // the known miss
  };
  const auto it = answers.find(question);
  return it == answers.end() ? "I don't know" : it->second;
}

const krino::testing::Evaluator& exact_match() {
  static const krino::testing::Evaluator evaluator = krino::testing::load_evaluators().make("exact_match");
  return evaluator;
}

}  // namespace

TEST_CASE("capitals") {
  const krino::testing::Example example = GENERATE(krino::testing::catch2::dataset(KRINO_EXAMPLE_DATASET));
  CAPTURE(example);
  CHECK_EVAL(example.test_case_with_output(capital_of(example.input())), exact_match());
}

TEST_CASE("case is ignored when asked") {
  static const krino::testing::Evaluator folded =
      krino::testing::load_evaluators().make("exact_match", R"({"ignore_case": true})");
  REQUIRE_EVAL(krino::testing::make_test_case("PARIS", "Paris"), folded);
}

TEST_CASE("an unreadable dataset fails the test case") {
  const krino::testing::Example example = GENERATE(krino::testing::catch2::dataset("/nonexistent/cases.jsonl"));
  CHECK_EVAL(example.test_case_with_output("x"), exact_match());
}
