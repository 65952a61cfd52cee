// Evaluators made from their options and scoring test cases in-process, with the first-party text
// plugin found beside libkrino-testing in the build tree (build/lib/krino/plugins).
#include "krino/testing/eval_check.hpp"
#include "krino/testing/evaluators.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace krino::testing;

namespace {

Evaluators text_plugin() {
  LoadOptions options;
  options.plugins = {"text"};
  options.use_plugin_path_env = false;
  return load_evaluators(options);
}

template <typename F>
std::string error_of(F&& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(testing_evaluators)

BOOST_AUTO_TEST_CASE(exact_match_passes_and_misses_with_the_plugins_own_verdict_and_reason) {
  const Evaluators ev = text_plugin();
  const Evaluator exact = ev.make("exact_match");
  BOOST_TEST(exact.name() == "exact_match");

  const EvalOutcome pass = exact.score(make_test_case("Paris", "Paris", "What is the capital of France?"));
  BOOST_TEST(pass.error == "");
  BOOST_TEST(pass.passed());
  BOOST_TEST(pass.score.value_or(-1) == 1.0);
  BOOST_TEST(pass.threshold.value_or(-1) == 1.0);
  BOOST_TEST(pass.result_json.find("\"name\":\"exact_match\"") != std::string::npos);

  const EvalOutcome miss = exact.score(make_test_case("Sydney", "Canberra"));
  BOOST_TEST(!miss.passed());
  BOOST_TEST(failure_message(miss) ==
             "Evaluation 'exact_match' failed: score=0.00 (threshold=1.00)\nReason: expected \"Canberra\", got \"Sydney\"");
}

BOOST_AUTO_TEST_CASE(options_are_the_components_own_and_name_the_result) {
  const Evaluators ev = text_plugin();
  const Evaluator folded = ev.make("krino.exact_match", R"({"ignore_case":true,"name":"capital"})");
  BOOST_TEST(folded.name() == "capital");
  const EvalOutcome outcome = folded.score(make_test_case("PARIS", "Paris"));
  BOOST_TEST(outcome.passed());
  BOOST_TEST(outcome.name == "capital");
}

BOOST_AUTO_TEST_CASE(every_evaluator_is_checked_and_each_miss_reported) {
  const Evaluators ev = text_plugin();
  const Evaluator strict = ev.make("exact_match", R"({"name":"strict"})");
  const Evaluator folded = ev.make("exact_match", R"({"name":"folded","ignore_case":true})");
  const Evaluator strict_again = ev.make("exact_match", R"({"name":"strict_again"})");
  const EvalCheck check = check_eval(make_test_case("paris", "Paris"), strict, folded, strict_again);
  BOOST_TEST(check.outcomes.size() == 3u);
  BOOST_TEST(!check.passed());
  BOOST_TEST(check.message() ==
             "Evaluation 'strict' failed: score=0.00 (threshold=1.00)\nReason: expected \"Paris\", got \"paris\"\n"
             "Evaluation 'strict_again' failed: score=0.00 (threshold=1.00)\nReason: expected \"Paris\", got \"paris\"");
  BOOST_TEST(check_eval(make_test_case("Paris", "Paris"), std::vector<Evaluator>{strict, folded}).passed());
}

BOOST_AUTO_TEST_CASE(configuration_problems_throw_naming_them) {
  const Evaluators ev = text_plugin();
  BOOST_TEST(error_of([&] { ev.make("no_such_evaluator"); }).find("no_such_evaluator") != std::string::npos);
  BOOST_TEST(error_of([&] { ev.make("exact_match", R"({"ignore_case":"yes"})"); }).find("invalid options") !=
             std::string::npos);
  BOOST_TEST(error_of([&] { ev.make("exact_match", "[1,2]"); }) ==
             "the options of evaluator 'exact_match' must be a JSON object, e.g. {\"threshold\":0.8}");
  LoadOptions missing;
  missing.plugins = {"no-such-plugin"};
  BOOST_TEST(error_of([&] { load_evaluators(missing); }).find("no-such-plugin") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_bad_test_case_is_an_errored_outcome_never_a_throw) {
  const Evaluator exact = text_plugin().make("exact_match");
  const EvalOutcome not_object = exact.score("[1]");
  BOOST_TEST(!not_object.passed());
  BOOST_TEST(failure_message(not_object) ==
             "Evaluation 'exact_match' errored: the test case is invalid: a test case must be a JSON object");
  const EvalOutcome bad_section = exact.score(R"({"inputs":"x"})");
  BOOST_TEST(bad_section.error == "the test case is invalid: \"inputs\" must be an object");
  BOOST_TEST(exact.score("{\"actualOutputs\":").error.find("not valid JSON") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_evaluator_keeps_its_plugin_loaded_after_the_evaluators_are_gone) {
  std::optional<Evaluator> exact;
  {
    const Evaluators ev = text_plugin();
    exact.emplace(ev.make("exact_match"));
  }
  BOOST_TEST(exact->score(make_test_case("a", "a")).passed());
}

BOOST_AUTO_TEST_CASE(scores_from_several_threads_at_once) {
  const Evaluator exact = text_plugin().make("exact_match");
  std::vector<std::thread> threads;
  std::vector<int> passes(4, 0);
  for (size_t t = 0; t < passes.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) passes[t] += exact.score(make_test_case("x", "x")).passed() ? 1 : 0;
    });
  }
  for (auto& thread : threads) thread.join();
  for (const int count : passes) BOOST_TEST(count == 50);
}

BOOST_AUTO_TEST_SUITE_END()
