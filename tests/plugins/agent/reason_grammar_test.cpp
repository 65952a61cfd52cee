// Reason strings of the agent evaluators agree in number: one call, one pair, one observation.
#include "openjudge_action_loop_detection.h"
#include "openjudge_observation_information_gain.h"
#include "tool_correctness_evaluator.h"
#include "tool_efficiency_evaluator.h"
#include "tool_error_evaluator.h"
#include "tool_trajectory_evaluator.h"

#include "agent_test_support.hpp"

#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;

namespace {

// The reason without its trailing " (<mode>, arguments: ...)".
std::string trajectory_reason(std::string_view mode, std::string_view actual, std::string_view expected) {
  const std::string options = "{\"match_mode\":\"" + std::string(mode) + "\"}";
  const std::string reason = evaluate(ToolTrajectoryEvaluator(config(options)), calls_case(actual, expected)).reason;
  const std::string suffix = " (" + std::string(mode) + ", arguments: exact)";
  BOOST_TEST(reason.size() > suffix.size());
  BOOST_TEST(reason.substr(reason.size() - suffix.size()) == suffix, reason);
  return reason.substr(0, reason.size() - suffix.size());
}

std::string correctness_reason(std::string_view mode, std::string_view actual, std::string_view expected) {
  const std::string options = "{\"match_mode\":\"" + std::string(mode) + "\"}";
  return evaluate(ToolCorrectnessEvaluator(config(options)), calls_case(actual, expected)).reason;
}

std::string reason_grammar_conversation_case(std::string_view messages) {
  return "{\"conversation\":" + std::string(messages) + "}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_reason_grammar)

BOOST_AUTO_TEST_CASE(tool_correctness_one_matched_call) {
  BOOST_TEST(correctness_reason("names_and_order", R"([{"name":"a"}])", R"([{"name":"a"},{"name":"b"}])") ==
             "1 call in order out of 1 actual and 2 expected");
  BOOST_TEST(correctness_reason("names_and_order", R"([{"name":"a"},{"name":"b"}])", R"([{"name":"a"},{"name":"b"}])") ==
             "2 calls in order out of 2 actual and 2 expected");
  const std::string by_args =
      correctness_reason("names_and_args", R"([{"name":"a","arguments":{"x":1}}])", R"([{"name":"a","arguments":{"x":1}}])");
  BOOST_TEST(by_args.rfind("1 call matched by name and arguments out of 1 actual and 1 expected (arguments: ", 0) == 0u,
             by_args);
}

BOOST_AUTO_TEST_CASE(tool_trajectory_one_call) {
  const std::string one = R"([{"name":"a"}])";
  const std::string two = R"([{"name":"a"},{"name":"b"}])";
  BOOST_TEST(trajectory_reason("strict", one, one) == "the 1 call matches in order");
  BOOST_TEST(trajectory_reason("strict", two, two) == "all 2 calls match in order");
  BOOST_TEST(trajectory_reason("strict", one, two) == "1 actual call but 2 expected; the first matches");
  BOOST_TEST(trajectory_reason("strict", two, one) == "2 actual calls but 1 expected; the first matches");
  BOOST_TEST(trajectory_reason("strict", R"([{"name":"c"}])", two) == "1 actual call but 2 expected; the first 0 match");
  BOOST_TEST(trajectory_reason("in_order", one, one) == "1 of 1 call matches in order (1 made, 1 expected)");
  BOOST_TEST(trajectory_reason("in_order", one, two) == "1 of 2 calls matches in order (1 made, 2 expected)");
  BOOST_TEST(trajectory_reason("in_order", two, two) == "2 of 2 calls match in order (2 made, 2 expected)");
  BOOST_TEST(trajectory_reason("any_order", one, two) == "1 call paired in any order; the longer list has 2");
  BOOST_TEST(trajectory_reason("any_order", two, two) == "2 calls paired in any order; the longer list has 2");
  BOOST_TEST(trajectory_reason("superset", one, two) == "1 of 2 expected calls was made");
  BOOST_TEST(trajectory_reason("recall", R"([{"name":"c"}])", one) == "0 of 1 expected call were made");
  BOOST_TEST(trajectory_reason("subset", two, one) == "1 of 2 actual calls was expected");
  BOOST_TEST(trajectory_reason("precision", one, one) == "1 of 1 actual call was expected");
}

BOOST_AUTO_TEST_CASE(tool_error_one_call) {
  const ToolErrorEvaluator evaluator(config("{}"));
  BOOST_TEST(evaluate(evaluator, test_case(R"({"toolCalls":[{"name":"a","result":"fine"}]})")).reason ==
             "1 of 1 tool call succeeded");
  BOOST_TEST(evaluate(evaluator, test_case(R"({"toolCalls":[{"name":"a","result":"fine"},{"name":"b"}]})")).reason ==
             "1 of 2 tool calls succeeded; failed: #1 b (no_result)");
}

BOOST_AUTO_TEST_CASE(tool_efficiency_one_call) {
  const ToolEfficiencyEvaluator evaluator(config("{}"));
  BOOST_TEST(evaluate(evaluator, test_case(R"({"toolCalls":[{"name":"a"}]})")).reason == "1 of 1 tool call was distinct");
  BOOST_TEST(evaluate(evaluator, test_case(R"({"toolCalls":[{"name":"a"},{"name":"a"}]})")).reason ==
             "1 of 2 tool calls was distinct; 1 repeated the call just before (possible loop)");
}

BOOST_AUTO_TEST_CASE(openjudge_graders_one_pair_and_one_observation) {
  const std::string two_exchanges =
      R"([{"role":"assistant","tool_calls":[{"id":"1","function":{"name":"f","arguments":"{}"}}]},)"
      R"({"role":"tool","tool_call_id":"1","content":"a long enough observation"},)"
      R"({"role":"assistant","tool_calls":[{"id":"2","function":{"name":"g","arguments":"{}"}}]},)"
      R"({"role":"tool","tool_call_id":"2","content":"another observation text"}])";
  const openjudge::ActionLoopDetectionEvaluator loops(config("{}"));
  BOOST_TEST(evaluate(loops, test_case(reason_grammar_conversation_case(two_exchanges))).reason ==
             "0 of 1 pair of the 2 answered tool calls are alike (similarity_threshold 1.0)");

  const std::string one_exchange =
      R"([{"role":"assistant","tool_calls":[{"id":"1","function":{"name":"f","arguments":"{}"}}]},)"
      R"({"role":"tool","tool_call_id":"1","content":"a long enough observation"}])";
  const openjudge::ObservationInformationGainEvaluator gain(config("{}"));
  BOOST_TEST(evaluate(gain, test_case(reason_grammar_conversation_case(one_exchange))).reason ==
             "mean information gain 1.000 over 1 of 1 observation");
}

BOOST_AUTO_TEST_SUITE_END()
