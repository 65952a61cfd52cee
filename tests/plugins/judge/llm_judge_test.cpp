#include "judge_test_support.hpp"
#include "llm_judge_evaluator.h"

namespace {

using krino::judge::LlmJudgeEvaluator;
using namespace krino::judge::testing;

const std::string kLlmJudgeCase =
    R"({"inputs":{"input":"How do I reset my password?"},"actualOutputs":{"output":"Click 'Forgot password'."},)"
    R"("expectedOutputs":{"output":"Use the reset link"},"metadata":{}})";

BOOST_AUTO_TEST_SUITE(llm_judge)

BOOST_AUTO_TEST_CASE(default_prompt_holds_criteria_input_and_actual_output_and_asks_for_json) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 0.9, "reason": "Clear and correct."})");
  const auto result = result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"Is the answer helpful?"})", kLlmJudgeCase));
  BOOST_TEST(score_of(result) == 0.9);
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(result.at("threshold").to_number<double>() == 0.5);
  BOOST_TEST(result.at("reason").as_string() == "Clear and correct.");

  BOOST_TEST_REQUIRE(judge.calls() == 1u);
  const auto request = judge.request();
  BOOST_TEST(request.at("response_format").as_string() == "json");
  BOOST_TEST(!request.contains("seed"));
  BOOST_TEST(!request.contains("judge"));
  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "Is the answer helpful?"));
  BOOST_TEST(contains(prompt, "Input:\nHow do I reset my password?"));
  BOOST_TEST(contains(prompt, "Actual output:\nClick 'Forgot password'."));
  BOOST_TEST(!contains(prompt, "Use the reset link"));  // expected output not selected by default
  BOOST_TEST(contains(prompt, "\"score\""));
  BOOST_TEST(contains(prompt, "\"reason\""));
}

BOOST_AUTO_TEST_CASE(structured_values_are_pretty_json_and_strings_verbatim) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1})");
  const std::string test_case =
      R"({"inputs":{"input":"Give the invoice"},"actualOutputs":{"output":{"id":"INV-1","total":42.0,"lines":["a","b"]}},)"
      R"("expectedOutputs":{"output":"an invoice"},"metadata":{}})";
  const auto result = result_of(run<LlmJudgeEvaluator>(
      judge, R"({"criteria":"Matches?","evaluation_params":["expected_output","actual_output"]})", test_case));
  BOOST_TEST(result.at("reason").as_string() == "No reason provided.");
  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "Expected output:\nan invoice"));
  BOOST_TEST(contains(prompt,
                      "Actual output:\n{\n  \"id\": \"INV-1\",\n  \"total\": 42.0,\n  \"lines\": [\n    \"a\",\n    \"b\"\n  ]\n}"));
  BOOST_TEST(!contains(prompt, "Give the invoice"));
}

BOOST_AUTO_TEST_CASE(score_range_normalises_the_score_but_never_the_threshold) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 4, "reason": "good"})");
  const auto result =
      result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","score_range":[1,5],"threshold":0.8})", kLlmJudgeCase));
  BOOST_TEST(score_of(result) == 0.75);
  BOOST_TEST(result.at("threshold").to_number<double>() == 0.8);
  BOOST_TEST(!result.at("success").as_bool());  // 0.75 < 0.8: the threshold was not mapped through 1..5
  BOOST_TEST(result.at("metadata").at("rawScore").to_number<double>() == 4.0);
  BOOST_TEST(contains(judge.prompt(), "from 1 (does not meet it at all) to 5"));
}

BOOST_AUTO_TEST_CASE(out_of_range_scores_are_clamped) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 7})").reply(R"({"score": -2})");
  BOOST_TEST(score_of(result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","score_range":[1,5]})", kLlmJudgeCase))) == 1.0);
  BOOST_TEST(score_of(result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","score_range":[1,5]})", kLlmJudgeCase))) == 0.0);
}

BOOST_AUTO_TEST_CASE(replies_are_read_leniently) {
  ScriptedJudge judge;
  judge.reply("```json\n{\"score\": 0.25, \"reason\": \"fenced\"}\n```")
      .reply("Here is my evaluation:\n{\"score\": \"0.5\", \"reason\": \"after a preamble\"} Hope that helps!");
  const auto fenced = result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c"})", kLlmJudgeCase));
  BOOST_TEST(score_of(fenced) == 0.25);
  BOOST_TEST(fenced.at("reason").as_string() == "fenced");
  const auto preamble = result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c"})", kLlmJudgeCase));
  BOOST_TEST(score_of(preamble) == 0.5);
  BOOST_TEST(preamble.at("reason").as_string() == "after a preamble");
}

BOOST_AUTO_TEST_CASE(an_unparseable_reply_is_an_item_error_never_a_zero) {
  ScriptedJudge judge;
  judge.reply("I would rate this quite highly overall.").reply(R"({"verdict": "good"})");
  const auto prose = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c"})", kLlmJudgeCase);
  BOOST_TEST(prose.status == KRINO_INTERNAL);
  BOOST_TEST(prose.result.empty());
  BOOST_TEST(contains(prose.error, "could not be read"));
  BOOST_TEST(contains(prose.error, "I would rate this quite highly"));
  const auto no_score = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c"})", kLlmJudgeCase);
  BOOST_TEST(no_score.status == KRINO_INTERNAL);
  BOOST_TEST(contains(no_score.error, "no numeric 'score'"));
}

BOOST_AUTO_TEST_CASE(an_unavailable_judge_is_an_item_error_with_the_reason) {
  ScriptedJudge judge;
  judge.fail(KRINO_UNAVAILABLE, "no LLM judge is configured in this host");
  const auto outcome = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c"})", kLlmJudgeCase);
  BOOST_TEST(outcome.status == KRINO_UNAVAILABLE);
  BOOST_TEST(contains(outcome.error, "no LLM judge is configured in this host"));
}

BOOST_AUTO_TEST_CASE(the_named_judge_is_sent) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1})");
  result_of(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","judge":"strict"})", kLlmJudgeCase));
  BOOST_TEST(judge.request().at("judge").as_string() == "strict");
}

BOOST_AUTO_TEST_CASE(a_missing_selected_field_is_an_item_error) {
  ScriptedJudge judge;
  const auto outcome = run<LlmJudgeEvaluator>(
      judge, R"({"criteria":"c"})", R"({"inputs":{},"actualOutputs":{"output":"x"},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(outcome.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(outcome.error, "requires 'inputs.input'"));
  BOOST_TEST(judge.calls() == 0u);
}

BOOST_AUTO_TEST_CASE(a_prompt_override_uses_the_placeholders) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1})");
  result_of(run<LlmJudgeEvaluator>(
      judge, R"({"criteria":"polite?","prompt":"Rate {{ actual_output }} for {{criteria}} on {{score_min}}..{{score_max}}."})",
      kLlmJudgeCase));
  BOOST_TEST(judge.prompt() == "Rate Click 'Forgot password'. for polite? on 0..1.");
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  ScriptedJudge judge;
  const auto bad_range = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","score_range":[5,5]})", kLlmJudgeCase);
  BOOST_TEST(bad_range.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(bad_range.error, "must be greater than min"));
  BOOST_TEST(run<LlmJudgeEvaluator>(judge, R"({})", kLlmJudgeCase).status == KRINO_INVALID_ARGUMENT);
  const auto unknown = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","prompt":"{{actual_ouptut}}"})", kLlmJudgeCase);
  BOOST_TEST(unknown.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(unknown.error, "unknown placeholder '{{actual_ouptut}}'"));
  const auto unselected = run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","prompt":"{{expected_output}}"})", kLlmJudgeCase);
  BOOST_TEST(unselected.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(unselected.error, "does not select 'expected_output'"));
  BOOST_TEST(run<LlmJudgeEvaluator>(judge, R"({"criteria":"c","evaluation_params":["output"]})", kLlmJudgeCase).status ==
             KRINO_INVALID_ARGUMENT);
  BOOST_TEST(judge.calls() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
