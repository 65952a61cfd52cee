// llm_precision / llm_recall: the text plugin's precision and recall with the judge deciding which
// items mean the same thing; one judge call per evaluation, its pairs reduced to one to one.
#include "judge_test_support.hpp"
#include "llm_matching_evaluator.h"
#include "loaded_module.hpp"
#include "test_paths.hpp"

#include <cmath>
#include <string>

namespace {

using krino::judge::LlmPrecisionEvaluator;
using krino::judge::LlmRecallEvaluator;
using namespace krino::judge::testing;

std::string test_case(const std::string& retrieved, const std::string& relevant) {
  return R"({"inputs":{"input":"Which cities are capitals?"},"actualOutputs":{"retrieved":)" + retrieved +
         R"(},"expectedOutputs":{"relevant":)" + relevant + R"(},"metadata":{}})";
}

BOOST_AUTO_TEST_SUITE(llm_matching)

BOOST_AUTO_TEST_CASE(the_prompt_lists_the_items_and_one_call_scores_both_metrics) {
  // One retrieved item, matching one of two relevant items.
  const std::string item = test_case(R"(["the capital of France"])", R"(["Paris", "Berlin"])");
  ScriptedJudge judge;
  judge.reply(R"({"pairs": [[1, 1]]})").reply(R"(Here you are: {"pairs": [[1, 1]]})");
  const auto precision = result_of(run<LlmPrecisionEvaluator>(judge, "{}", item));
  const auto recall = result_of(run<LlmRecallEvaluator>(judge, "{}", item));
  BOOST_TEST(score_of(precision) == 1.0);
  BOOST_TEST(precision.at("success").as_bool());
  BOOST_TEST(precision.at("name").as_string() == "llm_precision");
  BOOST_TEST(score_of(recall) == 0.5);
  BOOST_TEST(!recall.at("success").as_bool());  // default threshold 1.0, as in the text plugin
  BOOST_TEST(recall.at("name").as_string() == "llm_recall");
  BOOST_TEST(contains(recall.at("reason").as_string(), "1 of 2 relevant items was retrieved"));

  BOOST_TEST_REQUIRE(judge.calls() == 2u);  // one call per evaluation
  const std::string prompt = judge.prompt(0);
  BOOST_TEST(contains(prompt, "[1] the capital of France"));
  BOOST_TEST(contains(prompt, "[1] Paris"));
  BOOST_TEST(contains(prompt, "[2] Berlin"));
  BOOST_TEST(contains(prompt, "Which cities are capitals?"));
  BOOST_TEST(contains(prompt, "\"pairs\""));
  BOOST_TEST(judge.request(0).at("response_format").as_string() == "json");

  const auto& metadata = recall.at("metadata").as_object();
  BOOST_TEST(metadata.at("matchedCount").to_number<int>() == 1);
  BOOST_TEST(metadata.at("judgeCount").to_number<int>() == 1);
  BOOST_TEST(metadata.at("equalCount").to_number<int>() == 0);
  const auto& pairs = metadata.at("matchedPairs").as_array();
  BOOST_TEST_REQUIRE(pairs.size() == 1u);
  BOOST_TEST(pairs[0].at("retrieved").to_number<int>() == 0);
  BOOST_TEST(pairs[0].at("expected").to_number<int>() == 0);
  BOOST_TEST(pairs[0].at("by").as_string() == "judge");
  BOOST_TEST(metadata.at("missedRelevant").as_array() == boost::json::array{1});
}

BOOST_AUTO_TEST_CASE(many_to_many_pairs_are_reduced_to_one_to_one) {
  // The judge pairs every retrieved item with relevant item 1 and retrieved 1 with both: at most two
  // one-to-one pairs exist, and the maximum matching finds them (r2-e1, r1-e2).
  ScriptedJudge judge;
  judge.reply(R"({"pairs": [[1, 1], [2, 1], [3, 1], [1, 2], [1, 1]]})");
  const auto result = result_of(
      run<LlmPrecisionEvaluator>(judge, "{}", test_case(R"(["a1", "a2", "a3"])", R"(["A", "B"])")));
  BOOST_TEST(std::abs(score_of(result) - 2.0 / 3.0) < 1e-12);
  const auto& metadata = result.at("metadata").as_object();
  BOOST_TEST(metadata.at("matchedCount").to_number<int>() == 2);
  BOOST_TEST(metadata.at("judgeProposedCount").to_number<int>() == 4);  // the duplicate [1, 1] counts once
  const auto& pairs = metadata.at("matchedPairs").as_array();
  BOOST_TEST_REQUIRE(pairs.size() == 2u);
  BOOST_TEST(pairs[0].at("expected").to_number<int>() != pairs[1].at("expected").to_number<int>());

  // Duplicates retrieved never count twice: ["x", "x"] against ["X"] pairs once.
  judge.reply(R"([[1, 1], [2, 1]])");  // a bare array of pairs is read too
  const auto duplicates =
      result_of(run<LlmPrecisionEvaluator>(judge, "{}", test_case(R"(["x", "x"])", R"(["X"])")));
  BOOST_TEST(score_of(duplicates) == 0.5);
}

BOOST_AUTO_TEST_CASE(equal_items_skip_the_judge) {
  ScriptedJudge judge;
  // Every relevant item is equal to a retrieved one (numbers by value): no judge call at all.
  const auto all_equal = result_of(
      run<LlmRecallEvaluator>(judge, "{}", test_case(R"(["Paris", 7, {"id": 1}])", R"([{"id": 1.0}, 7.0, "Paris"])")));
  BOOST_TEST(score_of(all_equal) == 1.0);
  BOOST_TEST(judge.calls() == 0u);
  BOOST_TEST(all_equal.at("metadata").at("judgeAsked").as_bool() == false);
  for (const auto& pair : all_equal.at("metadata").at("matchedPairs").as_array())
    BOOST_TEST(pair.at("by").as_string() == "equal");

  // One equal pair, the rest goes to the judge: the prompt shows only the unpaired items, renumbered.
  judge.reply(R"({"pairs": [[2, 1]]})");
  const auto mixed = result_of(
      run<LlmRecallEvaluator>(judge, "{}", test_case(R"(["Paris", "noise", "Bonn"])", R"(["Berlin", "Paris"])")));
  BOOST_TEST_REQUIRE(judge.calls() == 1u);
  BOOST_TEST(!contains(judge.prompt(0), "Paris"));
  BOOST_TEST(contains(judge.prompt(0), "[1] noise"));
  BOOST_TEST(contains(judge.prompt(0), "[2] Bonn"));
  BOOST_TEST(contains(judge.prompt(0), "[1] Berlin"));
  BOOST_TEST(score_of(mixed) == 1.0);
  const auto& pairs = mixed.at("metadata").at("matchedPairs").as_array();
  BOOST_TEST_REQUIRE(pairs.size() == 2u);
  BOOST_TEST(pairs[0].at("retrieved").to_number<int>() == 0);
  BOOST_TEST(pairs[0].at("expected").to_number<int>() == 1);
  BOOST_TEST(pairs[0].at("by").as_string() == "equal");
  BOOST_TEST(pairs[1].at("retrieved").to_number<int>() == 2);  // "Bonn" (shown as 2) with "Berlin"
  BOOST_TEST(pairs[1].at("expected").to_number<int>() == 0);
  BOOST_TEST(pairs[1].at("by").as_string() == "judge");
}

BOOST_AUTO_TEST_CASE(empty_lists_follow_the_text_plugin_rules_without_a_call) {
  ScriptedJudge judge;
  const std::string both_empty = test_case("[]", "[]");
  BOOST_TEST(score_of(result_of(run<LlmPrecisionEvaluator>(judge, "{}", both_empty))) == 1.0);
  BOOST_TEST(score_of(result_of(run<LlmRecallEvaluator>(judge, "{}", both_empty))) == 1.0);

  const std::string nothing_retrieved = test_case("[]", R"(["a", "b"])");
  const auto precision = result_of(run<LlmPrecisionEvaluator>(judge, "{}", nothing_retrieved));
  BOOST_TEST(score_of(precision) == 0.0);
  BOOST_TEST(precision.at("reason").as_string() == "nothing was retrieved, but 2 items are relevant");
  BOOST_TEST(score_of(result_of(run<LlmRecallEvaluator>(judge, "{}", nothing_retrieved))) == 0.0);

  const std::string nothing_relevant = test_case(R"(["a"])", "[]");
  const auto recall = result_of(run<LlmRecallEvaluator>(judge, "{}", nothing_relevant));
  BOOST_TEST(score_of(recall) == 0.0);
  BOOST_TEST(recall.at("reason").as_string() == "nothing is relevant, but 1 item was retrieved");
  BOOST_TEST(score_of(result_of(run<LlmPrecisionEvaluator>(judge, "{}", nothing_relevant))) == 0.0);

  // A missing retrieved value scores 0; a missing relevant value is a broken test case.
  const auto missing = result_of(run<LlmPrecisionEvaluator>(
      judge, "{}", R"({"inputs":{},"actualOutputs":{},"expectedOutputs":{"relevant":["a"]},"metadata":{}})"));
  BOOST_TEST(score_of(missing) == 0.0);
  const auto broken = run<LlmPrecisionEvaluator>(
      judge, "{}", R"({"inputs":{},"actualOutputs":{"retrieved":["a"]},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(broken.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(judge.calls() == 0u);
}

BOOST_AUTO_TEST_CASE(bad_indices_and_unreadable_replies_are_item_errors) {
  const std::string item = test_case(R"(["a", "b"])", R"(["A"])");
  for (const char* reply : {R"({"pairs": [[3, 1]]})", R"({"pairs": [[1, 0]]})", R"({"pairs": [[1, 2]]})",
                            R"({"pairs": [[1]]})", R"({"pairs": [["one", 1]]})", R"({"matches": []})",
                            "They all match."}) {
    BOOST_TEST_CONTEXT(reply) {
      ScriptedJudge judge;
      judge.reply(reply);
      const auto outcome = run<LlmPrecisionEvaluator>(judge, "{}", item);
      BOOST_TEST(outcome.status == KRINO_INTERNAL);
      BOOST_TEST(contains(outcome.error, "llm_precision"));
    }
  }
  ScriptedJudge judge;
  judge.reply(R"({"pairs": [[3, 1]]})");
  BOOST_TEST(contains(run<LlmRecallEvaluator>(judge, "{}", item).error, "out of range"));
}

BOOST_AUTO_TEST_CASE(an_unavailable_judge_fails_the_item) {
  ScriptedJudge judge;
  judge.fail(KRINO_UNAVAILABLE, "no LLM judge is configured in this host");
  const auto outcome = run<LlmRecallEvaluator>(judge, "{}", test_case(R"(["a"])", R"(["A"])"));
  BOOST_TEST(outcome.status == KRINO_UNAVAILABLE);
  BOOST_TEST(contains(outcome.error, "llm_recall: the judge could not answer"));
}

BOOST_AUTO_TEST_CASE(options_keys_threshold_prompt_and_votes) {
  ScriptedJudge judge;
  judge.reply(R"({"pairs": []})");
  const auto result = result_of(run<LlmRecallEvaluator>(
      judge,
      R"({"retrieved_key":"docs","expected_key":"gold","threshold":0.5,"name":"semantic_recall","judge":"cheap",)"
      R"("prompt":"R: {{retrieved}} E: {{relevant}} Q: {{input}}"})",
      R"({"inputs":{"input":"q?"},"actualOutputs":{"docs":"one doc"},"expectedOutputs":{"gold":["g1","g2"]},"metadata":{}})"));
  BOOST_TEST(result.at("name").as_string() == "semantic_recall");
  BOOST_TEST(score_of(result) == 0.0);
  BOOST_TEST(judge.prompt(0) == "R: [1] one doc E: [1] g1\n\n[2] g2 Q: q?");
  BOOST_TEST(judge.request(0).at("judge").as_string() == "cheap");

  // An unknown placeholder is a configuration error.
  const auto bad = run<LlmRecallEvaluator>(judge, R"({"prompt":"{{retreived}}"})", test_case("[]", "[]"));
  BOOST_TEST(bad.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(run<LlmRecallEvaluator>(judge, R"({"matching":{}})", test_case("[]", "[]")).status ==
             KRINO_INVALID_ARGUMENT);

  // votes: 3 asks three times with seeds and aggregates by the mean.
  ScriptedJudge voting;
  voting.reply(R"({"pairs": [[1, 1]]})").reply(R"({"pairs": []})").reply(R"({"pairs": [[1, 1]]})");
  const auto voted = result_of(run<LlmPrecisionEvaluator>(voting, R"({"votes":3})", test_case(R"(["a"])", R"(["A"])")));
  BOOST_TEST_REQUIRE(voting.calls() == 3u);
  BOOST_TEST(voting.request(0).contains("seed"));
  BOOST_TEST(std::abs(score_of(voted) - 2.0 / 3.0) < 1e-12);
  BOOST_TEST(voted.at("metadata").at("votes").as_array().size() == 3u);
}

BOOST_AUTO_TEST_CASE(both_are_registered_in_the_built_plugin) {
  krino::test::LoadedModule module(std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-judge.so");
  for (const char* name : {"llm_precision", "llm_recall"}) {
    BOOST_TEST_CONTEXT(name) {
      const krino_component* component = module.component(name);
      BOOST_TEST_REQUIRE(component != nullptr);
      BOOST_TEST(component->kind == KRINO_KIND_EVALUATOR);
      BOOST_TEST(std::string(component->id) == std::string("krino.") + name);
      BOOST_TEST(component->capabilities == (KRINO_CAP_THREAD_SAFE | KRINO_CAP_NEEDS_JUDGE));
      BOOST_TEST(boost::json::parse(component->config_schema).is_object());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
