#include "judge_test_support.hpp"
#include "tool_argument_hallucination_evaluator.h"

namespace {

using krino::judge::ToolArgumentHallucinationEvaluator;
using namespace krino::judge::testing;

const std::string kToolArgumentHallucinationCase =
    R"({"inputs":{"input":"Book the cheapest flight from NYC to Paris"},"actualOutputs":{"toolCalls":[)"
    R"({"name":"search_flights","arguments":{"origin":"NYC","destination":"Paris"},"result":"[{\"id\":\"AF7\",\"price\":420}]"},)"
    R"({"name":"book_flight","arguments":{"flight_id":"AF7","passenger":"Jane Doe"}}]},"expectedOutputs":{},"metadata":{}})";

BOOST_AUTO_TEST_SUITE(tool_argument_hallucination)

BOOST_AUTO_TEST_CASE(one_call_for_all_calls_with_prior_results_and_verdicts) {
  ScriptedJudge judge;
  judge.reply(R"({"verdicts":[{"toolName":"search_flights","grounded":true,"reason":"from the request"},)"
              R"({"toolName":"book_flight","grounded":false,"reason":"passenger name is made up"}]})");
  const auto result = result_of(run<ToolArgumentHallucinationEvaluator>(judge, "{}", kToolArgumentHallucinationCase));
  BOOST_TEST(score_of(result) == 0.5);
  BOOST_TEST(!result.at("success").as_bool());  // default threshold 0.8
  const auto& verdicts = result.at("metadata").at("verdicts").as_array();
  BOOST_TEST_REQUIRE(verdicts.size() == 2u);
  BOOST_TEST(verdicts[1].at("toolName").as_string() == "book_flight");
  BOOST_TEST(verdicts[1].at("grounded").as_bool() == false);

  BOOST_TEST_REQUIRE(judge.calls() == 1u);
  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "Book the cheapest flight from NYC to Paris"));
  BOOST_TEST(contains(prompt, "[1] search_flights\nArguments:\n{\n  \"origin\": \"NYC\",\n  \"destination\": \"Paris\"\n}"));
  BOOST_TEST(contains(prompt, "Result:\n[{\"id\":\"AF7\",\"price\":420}]"));  // grounding for the later call
  BOOST_TEST(contains(prompt, "[2] book_flight"));
}

BOOST_AUTO_TEST_CASE(a_bare_array_reply_is_accepted) {
  ScriptedJudge judge;
  judge.reply(R"(Verdicts:
[{"toolName":"search_flights","grounded":true},{"toolName":"book_flight","grounded":"true"}])");
  const auto result = result_of(run<ToolArgumentHallucinationEvaluator>(judge, "{}", kToolArgumentHallucinationCase));
  BOOST_TEST(score_of(result) == 1.0);
  BOOST_TEST(result.at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(no_calls_scores_one_without_a_call_and_a_bad_reply_is_an_error) {
  ScriptedJudge judge;
  const auto empty = result_of(run<ToolArgumentHallucinationEvaluator>(
      judge, "{}", R"({"inputs":{"input":"hi"},"actualOutputs":{"toolCalls":[]},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(score_of(empty) == 1.0);
  BOOST_TEST(judge.calls() == 0u);

  judge.reply(R"({"verdicts":[{"toolName":"search_flights"}]})").reply("All grounded.");
  const auto no_flag = run<ToolArgumentHallucinationEvaluator>(judge, "{}", kToolArgumentHallucinationCase);
  BOOST_TEST(no_flag.status == KRINO_INTERNAL);
  BOOST_TEST(contains(no_flag.error, "'grounded'"));
  const auto prose = run<ToolArgumentHallucinationEvaluator>(judge, "{}", kToolArgumentHallucinationCase);
  BOOST_TEST(prose.status == KRINO_INTERNAL);
  BOOST_TEST(contains(prose.error, "All grounded."));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
