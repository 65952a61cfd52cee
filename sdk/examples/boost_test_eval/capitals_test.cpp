// Evaluations as Boost.Test test cases: a data-driven test case over capitals.jsonl, scored by
// krino's exact_match evaluator in-process, and one test case written by hand.
//
// With KRINO_SERVER_URL (and KRINO_PROJECT, KRINO_API_KEY) set, the run also appears on a krino
// results server: one run for `answers`, one item per sample, with the answer and the result.
//
// The "system under test" below is a lookup table that gets Australia wrong on purpose, so the
// third sample of `answers` fails with krino's message:
//   Evaluation 'exact_match' failed: score=0.00 (threshold=1.00)
//   Reason: expected "Canberra", got "Sydney"
#define BOOST_TEST_MODULE capitals
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <krino/testing/boost_test.hpp>

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

}  // namespace

// Reports to a results server when KRINO_SERVER_URL is set; does nothing otherwise. (The macro
// takes an unqualified name.)
using Reporting = krino::testing::boost_test::Reporting;
BOOST_TEST_GLOBAL_FIXTURE(Reporting);

BOOST_DATA_TEST_CASE(answers, krino::testing::boost_test::dataset(KRINO_EXAMPLE_DATASET), example) {
  krino::testing::boost_test::ReportedItem item(example);
  const std::string answer = capital_of(example.input());
  const krino::testing::EvalCheck check =
      krino::testing::check_eval(example.test_case_with_output(answer), exact_match());
  item.recorder().actual_output("output", answer).eval_results(check);  // what the server's item shows
  KRINO_CHECK_EVAL(check);
}

BOOST_AUTO_TEST_CASE(case_is_ignored_when_asked) {
  static const krino::testing::Evaluator folded =
      krino::testing::load_evaluators().make("exact_match", R"({"ignore_case": true, "name": "folded"})");
  KRINO_REQUIRE_EVAL(krino::testing::make_test_case("PARIS", "Paris"), folded);
}
