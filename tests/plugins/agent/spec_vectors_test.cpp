// Cases of the agent features that no other suite covered; the map of which test covers which case
// is docs/plugins/agent-spec-coverage.md.
#include "openjudge_action_loop_detection.h"
#include "openjudge_observation_information_gain.h"

#include "openjudge_test_support.hpp"

#include <string>

using namespace krino::agent::openjudge;
using namespace krino::agent::openjudge::testing;

namespace {

std::string spec_vectors_call(const std::string& id, const std::string& name) {
  return R"({"role": "assistant", "tool_calls": [{"id": ")" + id + R"(", "function": {"name": ")" + name +
         R"(", "arguments": "{}"}}]})";
}

std::string answer(const std::string& id, const std::string& content) {
  return R"({"role": "tool", "tool_call_id": ")" + id + R"(", "content": ")" + content + R"("})";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_spec_vectors)

// A tool message answering an id no call is waiting for is an error for loop
// detection as well (the information gain suite checks its own).
BOOST_AUTO_TEST_CASE(loop_detection_rejects_an_answer_to_an_unknown_call_id) {
  const ActionLoopDetectionEvaluator evaluator(config("{}"));
  const std::string messages = "[" + spec_vectors_call("1", "look") + ", " + answer("1", "a room") + ", " + answer("7", "stray") + "]";
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, conversation_case(messages)), krino::Error, invalid("tool call id '7'"));
}

// Information gain skips a call that never got an answer, between answered ones.
BOOST_AUTO_TEST_CASE(information_gain_ignores_an_unanswered_call_between_answered_ones) {
  const ObservationInformationGainEvaluator evaluator(config(R"({"similarity_threshold": 0.5})"));
  const std::string with_gap = "[" + spec_vectors_call("1", "look") + ", " + answer("1", "You see a red box.") + ", " +
                               spec_vectors_call("2", "look") + ", " + spec_vectors_call("3", "look") + ", " +
                               answer("3", "You see a blue sphere.") + "]";
  const krino::EvalResult r = evaluate(evaluator, conversation_case(with_gap));
  BOOST_TEST(r.metadata.at("observation_count").to_number<int>() == 2);
  BOOST_TEST(*r.score == 0.7857142857142857);
}

BOOST_AUTO_TEST_SUITE_END()
