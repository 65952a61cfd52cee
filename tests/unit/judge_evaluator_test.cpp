// The server judge's settings, prompt and reply reading: what POST .../judge-jobs accepts, what the
// model is shown of an item, and how its reply becomes a score on 0..1 or an error.
#include "krino/core/server_api/judge_evaluator.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::core::server_api;

namespace {

JudgeEvaluator read_ok(std::string_view body) {
  auto read = read_judge_evaluator(body);
  const std::string problem = read.index() == 1 ? std::get<1>(read) : std::string();
  BOOST_REQUIRE_MESSAGE(read.index() == 0, problem);
  return std::get<0>(read);
}

std::string read_problem(std::string_view body) {
  auto read = read_judge_evaluator(body);
  return read.index() == 1 ? std::get<1>(read) : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_evaluator)

BOOST_AUTO_TEST_CASE(settings_read_both_spellings_and_round_trip_through_storage) {
  const JudgeEvaluator read = read_ok(
      R"({"evaluatorName":"helpful","criteria":"Is it helpful?","evaluationParams":["INPUT","actual_output","EXPECTED_OUTPUT"],"minScore":1,"maxScore":5,"threshold":0.6})");
  BOOST_TEST(read.name == "helpful");
  BOOST_TEST(read.fields.size() == 3u);
  BOOST_TEST(read.min_score == 1.0);
  BOOST_TEST(read.max_score == 5.0);
  BOOST_TEST(read.threshold == 0.6);
  const JudgeEvaluator again = judge_evaluator_from_json(judge_evaluator_json(read));
  BOOST_TEST(again.criteria == read.criteria);
  BOOST_TEST((again.fields == read.fields));
  BOOST_TEST(again.threshold == read.threshold);
}

BOOST_AUTO_TEST_CASE(bad_settings_name_the_field) {
  BOOST_TEST(read_problem(R"({"criteria":"x"})") == "evaluatorName is required and must not be blank");
  BOOST_TEST(read_problem(R"({"evaluatorName":"a","criteria":"  "})") == "criteria is required and must not be blank");
  BOOST_TEST(read_problem(R"({"evaluatorName":"a","criteria":"x","minScore":5,"maxScore":1})") == "maxScore must be greater than minScore");
  BOOST_TEST(read_problem(R"({"evaluatorName":"a","criteria":"x","evaluationParams":[]})").find("evaluationParams") == 0u);
  BOOST_TEST(read_problem(R"({"evaluatorName":"a","criteria":"x","evaluationParams":["OUTPUT"]})").find("\"OUTPUT\"") != std::string::npos);
  BOOST_TEST(read_problem(R"({"evaluatorName":"a","criteria":"x","threshold":2})").find("threshold") == 0u);
}

BOOST_AUTO_TEST_CASE(the_prompt_shows_the_selected_fields_and_refuses_a_missing_one) {
  const JudgeEvaluator evaluator = read_ok(R"({"evaluatorName":"a","criteria":"Correct capital?","minScore":1,"maxScore":5})");
  const auto prompt = judge_prompt(evaluator, R"({"inputs":{"input":"France?"},"actualOutputs":{"output":"Paris","extra":1}})");
  BOOST_REQUIRE(is_prompt(prompt));
  const std::string& text = std::get<0>(prompt);
  BOOST_TEST(text.find("Criterion:\nCorrect capital?") != std::string::npos);
  BOOST_TEST(text.find("Input:\nFrance?\n\nActual output:\nParis") != std::string::npos);
  BOOST_TEST(text.find("from 1 (does not meet it at all) to 5") != std::string::npos);
  const auto whole = judge_prompt(evaluator, R"({"inputs":{"q":"France?"},"actualOutputs":{"answer":"Paris"}})");
  BOOST_TEST(std::get<0>(whole).find("Input:\n{\"q\":\"France?\"}") != std::string::npos);
  const auto missing = judge_prompt(evaluator, R"({"inputs":{"input":"France?"}})");
  BOOST_TEST(std::get<1>(missing) == "the item has no ACTUAL_OUTPUT to show the judge");
}

BOOST_AUTO_TEST_CASE(replies_are_normalised_clamped_and_unusable_ones_say_why) {
  const JudgeEvaluator evaluator = read_ok(R"({"evaluatorName":"a","criteria":"x","minScore":1,"maxScore":5})");
  const JudgeReading good = read_judge_reply(evaluator, "Here you go:\n```json\n{\"score\": 4, \"reason\": \"close\"}\n```");
  BOOST_TEST(*good.score == 0.75);
  BOOST_TEST(good.reason == "close");
  BOOST_TEST(*read_judge_reply(evaluator, R"({"score": 9})").score == 1.0);
  BOOST_TEST(read_judge_reply(evaluator, R"({"score": 9})").reason == "No reason provided.");
  BOOST_TEST(!read_judge_reply(evaluator, R"({"verdict": "good"})").score.has_value());
  BOOST_TEST(read_judge_reply(evaluator, R"({"verdict": "good"})").reason == "the judge's reply has no numeric 'score'");
  BOOST_TEST(!read_judge_reply(evaluator, "{\"score\": 1").score.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
