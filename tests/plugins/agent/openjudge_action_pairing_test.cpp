// Reading OpenAI-style messages and pairing tool calls with their answers, as OpenJudge does;
// and the word-set similarity the graders compare texts with.
#include "openjudge_action_loop_detection.h"
#include "openjudge_action_pairing.h"
#include "openjudge_messages.h"
#include "openjudge_text_similarity.h"

#include "openjudge_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <deque>

using namespace krino::agent::openjudge;
using namespace krino::agent::openjudge::testing;

namespace {
// Pairs point into the messages they were read from (as in the graders, which hold the test case
// for the whole evaluation), so the parsed documents live as long as the test program.
std::vector<ActionObservation> pairs_of(std::string_view messages) {
  static std::deque<boost::json::value> documents;
  const boost::json::value& parsed = documents.emplace_back(boost::json::parse(messages));
  return pair_actions_with_observations(parsed.as_array());
}
}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_action_pairing)

BOOST_AUTO_TEST_CASE(answers_pair_by_id_in_the_order_they_arrive) {
  const auto pairs = pairs_of(R"([
    {"role": "user", "content": "hi"},
    {"role": "assistant", "tool_calls": [
      {"id": "a", "function": {"name": "first", "arguments": "{}"}},
      {"id": "b", "function": {"name": "second", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "b", "content": "for b"},
    {"role": "tool", "tool_call_id": "a", "content": "for a"}])");
  BOOST_TEST_REQUIRE(pairs.size() == 2u);
  BOOST_TEST(pairs[0].action.name == "second");
  BOOST_TEST(pairs[0].observation == "for b");
  BOOST_TEST(pairs[1].action.name == "first");
}

BOOST_AUTO_TEST_CASE(answers_without_id_take_the_oldest_call_without_id) {
  const auto pairs = pairs_of(R"([
    {"role": "assistant", "tool_calls": [{"function": {"name": "one"}}, {"id": "", "function": {"name": "two"}}]},
    {"role": "function", "content": "r1"},
    {"role": "tool", "content": null}])");
  BOOST_TEST_REQUIRE(pairs.size() == 2u);
  BOOST_TEST(pairs[0].action.name == "one");
  BOOST_TEST(pairs[1].action.name == "two");
  BOOST_TEST(pairs[1].observation == "");
}

BOOST_AUTO_TEST_CASE(unanswered_calls_are_not_actions) {
  const auto pairs = pairs_of(R"([
    {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "answered"}}, {"id": "2", "function": {"name": "left"}}]},
    {"role": "tool", "tool_call_id": "1", "content": "ok"}])");
  BOOST_TEST_REQUIRE(pairs.size() == 1u);
  BOOST_TEST(pairs[0].action.name == "answered");
}

BOOST_AUTO_TEST_CASE(message_and_tool_call_wrappers_are_unwrapped) {
  const auto pairs = pairs_of(R"([
    {"message": {"role": "assistant", "tool_calls": [{"tool_call": {"id": "1", "function": {"name": "look"}}}]}},
    {"message": {"role": "tool", "tool_call_id": "1", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}}])");
  BOOST_TEST_REQUIRE(pairs.size() == 1u);
  BOOST_TEST(pairs[0].action.name == "look");
  BOOST_TEST(pairs[0].observation == "a\nb");
}

BOOST_AUTO_TEST_CASE(calls_without_function_object_are_read_flat) {
  const auto pairs = pairs_of(R"([
    {"role": "assistant", "tool_calls": [{"id": "1", "name": "flat", "arguments": {"q": 1}}]},
    {"role": "tool", "tool_call_id": "1", "content": "ok"}])");
  BOOST_TEST_REQUIRE(pairs.size() == 1u);
  BOOST_TEST(pairs[0].action.name == "flat");
  BOOST_TEST(pairs[0].action.arguments->is_object());
}

BOOST_AUTO_TEST_CASE(an_answer_nobody_waits_for_is_an_error) {
  BOOST_CHECK_EXCEPTION(pairs_of(R"([{"role": "tool", "tool_call_id": "x", "content": "?"}])"), krino::Error,
                        invalid("answers tool call id 'x'"));
  BOOST_CHECK_EXCEPTION(pairs_of(R"([{"role": "tool", "content": "?"}])"), krino::Error,
                        invalid("no tool call without an id is waiting"));
  BOOST_CHECK_EXCEPTION(pairs_of(R"([
    {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "once"}}]},
    {"role": "tool", "tool_call_id": "1", "content": "ok"},
    {"role": "tool", "tool_call_id": "1", "content": "again"}])"), krino::Error, invalid("message 2"));
  BOOST_CHECK_EXCEPTION(pairs_of(R"(["text"])"), krino::Error, invalid("message 0 is not an object"));
}

BOOST_AUTO_TEST_CASE(steps_are_assistant_messages_with_calls) {
  const boost::json::value messages = boost::json::parse(R"([
    {"role": "assistant", "content": "thinking", "tool_calls": []},
    {"role": "assistant", "tool_calls": [{"function": {"name": "a"}}, {"function": {"name": "b"}}]},
    {"role": "user", "tool_calls": [{"function": {"name": "ignored"}}]},
    {"role": "assistant", "tool_calls": [{"function": {"name": "c"}}]}])");
  const auto steps = tool_call_steps(messages.as_array());
  BOOST_TEST_REQUIRE(steps.size() == 2u);
  BOOST_TEST(steps[0].size() == 2u);
  BOOST_TEST(steps[1][0].name == "c");
}

BOOST_AUTO_TEST_CASE(messages_come_from_conversation_then_messages_or_the_configured_key) {
  // Options as a grader reads them: with its schema's defaults (messages_key: conversation).
  const MessagesLocation defaults(krino::Config({}, ActionLoopDetectionEvaluator::kConfigSchema));
  const boost::json::object both = test_case(R"({"conversation": [1], "messages": [1, 2]})");
  BOOST_TEST(defaults.find(krino::TestCase(both))->size() == 1u);
  const boost::json::object fallback = test_case(R"({"messages": [1, 2]})");
  BOOST_TEST(defaults.find(krino::TestCase(fallback))->size() == 2u);
  const boost::json::object none = test_case(R"({"output": "x", "conversation": null})");
  BOOST_TEST(defaults.find(krino::TestCase(none)) == nullptr);
  BOOST_TEST(defaults.describe_missing() == "no messages to judge: actualOutputs has neither 'conversation' nor 'messages'");

  const MessagesLocation configured(config(R"({"messages_key": "trace"})"));
  BOOST_TEST(configured.find(krino::TestCase(fallback)) == nullptr);
  BOOST_TEST(configured.describe_missing() == "no messages to judge: actualOutputs has no 'trace'");
  const boost::json::object wrong = test_case(R"({"trace": "text"})");
  BOOST_CHECK_EXCEPTION(configured.find(krino::TestCase(wrong)), krino::Error, invalid("actualOutputs.trace must be a list"));
}

BOOST_AUTO_TEST_CASE(word_set_similarity_is_a_lower_cased_jaccard_index) {
  BOOST_TEST(word_set_similarity("You see a red box.", "You see a blue sphere.") == 3.0 / 7.0);
  BOOST_TEST(word_set_similarity("Hello  World", "world hello hello") == 1.0);
  BOOST_TEST(word_set_similarity("box", "box.") == 0.0);
  BOOST_TEST(word_set_similarity("", "x") == 0.0);
  BOOST_TEST(word_set_similarity("   ", "   ") == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
