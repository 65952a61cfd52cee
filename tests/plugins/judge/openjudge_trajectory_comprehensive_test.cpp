// trajectory_comprehensive: per-step dimensions, the (s − 1) / 4 mapping, is_resolved,
// and the documented example: all fives on every step.
#include "judge_test_support.hpp"
#include "openjudge_trajectory_comprehensive.h"

#include <string>

namespace {

using krino::judge::openjudge::TrajectoryComprehensiveGrader;
using namespace krino::judge::testing;

// OpenJudge's documented example: a system prompt, a request and two tool-call steps.
const std::string kOpenjudgeTrajectoryComprehensiveCase =
    R"({"inputs":{},"actualOutputs":{"messages":[)"
    R"({"role":"system","content":"You are a helpful assistant."},)"
    R"({"role":"user","content":"Find Python files modified today"},)"
    R"({"role":"assistant","content":"I'll search for Python files.",)"
    R"("tool_calls":[{"id":"1","function":{"name":"search_files","arguments":"{\"pattern\": \"*.py\"}"}}]},)"
    R"({"role":"tool","tool_call_id":"1","content":"Found: main.py, utils.py"},)"
    R"({"role":"assistant","content":"I'll check their modification dates.",)"
    R"("tool_calls":[{"id":"2","function":{"name":"get_file_info","arguments":"{\"files\": [\"main.py\", \"utils.py\"]}"}}]},)"
    R"({"role":"tool","tool_call_id":"2","content":"main.py: today, utils.py: yesterday"},)"
    R"({"role":"assistant","content":"Found 1 file modified today: main.py"}]},"expectedOutputs":{},"metadata":{}})";

std::string step(int index, int c, int r, int a, int e, const std::string& reason) {
  return R"({"step_index":)" + std::to_string(index) + R"(,"step_reason":")" + reason + R"(","contribution_score":)" +
         std::to_string(c) + R"(,"relevance_score":)" + std::to_string(r) + R"(,"accuracy_score":)" +
         std::to_string(a) + R"(,"efficiency_score":)" + std::to_string(e) + "}";
}

BOOST_AUTO_TEST_SUITE(openjudge_trajectory_comprehensive)

BOOST_AUTO_TEST_CASE(all_fives_on_every_step_score_one_and_resolve) {
  ScriptedJudge judge;
  judge.reply(R"({"step_evaluations":[)" + step(0, 5, 5, 5, 5, "finds the candidates") + "," +
              step(1, 5, 5, 5, 5, "checks the dates") + "]}");
  const auto result = result_of(run<TrajectoryComprehensiveGrader>(judge, "{}", kOpenjudgeTrajectoryComprehensiveCase));
  BOOST_TEST(score_of(result) == 1.0);
  BOOST_TEST(result.at("success").as_bool());
  const auto& metadata = result.at("metadata").as_object();
  BOOST_TEST(metadata.at("is_resolved").as_bool());
  for (const char* key : {"avg_contribution", "avg_relevance", "avg_accuracy", "avg_efficiency"})
    BOOST_TEST(metadata.at(key).to_number<double>() == 1.0);
  BOOST_TEST(metadata.at("step_evaluations").as_array().size() == 2u);
  BOOST_TEST(metadata.at("step_evaluations").as_array()[1].at("efficiency_score").to_number<double>() == 5.0);
  BOOST_TEST(result.at("reason").as_string() == "Step 0: finds the candidates\nStep 1: checks the dates");

  const std::string prompt = judge.prompt();
  BOOST_TEST(!contains(prompt, "You are a helpful assistant."));  // system prompts are left out
  BOOST_TEST(contains(prompt, "grouped into 2 steps"));
  BOOST_TEST(contains(prompt, "USER: Find Python files modified today"));
  BOOST_TEST(contains(prompt, "ASSISTANT: I'll search for Python files.\n  [step 0] search_files({\"pattern\":\"*.py\"})"));
  BOOST_TEST(contains(prompt, "TOOL (search_files): Found: main.py, utils.py"));
  BOOST_TEST(contains(prompt, "  [step 1] get_file_info({\"files\":[\"main.py\",\"utils.py\"]})"));
  BOOST_TEST(contains(prompt, "ASSISTANT: Found 1 file modified today: main.py"));
}

BOOST_AUTO_TEST_CASE(the_score_is_the_mean_over_steps_and_dimensions_mapped_from_one_to_five) {
  ScriptedJudge judge;
  // Step 0 all 4; step 1: 5, 3, 4, 2. Raw mean 3.75 → (3.75 − 1) / 4 = 0.6875.
  judge.reply(R"({"step_evaluations":[)" + step(0, 4, 4, 4, 4, "good") + "," + step(1, 5, 3, 4, 2, "slow") + "]}");
  const auto result = result_of(run<TrajectoryComprehensiveGrader>(judge, "{}", kOpenjudgeTrajectoryComprehensiveCase));
  BOOST_TEST(score_of(result) == 0.6875);
  BOOST_TEST(!result.at("success").as_bool());  // threshold = resolution_threshold = 0.8
  const auto& metadata = result.at("metadata").as_object();
  BOOST_TEST(!metadata.at("is_resolved").as_bool());
  BOOST_TEST(metadata.at("avg_contribution").to_number<double>() == 0.875);
  BOOST_TEST(metadata.at("avg_relevance").to_number<double>() == 0.625);
  BOOST_TEST(metadata.at("avg_accuracy").to_number<double>() == 0.75);
  BOOST_TEST(metadata.at("avg_efficiency").to_number<double>() == 0.5);
  BOOST_TEST(metadata.at("nativeScore").to_number<double>() == 0.6875);

  // A lower resolution threshold moves both is_resolved and, by default, the pass mark.
  judge.reply(R"([)" + step(0, 4, 4, 4, 4, "good") + "," + step(1, 5, 3, 4, 2, "slow") + "]");  // a bare array
  const auto lenient = result_of(run<TrajectoryComprehensiveGrader>(judge, R"({"resolution_threshold":0.6})", kOpenjudgeTrajectoryComprehensiveCase));
  BOOST_TEST(lenient.at("success").as_bool());
  BOOST_TEST(lenient.at("metadata").at("is_resolved").as_bool());
  BOOST_TEST(lenient.at("threshold").to_number<double>() == 0.6);
}

BOOST_AUTO_TEST_CASE(scores_outside_one_to_five_are_clamped_and_names_without_suffix_accepted) {
  ScriptedJudge judge;
  judge.reply(R"({"step_evaluations":[{"contribution":9,"relevance":"5","accuracy":0,"efficiency":1}]})");
  const auto result = result_of(run<TrajectoryComprehensiveGrader>(judge, "{}", kOpenjudgeTrajectoryComprehensiveCase));
  BOOST_TEST(score_of(result) == 0.5);  // 5, 5, 1, 1
  BOOST_TEST(result.at("reason").as_string() == "Step 0: ");
}

BOOST_AUTO_TEST_CASE(no_steps_or_no_messages_score_zero_without_a_judge_call) {
  ScriptedJudge judge;
  const auto no_steps = result_of(run<TrajectoryComprehensiveGrader>(
      judge, "{}",
      R"({"inputs":{},"actualOutputs":{"conversation":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]},)"
      R"("expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(score_of(no_steps) == 0.0);
  BOOST_TEST(!no_steps.at("metadata").at("is_resolved").as_bool());
  BOOST_TEST(no_steps.at("reason").as_string() == "no tool-call steps to evaluate");
  const auto no_messages = result_of(run<TrajectoryComprehensiveGrader>(
      judge, R"({"messages_key":"trace"})", R"({"inputs":{},"actualOutputs":{},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(score_of(no_messages) == 0.0);
  BOOST_TEST(contains(no_messages.at("reason").as_string(), "no 'trace'"));
  BOOST_TEST(judge.calls() == 0u);
}

BOOST_AUTO_TEST_CASE(unreadable_or_incomplete_replies_are_item_errors) {
  ScriptedJudge judge;
  judge.reply("Both steps look excellent to me.")
      .reply(R"({"step_evaluations":[]})")
      .reply(R"({"step_evaluations":[{"step_index":0,"contribution_score":5,"relevance_score":5,"accuracy_score":5}]})");
  const auto prose = run<TrajectoryComprehensiveGrader>(judge, "{}", kOpenjudgeTrajectoryComprehensiveCase);
  BOOST_TEST(prose.status == KRINO_INTERNAL);
  BOOST_TEST(contains(prose.error, "Both steps look excellent"));
  const auto empty = run<TrajectoryComprehensiveGrader>(judge, "{}", kOpenjudgeTrajectoryComprehensiveCase);
  BOOST_TEST(empty.status == KRINO_INTERNAL);
  BOOST_TEST(contains(empty.error, "'step_evaluations'"));
  const auto partial = run<TrajectoryComprehensiveGrader>(judge, "{}", kOpenjudgeTrajectoryComprehensiveCase);
  BOOST_TEST(partial.status == KRINO_INTERNAL);
  BOOST_TEST(contains(partial.error, "'efficiency_score'"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
