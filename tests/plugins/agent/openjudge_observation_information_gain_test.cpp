// observation_information_gain: novelty of each tool result against the earlier ones.
#include "openjudge_observation_information_gain.h"

#include "openjudge_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace krino::agent::openjudge;
using namespace krino::agent::openjudge::testing;

namespace {

// A `look` call answered with each observation in turn.
boost::json::object observations_case(const std::vector<std::string>& observations) {
  boost::json::array messages;
  for (std::size_t i = 0; i < observations.size(); ++i) {
    const std::string id = std::to_string(i + 1);
    messages.push_back(boost::json::parse(R"({"role": "assistant", "tool_calls": [{"id": ")" + id +
                                          R"(", "function": {"name": "look", "arguments": "{}"}}]})"));
    messages.push_back(boost::json::object{{"role", "tool"}, {"tool_call_id", id}, {"content", observations[i]}});
  }
  return conversation_case(boost::json::serialize(messages));
}

std::vector<double> doubles(const boost::json::value& list) {
  std::vector<double> out;
  for (const auto& item : list.as_array()) out.push_back(item.to_number<double>());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_observation_information_gain)

BOOST_AUTO_TEST_CASE(documented_example_red_box_then_blue_sphere) {
  const ObservationInformationGainEvaluator evaluator(config(R"({"similarity_threshold": 0.5})"));
  const krino::EvalResult r = evaluate(evaluator, observations_case({"You see a red box.", "You see a blue sphere."}));
  BOOST_TEST(r.name == "observation_information_gain");
  BOOST_TEST(*r.score == 0.7857142857142857);
  BOOST_TEST(r.success);
  BOOST_TEST(*r.threshold == 0.5);
  const std::vector<double> similarities = doubles(r.metadata.at("each_turn_similarity"));
  BOOST_TEST_REQUIRE(similarities.size() == 2u);
  BOOST_TEST(similarities[0] == 0.0);
  BOOST_TEST(similarities[1] == 0.42857142857142855);
  const std::vector<double> rewards = doubles(r.metadata.at("each_turn_rewards"));
  BOOST_TEST(rewards[0] == 1.0);
  BOOST_TEST(rewards[1] == 1.0 - 3.0 / 7.0);
  BOOST_TEST(r.metadata.at("raw_average").as_double() == 0.7857142857142857);
  BOOST_TEST(r.metadata.at("observation_count").to_number<int>() == 2);
  BOOST_TEST(r.metadata.at("similarity_threshold").as_double() == 0.5);
  BOOST_TEST(r.metadata.at("evaluable").as_bool());
  BOOST_TEST(r.reason == "mean information gain 0.786 over 2 of 2 observations");
}

BOOST_AUTO_TEST_CASE(similarity_above_the_threshold_is_penalised_exponentially) {
  const ObservationInformationGainEvaluator evaluator(config("{}"));
  // 3 shared words of 5: similarity 0.6, 0.1 over the default threshold 0.5.
  const krino::EvalResult r =
      evaluate(evaluator, observations_case({"alpha beta gamma delta", "alpha beta gamma epsilon"}));
  const double second = 0.4 * std::exp(-2.0 * (0.6 - 0.5));
  BOOST_TEST(doubles(r.metadata.at("each_turn_rewards"))[1] == second, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(*r.score == (1.0 + second) / 2.0, boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(a_repeated_observation_earns_nothing) {
  const krino::EvalResult r = evaluate(ObservationInformationGainEvaluator(config("{}")),
                                       observations_case({"The door is locked.", "the DOOR is locked."}));
  BOOST_TEST(doubles(r.metadata.at("each_turn_similarity"))[1] == 1.0);
  BOOST_TEST(*r.score == 0.5);
}

BOOST_AUTO_TEST_CASE(observations_shorter_than_ten_characters_are_skipped) {
  const ObservationInformationGainEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, observations_case({"  short   ", "You see a red box.", "ok"}));
  BOOST_TEST(r.metadata.at("observation_count").to_number<int>() == 3);
  BOOST_TEST(r.metadata.at("each_turn_rewards").as_array().size() == 1u);
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.reason == "mean information gain 1.000 over 1 of 3 observations (the others are shorter than 10 characters)");
  // Characters, not bytes: nine accented letters are 18 bytes but still too short.
  const krino::EvalResult accented = evaluate(evaluator, observations_case({"ééééééééé"}));
  BOOST_TEST(*accented.score == 0.0);
  BOOST_TEST(accented.metadata.at("evaluable").as_bool());
}

BOOST_AUTO_TEST_CASE(no_answered_call_scores_zero_and_is_not_evaluable) {
  const ObservationInformationGainEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, conversation_case(R"([{"role": "user", "content": "hi"},
    {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "look"}}]}])"));
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(!r.metadata.at("evaluable").as_bool());
  BOOST_TEST(r.metadata.at("action_count").to_number<int>() == 0);
}

BOOST_AUTO_TEST_CASE(missing_messages_fail_and_broken_pairing_is_an_error) {
  const ObservationInformationGainEvaluator evaluator(config("{}"));
  const krino::EvalResult missing = evaluate(evaluator, test_case(R"({"output": "x"})"));
  BOOST_TEST(*missing.score == 0.0);
  BOOST_TEST(!missing.success);
  BOOST_TEST(missing.reason == "no messages to judge: actualOutputs has neither 'conversation' nor 'messages'");
  const krino::EvalResult from_messages =
      evaluate(evaluator, test_case(R"({"messages": [{"role": "assistant", "tool_calls": [{"function": {"name": "look"}}]},
                                                      {"role": "tool", "content": "You see a red box."}]})"));
  BOOST_TEST(*from_messages.score == 1.0);
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, conversation_case(R"([{"role": "tool", "tool_call_id": "9", "content": "x"}])")),
                        krino::Error, invalid("tool call id '9'"));
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(ObservationInformationGainEvaluator(config(R"({"similarity_threshold": "high"})")), krino::Error,
                        invalid("option 'similarity_threshold' must be a number"));
  BOOST_CHECK_EXCEPTION(ObservationInformationGainEvaluator(config(R"({"strict_mode": true})")), krino::Error,
                        invalid("unknown option 'strict_mode'"));
}

BOOST_AUTO_TEST_SUITE_END()
