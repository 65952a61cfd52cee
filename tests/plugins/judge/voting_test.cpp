// N-vote judging (voting.h), shared by every judge evaluator: seeds, mean and majority, agreement,
// the tie rule, the evaluator's direction, and votes: 1 leaving everything as it was.
#include "faithfulness_evaluator.h"
#include "hallucination_evaluator.h"
#include "judge_test_support.hpp"
#include "llm_judge_evaluator.h"
#include "task_completion_evaluator.h"
#include "voting.h"

#include <set>

namespace {

using krino::judge::HallucinationEvaluator;
using krino::judge::LlmJudgeEvaluator;
using krino::judge::TaskCompletionEvaluator;
using namespace krino::judge::testing;
namespace tt = boost::test_tools;

const std::string kVotingCase =
    R"({"inputs":{"input":"q"},"actualOutputs":{"output":"a","context":["c"]},"expectedOutputs":{},"metadata":{}})";

std::string judged(double score, const std::string& reason) {
  return R"({"score": )" + std::to_string(score) + R"(, "reason": ")" + reason + R"("})";
}

BOOST_AUTO_TEST_SUITE(voting)

BOOST_AUTO_TEST_CASE(one_vote_sends_no_seed_and_adds_no_metadata) {
  ScriptedJudge judge;
  judge.reply(judged(0.9, "fine"));
  const auto result = result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","votes":1})", kVotingCase));
  BOOST_TEST(judge.calls() == 1u);
  BOOST_TEST(!judge.request(0).contains("seed"));
  BOOST_TEST(!result.at("metadata").as_object().contains("votes"));
  BOOST_TEST(!result.at("metadata").as_object().contains("agreement"));
}

BOOST_AUTO_TEST_CASE(each_vote_has_its_own_seed_derived_from_the_call_seed) {
  ScriptedJudge judge;
  judge.reply(judged(0.9, "a")).reply(judged(0.2, "b")).reply(judged(0.7, "c"));
  result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","votes":3})", kVotingCase));
  BOOST_TEST_REQUIRE(judge.calls() == 3u);
  std::set<std::int64_t> seeds;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::int64_t seed = judge.request(i).at("seed").as_int64();
    BOOST_TEST(seed == krino::judge::vote_seed(0, static_cast<std::int64_t>(i)));  // the test host's context seed is 0
    BOOST_TEST(seed >= 0);
    seeds.insert(seed);
    BOOST_TEST(judge.prompt(i) == judge.prompt(0));  // same prompt, only the seed differs
  }
  BOOST_TEST(seeds.size() == 3u);
  BOOST_TEST(krino::judge::vote_seed(1, 0) != krino::judge::vote_seed(0, 0));
  BOOST_TEST(krino::judge::vote_seed(7, 2) == krino::judge::vote_seed(7, 2));
}

BOOST_AUTO_TEST_CASE(mean_averages_the_scores_and_records_votes_and_agreement) {
  ScriptedJudge judge;
  judge.reply(judged(0.9, "great")).reply(judged(0.2, "poor")).reply(judged(0.7, "good"));
  const auto result = result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","votes":3})", kVotingCase));
  BOOST_TEST(score_of(result) == 0.6, tt::tolerance(1e-12));
  BOOST_TEST(result.at("success").as_bool());  // 0.6 >= 0.5
  // The representative vote agrees with the verdict and is nearest the mean: 0.7.
  BOOST_TEST(result.at("reason").as_string() == "good");
  const auto& metadata = result.at("metadata").as_object();
  BOOST_TEST(metadata.at("rawScore").to_number<double>() == 0.7, tt::tolerance(1e-12));
  BOOST_TEST(metadata.at("agreement").to_number<double>() == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(metadata.at("voteAggregation").as_string() == "mean");
  const auto& votes = metadata.at("votes").as_array();
  BOOST_TEST_REQUIRE(votes.size() == 3u);
  BOOST_TEST(votes[1].at("score").to_number<double>() == 0.2, tt::tolerance(1e-12));
  BOOST_TEST(votes[1].at("reason").as_string() == "poor");
  BOOST_TEST(!votes[1].at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(majority_takes_the_verdict_most_votes_reached_scored_by_that_side) {
  ScriptedJudge judge;
  judge.reply(judged(0.9, "great")).reply(judged(0.1, "poor")).reply(judged(0.7, "good"));
  const auto result =
      result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","votes":3,"vote_aggregation":"majority"})", kVotingCase));
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(score_of(result) == 0.8, tt::tolerance(1e-12));  // mean of 0.9 and 0.7, not of all three
  BOOST_TEST(result.at("metadata").at("agreement").to_number<double>() == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(result.at("metadata").at("voteAggregation").as_string() == "majority");

  // Where mean and majority part: two narrow fails and one strong pass.
  ScriptedJudge split;
  split.reply(judged(0.4, "x")).reply(judged(0.4, "y")).reply(judged(1.0, "z"));
  const auto by_majority =
      result_of(run<LlmJudgeEvaluator>(split, R"({"criteria":"c","votes":3,"vote_aggregation":"majority"})", kVotingCase));
  BOOST_TEST(!by_majority.at("success").as_bool());
  BOOST_TEST(score_of(by_majority) == 0.4, tt::tolerance(1e-12));
  ScriptedJudge split_mean;
  split_mean.reply(judged(0.4, "x")).reply(judged(0.4, "y")).reply(judged(1.0, "z"));
  const auto by_mean = result_of(run<LlmJudgeEvaluator>(split_mean, R"({"criteria":"c","votes":3})", kVotingCase));
  BOOST_TEST(by_mean.at("success").as_bool());
  BOOST_TEST(score_of(by_mean) == 0.6, tt::tolerance(1e-12));
  BOOST_TEST(by_mean.at("reason").as_string() == "z");
}

BOOST_AUTO_TEST_CASE(a_majority_tie_fails) {
  ScriptedJudge judge;
  judge.reply(judged(0.9, "pass")).reply(judged(0.1, "fail"));
  const auto result =
      result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","votes":2,"vote_aggregation":"majority"})", kVotingCase));
  BOOST_TEST(!result.at("success").as_bool());
  BOOST_TEST(score_of(result) == 0.1, tt::tolerance(1e-12));
  BOOST_TEST(result.at("reason").as_string() == "fail");
  BOOST_TEST(result.at("metadata").at("agreement").to_number<double>() == 0.5);
}

BOOST_AUTO_TEST_CASE(hallucination_votes_pass_at_or_below_the_threshold) {
  // Unsupported share per vote: 1/2, 0/2, 0/2; threshold 0.3.
  const std::string half = R"({"statements":[{"statement":"s1","verdict":"yes"},{"statement":"s2","verdict":"no"}]})";
  const std::string none = R"({"statements":[{"statement":"s1","verdict":"yes"},{"statement":"s2","verdict":"yes"}]})";
  ScriptedJudge judge;
  judge.reply(half).reply(none).reply(none);
  const auto result = result_of(
      run<HallucinationEvaluator>(judge, R"({"threshold":0.3,"votes":3,"vote_aggregation":"majority"})", kVotingCase));
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(score_of(result) == 0.0);
  BOOST_TEST(result.at("metadata").at("agreement").to_number<double>() == 2.0 / 3.0, tt::tolerance(1e-12));

  ScriptedJudge mean;
  mean.reply(half).reply(half).reply(none);
  const auto by_mean = result_of(run<HallucinationEvaluator>(mean, R"({"threshold":0.3,"votes":3})", kVotingCase));
  BOOST_TEST(score_of(by_mean) == 1.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(!by_mean.at("success").as_bool());  // 0.33 > 0.3
}

BOOST_AUTO_TEST_CASE(a_pass_without_judge_calls_is_not_repeated) {
  ScriptedJudge judge;
  const auto result = result_of(run<TaskCompletionEvaluator>(
      judge, R"({"votes":5})", R"({"inputs":{"input":"q"},"actualOutputs":{},"expectedOutputs":{},"metadata":{"tasks":[]}})"));
  BOOST_TEST(judge.calls() == 0u);
  BOOST_TEST(score_of(result) == 1.0);
  BOOST_TEST(!result.at("metadata").as_object().contains("votes"));
}

BOOST_AUTO_TEST_CASE(a_vote_that_fails_fails_the_item) {
  ScriptedJudge judge;
  judge.reply(judged(0.9, "ok")).reply("no json here at all");
  const auto outcome = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","votes":3})", kVotingCase);
  BOOST_TEST(outcome.status == KRINO_INTERNAL);
  BOOST_TEST(judge.calls() == 2u);

  ScriptedJudge down;
  down.reply(judged(0.9, "ok")).fail(KRINO_UNAVAILABLE, "gave up after retries");
  BOOST_TEST(run<LlmJudgeEvaluator>(down, R"({"criteria":"c","votes":2})", kVotingCase).status == KRINO_UNAVAILABLE);
}

BOOST_AUTO_TEST_CASE(bad_voting_options_are_configuration_errors) {
  ScriptedJudge judge;
  const auto zero = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","votes":0})", kVotingCase);
  BOOST_TEST(zero.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(zero.error, "votes"));
  const auto median = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","vote_aggregation":"median"})", kVotingCase);
  BOOST_TEST(median.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(median.error, "vote_aggregation"));
  BOOST_TEST(judge.calls() == 0u);
  // Every judge evaluator declares both options.
  for (const char* schema : {LlmJudgeEvaluator::kConfigSchema, HallucinationEvaluator::kConfigSchema,
                             krino::judge::FaithfulnessEvaluator::kConfigSchema, TaskCompletionEvaluator::kConfigSchema}) {
    const auto properties = boost::json::parse(schema).at("properties").as_object();
    BOOST_TEST(properties.contains("votes"));
    BOOST_TEST(properties.contains("vote_aggregation"));
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
