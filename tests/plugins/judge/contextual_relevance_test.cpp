#include "contextual_relevance_evaluator.h"
#include "judge_test_support.hpp"

#include <cmath>

namespace {

using krino::judge::ContextualRelevanceEvaluator;
using namespace krino::judge::testing;

// docs/plugins/judge.md#contextual_relevance: chunks (relevant, irrelevant, relevant) score ≈ 0.63.
const std::string kDehydration =
    R"({"inputs":{"input":"What are symptoms of dehydration?"},"actualOutputs":{"retrievalContext":[)"
    R"("Dehydration symptoms include thirst and fatigue.","The Pacific Ocean is the largest ocean.",)"
    R"("Severe dehydration can cause dizziness."]},"expectedOutputs":{},"metadata":{}})";

BOOST_AUTO_TEST_SUITE(contextual_relevance)

BOOST_AUTO_TEST_CASE(spec_example_mean_of_chunk_scores_with_context_scores) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 0.95, "reason": "names symptoms"})")
      .reply(R"({"score": 0.0, "reason": "about oceans"})")
      .reply(R"({"score": 0.95, "reason": "names a symptom"})");
  const auto result = result_of(run<ContextualRelevanceEvaluator>(judge, "{}", kDehydration));
  BOOST_TEST(std::fabs(score_of(result) - 0.63) < 0.01);
  BOOST_TEST(result.at("success").as_bool());  // default threshold 0.5
  const auto& scores = result.at("metadata").at("contextScores").as_array();
  BOOST_TEST_REQUIRE(scores.size() == 3u);
  BOOST_TEST(scores[1].at("index").to_number<int>() == 1);
  BOOST_TEST(scores[1].at("score").to_number<double>() == 0.0);
  BOOST_TEST(scores[1].at("reason").as_string() == "about oceans");
  BOOST_TEST(contains(result.at("reason").as_string(), "2 of 3"));

  BOOST_TEST_REQUIRE(judge.calls() == 3u);  // one call per chunk
  for (std::size_t i = 0; i < 3; ++i) {
    BOOST_TEST(contains(judge.prompt(i), "What are symptoms of dehydration?"));
    BOOST_TEST(judge.request(i).at("response_format").as_string() == "json");
  }
  BOOST_TEST(contains(judge.prompt(1), "The Pacific Ocean is the largest ocean."));
  BOOST_TEST(!contains(judge.prompt(1), "dizziness"));
}

BOOST_AUTO_TEST_CASE(strict_mode_sets_the_threshold_to_one) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1})").reply(R"({"score": 0.9})").reply(R"({"score": 1})");
  const auto result = result_of(run<ContextualRelevanceEvaluator>(judge, R"({"strict_mode":true})", kDehydration));
  BOOST_TEST(result.at("threshold").to_number<double>() == 1.0);
  BOOST_TEST(!result.at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(empty_context_scores_zero_without_a_call_and_a_bad_reply_is_an_error) {
  ScriptedJudge judge;
  const auto empty = result_of(run<ContextualRelevanceEvaluator>(
      judge, "{}", R"({"inputs":{"input":"q"},"actualOutputs":{"retrievalContext":[]},"expectedOutputs":{},"metadata":{}})"));
  BOOST_TEST(score_of(empty) == 0.0);
  BOOST_TEST(judge.calls() == 0u);

  judge.reply(R"({"score": 1})").reply("Relevant, I think.");
  const auto outcome = run<ContextualRelevanceEvaluator>(judge, "{}", kDehydration);
  BOOST_TEST(outcome.status == KRINO_INTERNAL);
  BOOST_TEST(contains(outcome.error, "Relevant, I think."));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
