// trajectory_judge: one judge call per criterion over the rendered conversation,
// 0..10 replies scaled, the four aggregations, tool calls shown only on request, and the errors.
#include "judge_test_support.hpp"
#include "trajectory_judge_evaluator.h"

namespace {

using krino::judge::TrajectoryJudgeEvaluator;
using namespace krino::judge::testing;
namespace tt = boost::test_tools;

const std::string kConversation =
    R"({"inputs":{},"expectedOutputs":{},"metadata":{},"actualOutputs":{"trajectory":[)"
    R"({"role":"user","content":"Book me a hotel in Paris"},)"
    R"({"role":"assistant","content":"Looking.","toolCalls":[{"id":"c1","name":"search_hotels","arguments":{"city":"Paris"}}]},)"
    R"({"role":"tool","tool_call_id":"c1","content":"Hotel Lumiere"},)"
    R"({"role":"assistant","content":"Booked Hotel Lumiere."}]}})";

BOOST_AUTO_TEST_SUITE(trajectory_judge)

BOOST_AUTO_TEST_CASE(one_call_per_criterion_with_the_transcript_and_the_criterion) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 0.9, "reason": "done"})").reply(R"({"score": 8, "reason": "mostly clear"})");
  const auto result = result_of(run<TrajectoryJudgeEvaluator>(
      judge, R"({"criteria":["goal_completion",{"name":"brevity","description":"Are replies short?","weight":2}]})",
      kConversation));
  BOOST_TEST_REQUIRE(judge.calls() == 2u);
  const std::string first = judge.prompt(0);
  BOOST_TEST(contains(first, "Criterion: goal_completion"));
  BOOST_TEST(contains(first, "USER: Book me a hotel in Paris"));
  BOOST_TEST(contains(first, "ASSISTANT: Booked Hotel Lumiere."));
  BOOST_TEST(contains(first, "TOOL: Hotel Lumiere"));
  BOOST_TEST(!contains(first, "[tool:"));  // tool calls are off by default
  BOOST_TEST(contains(judge.prompt(1), "Criterion: brevity\nAre replies short?"));

  // 8 is read as 8/10; mean of 0.9 and 0.8.
  BOOST_TEST(score_of(result) == 0.85, tt::tolerance(1e-12));
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(result.at("threshold").to_number<double>() == 0.7);
  BOOST_TEST(result.at("name").as_string() == "trajectory_judge");
  const auto& metadata = result.at("metadata").as_object();
  BOOST_TEST(metadata.at("turnCount").to_number<int>() == 1);
  BOOST_TEST(metadata.at("aggregationStrategy").as_string() == "mean");
  BOOST_TEST(metadata.at("criterionScores").at("brevity").at("score").to_number<double>() == 0.8, tt::tolerance(1e-12));
  BOOST_TEST(metadata.at("criterionScores").at("brevity").at("reason").as_string() == "mostly clear");
  BOOST_TEST(metadata.at("criterionScores").at("goal_completion").at("weight").to_number<double>() == 2.0);
  BOOST_TEST(contains(result.at("reason").as_string(), "lowest: brevity"));
}

BOOST_AUTO_TEST_CASE(the_four_aggregations) {
  // goal_completion (built-in weight 2) 1.0, professional_tone (0.5) 0.0; scores above 1 are /10 and clamped.
  const auto score_with = [](const std::string& aggregation) {
    ScriptedJudge judge;
    judge.reply(R"({"score": 1.0})").reply(R"({"score": -3})");
    return score_of(result_of(run<TrajectoryJudgeEvaluator>(
        judge, R"({"criteria":["goal_completion","professional_tone"],"aggregation":")" + aggregation + R"("})",
        kConversation)));
  };
  BOOST_TEST(score_with("mean") == 0.5);
  BOOST_TEST(score_with("weighted_mean") == 2.0 / 2.5, tt::tolerance(1e-12));
  BOOST_TEST(score_with("min") == 0.0);
  BOOST_TEST(score_with("max") == 1.0);

  ScriptedJudge clamp;
  clamp.reply(R"({"score": 42})");
  BOOST_TEST(score_of(result_of(run<TrajectoryJudgeEvaluator>(clamp, R"({"criteria":["safety"]})", kConversation))) == 1.0);
}

BOOST_AUTO_TEST_CASE(include_tool_calls_shows_each_turns_calls_with_arguments) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1})");
  const auto result = result_of(run<TrajectoryJudgeEvaluator>(
      judge, R"({"criteria":["helpfulness"],"include_tool_calls":true,"include_per_criterion_scores":false})",
      kConversation));
  BOOST_TEST(contains(judge.prompt(), R"(ASSISTANT: Looking.)" "\n" R"(  [tool: search_hotels({"city":"Paris"})])"));
  BOOST_TEST(!result.at("metadata").as_object().contains("criterionScores"));
}

BOOST_AUTO_TEST_CASE(an_empty_trajectory_scores_zero_without_a_call) {
  ScriptedJudge judge;
  const auto result = result_of(run<TrajectoryJudgeEvaluator>(
      judge, R"({"criteria":["clarity"]})",
      R"({"inputs":{},"expectedOutputs":{},"metadata":{},"actualOutputs":{"trajectory":{"messages":[]}}})"));
  BOOST_TEST(judge.calls() == 0u);
  BOOST_TEST(score_of(result) == 0.0);
  BOOST_TEST(!result.at("success").as_bool());
  BOOST_TEST(contains(result.at("reason").as_string(), "no messages"));
}

BOOST_AUTO_TEST_CASE(unreadable_replies_and_missing_trajectories_are_item_errors) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1})").reply(R"({"verdict": "good"})");
  const auto no_score = run<TrajectoryJudgeEvaluator>(judge, R"({"criteria":["clarity","safety"]})", kConversation);
  BOOST_TEST(no_score.status == KRINO_INTERNAL);
  BOOST_TEST(contains(no_score.error, "criterion 'safety'"));

  ScriptedJudge none;
  const auto missing = run<TrajectoryJudgeEvaluator>(
      none, R"({"criteria":["clarity"]})", R"({"inputs":{},"expectedOutputs":{},"metadata":{},"actualOutputs":{}})");
  BOOST_TEST(missing.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(missing.error, "actualOutputs.trajectory"));
}

BOOST_AUTO_TEST_CASE(criteria_are_checked_when_the_evaluator_is_created) {
  ScriptedJudge judge;
  for (const char* config :
       {R"({})", R"({"criteria":[]})", R"({"criteria":["kindness"]})", R"({"criteria":[{"name":"brevity"}]})",
        R"({"criteria":["clarity","clarity"]})", R"({"criteria":[{"name":"x","description":"d","weight":0}]})",
        R"({"criteria":["clarity"],"aggregation":"median"})", R"({"criteria":["clarity"],"prompt":"{{criterio}}"})"}) {
    BOOST_TEST_CONTEXT(config) {
      BOOST_TEST(run<TrajectoryJudgeEvaluator>(judge, config, kConversation).status == KRINO_INVALID_ARGUMENT);
    }
  }
  BOOST_TEST(judge.calls() == 0u);
  // A built-in named in an object keeps its description and takes the given weight.
  const TrajectoryJudgeEvaluator evaluator(krino::Config(boost::json::parse(R"({"criteria":[{"name":"safety","weight":9}]})").as_object()));
  BOOST_TEST(evaluator.criteria().at(0).weight == 9.0);
  BOOST_TEST(!evaluator.criteria().at(0).description.empty());
  BOOST_TEST(krino::judge::builtin_trajectory_criteria().size() == 11u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
