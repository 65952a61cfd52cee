// N-vote judging (voting.h) on the OpenJudge LLM graders: the rubric graders (step and tool) and
// trajectory_comprehensive declare votes / vote_aggregation and fold N seeded judge passes into one;
// votes: 1 is unchanged.
#include "judge_test_support.hpp"
#include "openjudge_rubric_grader.h"
#include "openjudge_trajectory_comprehensive.h"
#include "voting.h"

#include <set>
#include <string>

namespace {

using krino::judge::openjudge::RubricGraderOf;
using krino::judge::openjudge::RubricKind;
using krino::judge::openjudge::TrajectoryComprehensiveGrader;
using namespace krino::judge::testing;
namespace tt = boost::test_tools;

const std::string kStepCase =
    R"({"inputs":{},"actualOutputs":{"plan":"open drawer 1","observation":"drawer 1 is closed","memory":"nothing yet"},)"
    R"("expectedOutputs":{},"metadata":{}})";

const std::string kToolCase =
    R"({"inputs":{},"actualOutputs":{"conversation":[)"
    R"({"role":"user","content":"Find Python files"},)"
    R"({"role":"assistant","tool_calls":[{"id":"1","function":{"name":"search_files","arguments":"{\"pattern\": \"*.py\"}"}}]},)"
    R"({"role":"tool","tool_call_id":"1","content":"main.py"}]},)"
    R"("expectedOutputs":{},"metadata":{"tools":[{"name":"search_files","description":"Find files"}]}})";

std::string judged(int native, const std::string& reason) {
  return R"({"score": )" + std::to_string(native) + R"(, "reason": ")" + reason + R"("})";
}

std::string steps_judged(int all, const std::string& reason) {
  const std::string n = std::to_string(all);
  return R"({"step_evaluations":[{"step_index":0,"step_reason":")" + reason + R"(","contribution_score":)" + n +
         R"(,"relevance_score":)" + n + R"(,"accuracy_score":)" + n + R"(,"efficiency_score":)" + n + "}]}";
}

// Every request carries its vote's seed, all different, and the same prompt.
void check_seeds(const ScriptedJudge& judge, std::size_t votes) {
  BOOST_TEST_REQUIRE(judge.calls() == votes);
  std::set<std::int64_t> seeds;
  for (std::size_t i = 0; i < votes; ++i) {
    const std::int64_t seed = judge.request(i).at("seed").as_int64();
    BOOST_TEST(seed == krino::judge::vote_seed(0, static_cast<std::int64_t>(i)));  // the test host's seed is 0
    seeds.insert(seed);
    BOOST_TEST(judge.prompt(i) == judge.prompt(0));
  }
  BOOST_TEST(seeds.size() == votes);
}

BOOST_AUTO_TEST_SUITE(openjudge_votes)

BOOST_AUTO_TEST_CASE(step_grader_mean_of_three_votes) {
  ScriptedJudge judge;
  judge.reply(judged(1, "feasible")).reply(judged(0, "infeasible")).reply(judged(1, "doable"));
  const auto result =
      result_of(run<RubricGraderOf<RubricKind::plan_feasibility>>(judge, R"({"votes":3})", kStepCase));
  check_seeds(judge, 3);
  BOOST_TEST(score_of(result) == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(result.at("success").as_bool());  // 0.667 >= 0.5
  BOOST_TEST(result.at("reason").as_string() == "feasible");  // first of the votes nearest the mean that agree
  const auto& metadata = result.at("metadata").as_object();
  BOOST_TEST(metadata.at("nativeScore").to_number<double>() == 1.0);  // the representative vote's
  BOOST_TEST(metadata.at("agreement").to_number<double>() == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(metadata.at("voteAggregation").as_string() == "mean");
  const auto& votes = metadata.at("votes").as_array();
  BOOST_TEST_REQUIRE(votes.size() == 3u);
  BOOST_TEST(votes[1].at("score").to_number<double>() == 0.0);
  BOOST_TEST(votes[1].at("reason").as_string() == "infeasible");
  BOOST_TEST(!votes[1].at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(tool_grader_mean_and_majority_differ_on_a_one_to_five_scale) {
  // Natives 5, 2, 2 → 1.0, 0.25, 0.25: mean 0.5 fails at 0.75; the majority fails too, scored 0.25.
  ScriptedJudge mean_judge;
  mean_judge.reply(judged(5, "ideal")).reply(judged(2, "weak")).reply(judged(2, "poor"));
  const auto mean = result_of(
      run<RubricGraderOf<RubricKind::tool_call_accuracy>>(mean_judge, R"({"votes":3})", kToolCase));
  check_seeds(mean_judge, 3);
  BOOST_TEST(score_of(mean) == 0.5, tt::tolerance(1e-12));
  BOOST_TEST(!mean.at("success").as_bool());
  BOOST_TEST(mean.at("metadata").at("toolCallCount").as_int64() == 1);
  BOOST_TEST(mean.at("metadata").at("agreement").to_number<double>() == 2.0 / 3.0, tt::tolerance(1e-12));

  // Natives 5, 4, 1 → 1.0, 0.75, 0.0: mean 0.583 fails, but two of three votes pass.
  ScriptedJudge majority_judge;
  majority_judge.reply(judged(5, "ideal")).reply(judged(4, "good")).reply(judged(1, "wrong tool"));
  const auto majority = result_of(run<RubricGraderOf<RubricKind::tool_call_accuracy>>(
      majority_judge, R"({"votes":3,"vote_aggregation":"majority"})", kToolCase));
  check_seeds(majority_judge, 3);
  BOOST_TEST(majority.at("success").as_bool());
  BOOST_TEST(score_of(majority) == 0.875, tt::tolerance(1e-12));  // mean of the passing side
  BOOST_TEST(majority.at("metadata").at("voteAggregation").as_string() == "majority");
  BOOST_TEST(majority.at("metadata").at("agreement").to_number<double>() == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(majority.at("metadata").at("votes").as_array().size() == 3u);

  // The same votes under mean: 0.583 < 0.75 fails.
  ScriptedJudge same_votes;
  same_votes.reply(judged(5, "ideal")).reply(judged(4, "good")).reply(judged(1, "wrong tool"));
  const auto by_mean = result_of(
      run<RubricGraderOf<RubricKind::tool_call_accuracy>>(same_votes, R"({"votes":3,"vote_aggregation":"mean"})",
                                                          kToolCase));
  BOOST_TEST(score_of(by_mean) == 1.75 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(!by_mean.at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(trajectory_comprehensive_votes) {
  // Every dimension 5, 1, 5 → 1.0, 0.0, 1.0.
  ScriptedJudge judge;
  judge.reply(steps_judged(5, "good")).reply(steps_judged(1, "bad")).reply(steps_judged(5, "fine"));
  const auto mean = result_of(run<TrajectoryComprehensiveGrader>(judge, R"({"votes":3})", kToolCase));
  check_seeds(judge, 3);
  BOOST_TEST(score_of(mean) == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(!mean.at("success").as_bool());  // threshold = resolution_threshold 0.8
  BOOST_TEST(mean.at("metadata").at("agreement").to_number<double>() == 1.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(mean.at("reason").as_string() == "Step 0: bad");  // the only vote agreeing with the failure

  ScriptedJudge majority_judge;
  majority_judge.reply(steps_judged(5, "good")).reply(steps_judged(1, "bad")).reply(steps_judged(5, "fine"));
  const auto majority = result_of(
      run<TrajectoryComprehensiveGrader>(majority_judge, R"({"votes":3,"vote_aggregation":"majority"})", kToolCase));
  BOOST_TEST(majority.at("success").as_bool());
  BOOST_TEST(score_of(majority) == 1.0);
  BOOST_TEST(majority.at("reason").as_string() == "Step 0: good");
  BOOST_TEST(majority.at("metadata").at("is_resolved").as_bool());  // the representative vote's metadata
  BOOST_TEST(majority.at("metadata").at("votes").as_array().size() == 3u);
}

BOOST_AUTO_TEST_CASE(one_vote_is_unchanged) {
  ScriptedJudge step;
  step.reply(judged(1, "feasible"));
  const auto one = result_of(run<RubricGraderOf<RubricKind::plan_feasibility>>(step, R"({"votes":1})", kStepCase));
  BOOST_TEST(step.calls() == 1u);
  BOOST_TEST(!step.request(0).contains("seed"));
  BOOST_TEST(!one.at("metadata").as_object().contains("votes"));
  BOOST_TEST(!one.at("metadata").as_object().contains("agreement"));

  ScriptedJudge trajectory;
  trajectory.reply(steps_judged(5, "good"));
  const auto traj = result_of(run<TrajectoryComprehensiveGrader>(trajectory, "{}", kToolCase));
  BOOST_TEST(trajectory.calls() == 1u);
  BOOST_TEST(!trajectory.request(0).contains("seed"));
  BOOST_TEST(!traj.at("metadata").as_object().contains("votes"));
}

BOOST_AUTO_TEST_CASE(no_calls_shortcut_asks_no_judge_and_adds_no_vote_metadata) {
  const std::string no_calls =
      R"({"inputs":{},"actualOutputs":{"conversation":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]},)"
      R"("expectedOutputs":{},"metadata":{}})";
  ScriptedJudge judge;
  const auto result =
      result_of(run<RubricGraderOf<RubricKind::tool_call_success>>(judge, R"({"votes":5})", no_calls));
  BOOST_TEST(judge.calls() == 0u);
  BOOST_TEST(score_of(result) == 1.0);
  BOOST_TEST(!result.at("metadata").as_object().contains("votes"));
}

BOOST_AUTO_TEST_CASE(votes_below_one_and_unknown_aggregation_are_rejected) {
  ScriptedJudge judge;
  BOOST_TEST(run<RubricGraderOf<RubricKind::tool_call_accuracy>>(judge, R"({"votes":0})", kToolCase).status !=
             KRINO_OK);
  BOOST_TEST(run<TrajectoryComprehensiveGrader>(judge, R"({"vote_aggregation":"median"})", kToolCase).status !=
             KRINO_OK);
  BOOST_TEST(judge.calls() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
