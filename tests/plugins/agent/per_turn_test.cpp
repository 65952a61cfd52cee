// per_turn: an inner tool evaluator on every assistant turn, and the aggregate of the turn scores.
#include "agent_test_support.hpp"
#include "per_turn_evaluator.h"
#include "turn_evaluator_factory.h"

#include <memory>
#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;

namespace {

// Three assistant turns: weather (right), hotel (wrong arguments), thanks (no calls).
const char* const kConversation = R"([
    {"role":"user","content":"Weather in Paris?"},
    {"role":"assistant","content":"Sunny.","toolCalls":[{"name":"get_weather","arguments":{"city":"Paris"}}]},
    {"role":"user","content":"Book a hotel."},
    {"role":"assistant","content":"Booked.","toolCalls":[{"name":"book_hotel","arguments":{"city":"Lyon"}}]},
    {"role":"user","content":"Thanks!"},
    {"role":"assistant","content":"You're welcome."}])";

const char* const kExpectedLists = R"([
    [{"name":"get_weather","arguments":{"city":"Paris"}}],
    [{"name":"book_hotel","arguments":{"city":"Paris"}}],
    []])";

boost::json::object per_turn_conversation_case(std::string_view conversation, std::string_view expected,
                                      std::string_view metadata = "{}") {
  boost::json::object document = test_case("{\"conversation\":" + std::string(conversation) + "}",
                                           "{\"toolCallsByTurn\":" + std::string(expected) + "}");
  document["metadata"] = json(metadata);
  return document;
}

EvalResult per_turn_run(std::string_view config_text, const boost::json::object& document) {
  const PerTurnEvaluator evaluator(config(config_text));
  return evaluate(evaluator, document);
}

double turn_score(const EvalResult& result, std::size_t turn) {
  return result.metadata.at("turns").at(turn).at("score").to_number<double>();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_per_turn)

BOOST_AUTO_TEST_CASE(mean_of_the_turn_scores_is_the_default) {
  const EvalResult r = per_turn_run(R"({"evaluator":"tool_correctness","options":{"match_mode":"names_and_args"}})",
                           per_turn_conversation_case(kConversation, kExpectedLists));
  BOOST_TEST(r.name == "tool_correctness_per_turn");
  BOOST_TEST(*r.score == 2.0 / 3.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(r.reason.rfind("3 turns; mean 0.67; turn 1 failed: 0 calls matched", 0) == 0, r.reason);
  BOOST_TEST(r.metadata.at("aggregate").as_string() == "mean");
  BOOST_TEST(r.metadata.at("turnCount").to_number<int>() == 3);
  BOOST_TEST(r.metadata.at("evaluator").as_string() == "tool_correctness");
  const boost::json::array& turns = r.metadata.at("turns").as_array();
  BOOST_TEST_REQUIRE(turns.size() == 3u);
  for (std::size_t i = 0; i < 3; ++i) BOOST_TEST(turns[i].at("turn").to_number<std::size_t>() == i);
  BOOST_TEST(turn_score(r, 0) == 1.0);
  BOOST_TEST(turn_score(r, 1) == 0.0);
  BOOST_TEST(turn_score(r, 2) == 1.0);  // no calls expected, none made
  BOOST_TEST(turns[1].at("success").as_bool() == false);
  BOOST_TEST(turns[1].at("metadata").at("matchMode").as_string() == "names_and_args");
}

BOOST_AUTO_TEST_CASE(min_and_all_pass) {
  const auto document = per_turn_conversation_case(kConversation, kExpectedLists);
  const EvalResult lowest = per_turn_run(
      R"({"evaluator":"tool_correctness","options":{"match_mode":"names_and_args"},"aggregate":"min","threshold":0.0})",
      document);
  BOOST_TEST(*lowest.score == 0.0);
  BOOST_TEST(lowest.success);
  BOOST_TEST(lowest.reason.rfind("3 turns; min 0.0; turn 1 failed", 0) == 0, lowest.reason);

  // Names only: every turn is right, so all pass.
  const EvalResult names = per_turn_run(R"({"evaluator":"tool_correctness","aggregate":"all_pass","name":"turns_ok"})", document);
  BOOST_TEST(names.name == "turns_ok");
  BOOST_TEST(*names.score == 1.0);
  BOOST_TEST(names.success);
  BOOST_TEST(names.reason == "3 turns; 3 of 3 passed");

  // all_pass uses each turn's success under the inner threshold, not the score.
  const EvalResult strict = per_turn_run(
      R"({"evaluator":"tool_correctness","aggregate":"all_pass","options":{"match_mode":"names_and_args","threshold":0.5}})",
      document);
  BOOST_TEST(*strict.score == 0.0);
  BOOST_TEST(!strict.success);
  BOOST_TEST(strict.reason.rfind("3 turns; 2 of 3 passed; turn 1 failed:", 0) == 0, strict.reason);
}

BOOST_AUTO_TEST_CASE(a_missing_turn_on_either_side_is_an_empty_list) {
  // Two expected turns, three actual ones: the third expects no calls.
  const auto fewer_expected = per_turn_conversation_case(kConversation, R"([[{"name":"get_weather"}],[{"name":"book_hotel"}]])");
  const char* const any_arguments = R"({"evaluator":"tool_trajectory","options":{"arg_match_mode":"ignore"}})";
  const EvalResult r = per_turn_run(any_arguments, fewer_expected);
  BOOST_TEST(r.metadata.at("turnCount").to_number<int>() == 3);
  BOOST_TEST(r.metadata.at("actualTurns").to_number<int>() == 3);
  BOOST_TEST(r.metadata.at("expectedTurns").to_number<int>() == 2);
  BOOST_TEST(*r.score == 1.0);

  // Four expected turns: the fourth finds no assistant message, so it scores as "no calls made".
  const auto more_expected = per_turn_conversation_case(
      kConversation, R"([[{"name":"get_weather"}],[{"name":"book_hotel"}],[],[{"name":"send_receipt"}]])");
  const EvalResult longer = per_turn_run(any_arguments, more_expected);
  BOOST_TEST(longer.metadata.at("turnCount").to_number<int>() == 4);
  BOOST_TEST(turn_score(longer, 3) == 0.0);
  BOOST_TEST(*longer.score == 0.75);
  BOOST_TEST(longer.reason.find("turn 3 failed") != std::string::npos, longer.reason);
}

BOOST_AUTO_TEST_CASE(expected_calls_given_as_a_conversation) {
  const char* const expected = R"({"scenario":"reference","messages":[
      {"role":"user","content":"Weather in Paris?"},
      {"role":"assistant","content":"","toolCalls":[{"name":"get_weather","arguments":{"city":"Paris"}}]},
      {"role":"user","content":"Book a hotel."},
      {"role":"assistant","content":"","tool_calls":[{"id":"1","type":"function",
          "function":{"name":"book_hotel","arguments":"{\"city\":\"Lyon\"}"}}]},
      {"role":"user","content":"Thanks!"},
      {"role":"assistant","content":"Bye"}]})";
  const EvalResult r = per_turn_run(R"({"evaluator":"tool_trajectory","aggregate":"min"})", per_turn_conversation_case(kConversation, expected));
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.metadata.at("expectedTurns").to_number<int>() == 3);

  // A bare list of messages is a conversation as well.
  const EvalResult bare = per_turn_run(R"({"evaluator":"tool_trajectory"})",
                              per_turn_conversation_case(kConversation, R"([{"role":"assistant","content":"hi"}])"));
  BOOST_TEST(bare.metadata.at("expectedTurns").to_number<int>() == 1);
  BOOST_TEST(bare.metadata.at("turnCount").to_number<int>() == 3);
}

// Turns follow assistant messages, so a leading greeting is turn 0.
BOOST_AUTO_TEST_CASE(a_leading_assistant_message_is_turn_zero) {
  const char* const conversation = R"([
      {"role":"assistant","content":"Welcome! Let me check your account.","toolCalls":[{"name":"get_user"}]},
      {"role":"user","content":"Find flights to Oslo"},
      {"role":"assistant","content":"","toolCalls":[{"name":"search_flights"}]},
      {"role":"assistant","content":"Found 2 flights."}])";
  const EvalResult aligned =
      per_turn_run(R"({"evaluator":"tool_correctness"})",
          per_turn_conversation_case(conversation, R"([[{"name":"get_user"}],[{"name":"search_flights"}],[]])"));
  BOOST_TEST(*aligned.score == 1.0);
  // Lists that ignore the greeting are one turn off, and the misalignment shows.
  const EvalResult shifted = per_turn_run(R"({"evaluator":"tool_correctness"})",
                                 per_turn_conversation_case(conversation, R"([[{"name":"search_flights"}],[]])"));
  BOOST_TEST(turn_score(shifted, 0) == 0.0);
  BOOST_TEST(turn_score(shifted, 1) == 0.0);
  BOOST_TEST(turn_score(shifted, 2) == 1.0);
}

BOOST_AUTO_TEST_CASE(tools_reach_every_turn_and_actual_only_evaluators_need_no_expected_list) {
  const char* const conversation = R"([
      {"role":"user","content":"go"},
      {"role":"assistant","content":"","tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}},
                                                     {"id":"b","function":{"name":"g","arguments":"{}"}}]},
      {"role":"tool","tool_call_id":"a","content":"ok"},
      {"role":"tool","tool_call_id":"b","content":"{\"error\":\"boom\"}"},
      {"role":"assistant","content":"","toolCalls":[{"name":"f","result":"fine"}]}])";
  boost::json::object document = test_case(std::string("{\"conversation\":") + conversation + "}");
  const EvalResult errors = per_turn_run(R"({"evaluator":"tool_error"})", document);
  BOOST_TEST(turn_score(errors, 0) == 0.5);
  BOOST_TEST(turn_score(errors, 1) == 1.0);
  BOOST_TEST(*errors.score == 0.75);
  BOOST_TEST(errors.metadata.at("expectedTurns").to_number<int>() == 0);

  const EvalResult repeats = per_turn_run(R"({"evaluator":"tool_efficiency","aggregate":"min"})", document);
  BOOST_TEST(*repeats.score == 1.0);  // f repeats only across turns, and each turn is scored alone
}

BOOST_AUTO_TEST_CASE(the_tools_of_the_test_case_reach_every_turn) {
  const char* const conversation = R"([
      {"role":"user","content":"two searches"},
      {"role":"assistant","content":"","toolCalls":[{"name":"search","arguments":{"query":"a"}}]},
      {"role":"assistant","content":"","toolCalls":[{"name":"search","arguments":{"query":7}},{"name":"book"}]}])";
  boost::json::object document = test_case(std::string("{\"conversation\":") + conversation + "}");
  document["metadata"] = json(R"({"toolDefs":[{"name":"search","parameters":{"type":"object",
      "properties":{"query":{"type":"string"}},"required":["query"]}}]})");
  const EvalResult r = per_turn_run(R"({"evaluator":"tool_call_validity","tools_key":"toolDefs"})", document);
  BOOST_TEST(turn_score(r, 0) == 1.0);
  BOOST_TEST(turn_score(r, 1) == 0.0);
  BOOST_TEST(*r.score == 0.5);
  BOOST_CHECK_EXCEPTION(PerTurnEvaluator(config(R"({"evaluator":"tool_call_validity","options":{"tools_key":"x"}})")),
                        krino::Error, invalid("option 'options.tools_key' cannot be set"));
}

BOOST_AUTO_TEST_CASE(no_turns_at_all_scores_one) {
  const EvalResult r = per_turn_run(R"({"evaluator":"tool_correctness"})",
                           per_turn_conversation_case(R"([{"role":"user","content":"hi"}])", "[]"));
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "0 turns: no assistant turns and no expected turns");
  BOOST_TEST(r.metadata.at("turns").as_array().empty());
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(PerTurnEvaluator(config(R"({"evaluator":"tool_wizardry"})")), krino::Error,
                        invalid("option 'evaluator' must be one of tool_correctness, tool_trajectory, tool_error, "
                                "tool_efficiency, tool_call_validity, got 'tool_wizardry'"));
  BOOST_CHECK_EXCEPTION(PerTurnEvaluator(config("{}")), krino::Error, invalid("missing required option 'evaluator'"));
  BOOST_CHECK_EXCEPTION(PerTurnEvaluator(config(R"({"evaluator":"tool_correctness","aggregate":"median"})")),
                        krino::Error, invalid("option 'aggregate' must be one of mean, min, all_pass"));
  BOOST_CHECK_EXCEPTION(PerTurnEvaluator(config(R"({"evaluator":"tool_correctness","turns":2})")), krino::Error,
                        invalid("unknown option 'turns'"));
  BOOST_CHECK_EXCEPTION(PerTurnEvaluator(config(R"({"evaluator":"tool_correctness","options":[]})")), krino::Error,
                        invalid("option 'options' must be an object"));
}

BOOST_AUTO_TEST_CASE(inner_options_are_validated_against_the_inner_schema) {
  BOOST_CHECK_EXCEPTION(
      PerTurnEvaluator(config(R"({"evaluator":"tool_trajectory","options":{"match_mode":"IN_ORDER"}})")), krino::Error,
      invalid("option 'options' is not a valid configuration of tool_trajectory: options/match_mode:"));
  BOOST_CHECK_EXCEPTION(
      PerTurnEvaluator(config(R"({"evaluator":"tool_correctness","options":{"arg_match_modes":"subset"}})")),
      krino::Error, invalid("arg_match_modes"));
  BOOST_CHECK_EXCEPTION(
      PerTurnEvaluator(config(R"({"evaluator":"tool_error","options":{"error_patterns":"x"}})")), krino::Error,
      invalid("options/error_patterns"));
  BOOST_CHECK_EXCEPTION(
      PerTurnEvaluator(config(R"({"evaluator":"tool_correctness","options":{"per_tool":{"f":{"ignore_case":1}}}})")),
      krino::Error, invalid("options/per_tool/f/ignore_case"));
  // The key of each turn's calls is per_turn's to decide.
  BOOST_CHECK_EXCEPTION(
      PerTurnEvaluator(config(R"({"evaluator":"tool_correctness","options":{"tool_calls_key":"calls"}})")),
      krino::Error, invalid("option 'options.tool_calls_key' cannot be set"));
  // A pattern that does not compile is caught by the inner evaluator itself.
  BOOST_CHECK_EXCEPTION(PerTurnEvaluator(config(R"({"evaluator":"tool_error","options":{"error_patterns":["("]}})")),
                        krino::Error, invalid("option 'options' (tool_error): error_patterns[0]"));
}

BOOST_AUTO_TEST_CASE(test_case_errors_name_the_key_or_the_turn) {
  const std::string config_text = R"({"evaluator":"tool_correctness"})";
  BOOST_CHECK_EXCEPTION(per_turn_run(config_text, test_case("{}", R"({"toolCallsByTurn":[]})")), krino::Error,
                        invalid("actualOutputs has no 'conversation'"));
  BOOST_CHECK_EXCEPTION(per_turn_run(config_text, test_case(std::string("{\"conversation\":") + kConversation + "}")),
                        krino::Error, invalid("expectedOutputs has no 'toolCallsByTurn'"));
  BOOST_CHECK_EXCEPTION(per_turn_run(config_text, per_turn_conversation_case(kConversation, R"([[], {"name":"a"}])")), krino::Error,
                        invalid("'expectedOutputs.toolCallsByTurn[1]' must be the list of tool calls expected in turn 1"));
  BOOST_CHECK_EXCEPTION(per_turn_run(config_text, per_turn_conversation_case(kConversation, R"([[], [{"arguments":{}}]])")), krino::Error,
                        invalid("'expectedOutputs.toolCallsByTurn[1]'[0]: a tool call needs a non-empty 'name'"));
  BOOST_CHECK_EXCEPTION(per_turn_run(config_text, per_turn_conversation_case(kConversation, "7")), krino::Error,
                        invalid("must be a list of per-turn lists of tool calls, or a conversation"));
}

namespace {

// Scores turns by their number of calls: 2 calls throw, 3 calls cannot be scored, else 1.0.
class FussyTurnEvaluator final : public TurnEvaluator {
 public:
  EvalResult evaluate(const krino::TestCase& test_case, krino::CallContext&) const override {
    const std::size_t calls = test_case.actual_outputs().at("toolCalls").as_array().size();
    if (calls == 2) throw krino::Error(KRINO_INVALID_ARGUMENT, "two calls are too many");
    if (calls == 3) return EvalResult::unscored("fussy", 1.0, "three calls confuse me");
    return EvalResult::scored("fussy", 1.0, 1.0, "fine");
  }
  bool reads_expected_calls() const override { return false; }
};

EvalResult run_fussy(std::string_view calls_per_turn_conversation) {
  const PerTurnEvaluator evaluator(config(R"({"evaluator":"fussy"})"), std::make_unique<FussyTurnEvaluator>());
  return evaluate(evaluator, test_case("{\"conversation\":" + std::string(calls_per_turn_conversation) + "}"));
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_turn_that_throws_fails_the_evaluation_naming_the_turn) {
  BOOST_CHECK_EXCEPTION(run_fussy(R"([{"role":"assistant"},{"role":"assistant","toolCalls":[{"name":"a"},{"name":"b"}]}])"),
                        krino::Error, invalid("turn 1: two calls are too many"));
}

BOOST_AUTO_TEST_CASE(a_turn_without_a_score_leaves_the_result_unscored) {
  const EvalResult r = run_fussy(R"([{"role":"assistant"},
      {"role":"assistant","toolCalls":[{"name":"a"},{"name":"b"},{"name":"c"}]},{"role":"assistant"}])");
  BOOST_TEST(!r.score.has_value());
  BOOST_TEST(!r.success);
  BOOST_TEST(r.name == "fussy_per_turn");
  BOOST_TEST(r.reason == "3 turns; turn 1 could not be scored: three calls confuse me");
  BOOST_TEST(r.metadata.at("turns").at(1).at("score").is_null());
  BOOST_TEST(r.metadata.at("turns").at(2).at("score").to_number<double>() == 1.0);
}

BOOST_AUTO_TEST_CASE(custom_keys) {
  boost::json::object document = test_case(std::string("{\"dialog\":") + kConversation + "}",
                                           std::string("{\"perTurn\":") + kExpectedLists + "}");
  const EvalResult r = per_turn_run(R"({"evaluator":"tool_correctness","conversation_key":"dialog","expected_key":"perTurn"})",
                           document);
  BOOST_TEST(*r.score == 1.0);
}

BOOST_AUTO_TEST_CASE(the_factory_lists_its_evaluators) {
  BOOST_TEST(turn_evaluator_names() ==
             "tool_correctness, tool_trajectory, tool_error, tool_efficiency, tool_call_validity");
  BOOST_TEST(make_turn_evaluator("tool_correctness", {})->reads_expected_calls());
  BOOST_TEST(!make_turn_evaluator("tool_efficiency", {})->reads_expected_calls());
}

BOOST_AUTO_TEST_SUITE_END()
