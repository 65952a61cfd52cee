// The OpenJudge graders through the C ABI trampolines their registrations use: JSON text in, a
// krino.evalresult/1 document or a status with a message out.
#include "openjudge_action_loop_detection.h"
#include "openjudge_observation_information_gain.h"
#include "openjudge_tool_call_sequence_match.h"

#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "evaluator_abi_call.hpp"

#include <string>

using namespace krino::agent::openjudge;

namespace {

using Outcome = krino::test::AbiOutcome;

template <class T>
Outcome openjudge_abi_run(const std::string& config, const std::string& test_case) {
  return krino::test::evaluate_through_abi<T>(config, test_case);
}

const std::string kSearchTwice = R"({"inputs": {}, "metadata": {}, "actualOutputs": {"messages": [
  {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "search", "arguments": "{\"query\": \"python\"}"}}]},
  {"role": "tool", "tool_call_id": "1", "content": "Results..."},
  {"role": "assistant", "tool_calls": [{"id": "2", "function": {"name": "search", "arguments": "{\"query\": \"python\"}"}}]},
  {"role": "tool", "tool_call_id": "2", "content": "Results..."}]},
  "expectedOutputs": {"referenceToolCalls": [[{"name": "search", "arguments": {"query": "python"}}]]}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_abi)

BOOST_AUTO_TEST_CASE(each_grader_writes_an_eval_result) {
  const Outcome loops = openjudge_abi_run<ActionLoopDetectionEvaluator>("{}", kSearchTwice);
  BOOST_TEST(loops.status == KRINO_OK);
  const boost::json::value r = boost::json::parse(loops.result);
  BOOST_TEST(r.at("score").to_number<double>() == 0.0);
  BOOST_TEST(!r.at("success").as_bool());
  BOOST_TEST(r.at("metadata").at("similar_pair_count").to_number<int>() == 1);

  const Outcome sequence = openjudge_abi_run<ToolCallSequenceMatchEvaluator>(R"({"strict_mode": true})", kSearchTwice);
  BOOST_TEST(sequence.status == KRINO_OK);
  BOOST_TEST(boost::json::parse(sequence.result).at("score").to_number<double>() == 1.0);

  const Outcome gain = openjudge_abi_run<ObservationInformationGainEvaluator>(R"({"threshold": 0.6})", kSearchTwice);
  BOOST_TEST(gain.status == KRINO_OK);
  const boost::json::value g = boost::json::parse(gain.result);
  BOOST_TEST(g.at("score").to_number<double>() == 0.5);
  BOOST_TEST(!g.at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(bad_input_and_bad_options_become_invalid_argument) {
  const Outcome unknown_id = openjudge_abi_run<ObservationInformationGainEvaluator>(
      "{}", R"({"inputs": {}, "metadata": {}, "expectedOutputs": {},
               "actualOutputs": {"conversation": [{"role": "tool", "tool_call_id": "7", "content": "x"}]}})");
  BOOST_TEST(unknown_id.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(unknown_id.error.find("tool call id '7'") != std::string::npos);

  const Outcome no_reference = openjudge_abi_run<ToolCallSequenceMatchEvaluator>(
      "{}", R"({"inputs": {}, "metadata": {}, "expectedOutputs": {}, "actualOutputs": {"conversation": []}})");
  BOOST_TEST(no_reference.status == KRINO_INVALID_ARGUMENT);

  const Outcome bad_option = openjudge_abi_run<ActionLoopDetectionEvaluator>(R"({"similarity_threshold": 2})", kSearchTwice);
  BOOST_TEST(bad_option.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(bad_option.error.find("similarity_threshold") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
