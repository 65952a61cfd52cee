// action_loop_detection: OpenJudge's pairwise loop detection over answered tool calls.
#include "openjudge_action_loop_detection.h"

#include "openjudge_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::agent::openjudge;
using namespace krino::agent::openjudge::testing;

namespace {

// An assistant call and its answer, with the given id and JSON-encoded arguments value.
std::string exchange(const std::string& id, const std::string& name, const std::string& arguments) {
  return R"({"role": "assistant", "tool_calls": [{"id": ")" + id + R"(", "function": {"name": ")" + name +
         R"(", "arguments": )" + arguments + R"(}}]}, {"role": "tool", "tool_call_id": ")" + id +
         R"(", "content": "Results..."})";
}

std::string signature_of(const std::string& arguments) {
  const boost::json::value call = boost::json::parse(R"({"name": "f", "arguments": )" + arguments + "}");
  return action_signature(read_tool_call(call.as_object()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_action_loop_detection)

BOOST_AUTO_TEST_CASE(documented_example_two_identical_searches) {
  const ActionLoopDetectionEvaluator evaluator(config("{}"));
  const std::string messages = "[" + exchange("1", "search", R"("{\"query\": \"python\"}")") + ", " +
                               exchange("2", "search", R"("{\"query\": \"python\"}")") + "]";
  const krino::EvalResult r = evaluate(evaluator, conversation_case(messages));
  BOOST_TEST(r.name == "action_loop_detection");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(r.metadata.at("similar_pair_count").to_number<int>() == 1);
  BOOST_TEST(r.metadata.at("total_pair_count").to_number<int>() == 1);
  BOOST_TEST(r.metadata.at("action_count").to_number<int>() == 2);
  BOOST_TEST(r.metadata.at("similarity_threshold").as_double() == 1.0);
  BOOST_TEST(boost::json::serialize(r.metadata.at("signatures")) == R"(["search: query: python","search: query: python"])");
  BOOST_TEST(boost::json::serialize(r.metadata.at("similar_pairs")) ==
             R"([["search: query: python","search: query: python",1E0]])");
  BOOST_TEST(r.reason == "1 of 1 pair of the 2 answered tool calls is alike (similarity_threshold 1.0)");
}

BOOST_AUTO_TEST_CASE(pairs_grow_quadratically) {
  const ActionLoopDetectionEvaluator evaluator(config("{}"));
  const std::string same = R"("{\"q\": 1}")";
  const krino::EvalResult three = evaluate(
      evaluator, conversation_case("[" + exchange("1", "f", same) + ", " + exchange("2", "f", same) + ", " +
                                   exchange("3", "f", same) + "]"));
  BOOST_TEST(*three.score == 0.0);
  BOOST_TEST(three.metadata.at("similar_pair_count").to_number<int>() == 3);
  const krino::EvalResult two_of_three = evaluate(
      evaluator, conversation_case("[" + exchange("1", "f", same) + ", " + exchange("2", "g", R"("{\"q\": 2}")") +
                                   ", " + exchange("3", "f", same) + "]"));
  BOOST_TEST(*two_of_three.score == 1.0 - 1.0 / 3.0);
}

BOOST_AUTO_TEST_CASE(fewer_than_two_answered_calls_score_one) {
  const ActionLoopDetectionEvaluator evaluator(config(R"({"threshold": 0.5})"));
  const krino::EvalResult empty = evaluate(evaluator, conversation_case("[]"));
  BOOST_TEST(*empty.score == 1.0);
  BOOST_TEST(empty.success);
  BOOST_TEST(empty.metadata.at("total_pair_count").to_number<int>() == 0);
  // The second identical call was never answered, so it is no action.
  const krino::EvalResult unanswered = evaluate(
      evaluator, conversation_case("[" + exchange("1", "f", "\"{}\"") +
                                   R"(, {"role": "assistant", "tool_calls": [{"id": "2", "function": {"name": "f", "arguments": "{}"}}]}])"));
  BOOST_TEST(*unanswered.score == 1.0);
  BOOST_TEST(unanswered.metadata.at("action_count").to_number<int>() == 1);
}

BOOST_AUTO_TEST_CASE(signatures_sort_arguments_and_print_values_as_python_str) {
  BOOST_TEST(signature_of(R"("{\"b\": 1, \"a\": \"x\"}")") == "f: a: x, b: 1");
  BOOST_TEST(signature_of(R"("{\"n\": 1.0, \"ok\": true, \"none\": null}")") == "f: n: 1.0, none: None, ok: True");
  BOOST_TEST(signature_of(R"("{\"q\": {\"k\": \"v\"}, \"l\": [1, \"a\"]}")") == "f: l: [1, 'a'], q: {'k': 'v'}");
  BOOST_TEST(signature_of(R"({"a": 1})") == "f: a: 1");  // an object given as is
  BOOST_TEST(signature_of(R"("{}")") == "f: ");
  BOOST_TEST(signature_of(R"("not json")") == "f: not json");
  BOOST_TEST(signature_of(R"("[1, 2]")") == "f: [1, 2]");
  BOOST_TEST(signature_of(R"("")") == "f");
  BOOST_TEST(signature_of("null") == "f");
}

BOOST_AUTO_TEST_CASE(one_and_one_point_zero_are_different_actions) {
  const ActionLoopDetectionEvaluator evaluator(config("{}"));
  const krino::EvalResult r = evaluate(evaluator, conversation_case("[" + exchange("1", "f", R"("{\"n\": 1}")") + ", " +
                                                                  exchange("2", "f", R"("{\"n\": 1.0}")") + "]"));
  BOOST_TEST(*r.score == 1.0);
}

BOOST_AUTO_TEST_CASE(a_lower_similarity_threshold_counts_near_repeats) {
  const std::string messages = "[" + exchange("1", "f", R"("{\"n\": 1}")") + ", " + exchange("2", "f", R"("{\"n\": 1.0}")") + "]";
  // Words {f:, n:, 1} and {f:, n:, 1.0}: 2 shared of 4.
  const krino::EvalResult r = evaluate(ActionLoopDetectionEvaluator(config(R"({"similarity_threshold": 0.5})")),
                                       conversation_case(messages));
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(r.metadata.at("similar_pairs").as_array()[0].as_array()[2].as_double() == 0.5);
}

BOOST_AUTO_TEST_CASE(reads_messages_key_and_reports_missing_messages) {
  const ActionLoopDetectionEvaluator evaluator(config(R"({"name": "loops", "messages_key": "trace"})"));
  const krino::EvalResult missing = evaluate(evaluator, test_case(R"({"conversation": []})"));
  BOOST_TEST(*missing.score == 0.0);
  BOOST_TEST(!missing.success);
  BOOST_TEST(missing.name == "loops");
  BOOST_TEST(missing.reason == "no messages to judge: actualOutputs has no 'trace'");
  BOOST_TEST(*evaluate(evaluator, test_case(R"({"trace": []})")).score == 1.0);
}

BOOST_AUTO_TEST_CASE(reads_the_canonical_turns_trace_extractors_write) {
  // actualOutputs.turns: flat calls with object arguments under toolCalls, answers by toolCallId;
  // the second call reuses the first one's id, as recorded traces do.
  const ActionLoopDetectionEvaluator evaluator(config(R"({"messages_key": "turns"})"));
  const krino::EvalResult r = evaluate(evaluator, test_case(R"({"turns": [
    {"role": "assistant", "content": null, "toolCalls": [{"id": "c", "name": "search", "arguments": {"query": "python"}}]},
    {"role": "tool", "content": "Results...", "toolCallId": "c"},
    {"role": "assistant", "content": null, "toolCalls": [{"id": "c", "name": "search", "arguments": {"query": "python"}}]},
    {"role": "tool", "content": "Results...", "toolCallId": "c"}]})"));
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(r.metadata.at("action_count").to_number<int>() == 2);
  BOOST_TEST(r.metadata.at("signatures") == boost::json::parse(R"(["search: query: python", "search: query: python"])"));
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(ActionLoopDetectionEvaluator(config(R"({"similarity": 1})")), krino::Error,
                        invalid("unknown option 'similarity'"));
  BOOST_CHECK_EXCEPTION(ActionLoopDetectionEvaluator(config(R"({"similarity_threshold": 1.5})")), krino::Error,
                        invalid("option 'similarity_threshold' must be between 0 and 1"));
  BOOST_CHECK_EXCEPTION(ActionLoopDetectionEvaluator(config(R"({"threshold": -1})")), krino::Error,
                        invalid("option 'threshold'"));
  BOOST_CHECK_EXCEPTION(ActionLoopDetectionEvaluator(config(R"({"messages_key": ""})")), krino::Error,
                        invalid("option 'messages_key' must not be empty"));
}

BOOST_AUTO_TEST_SUITE_END()
