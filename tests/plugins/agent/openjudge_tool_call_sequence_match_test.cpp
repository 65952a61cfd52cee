// tool_call_sequence_match: the conversation's tool calls against a reference sequence.
#include "openjudge_tool_call_sequence_match.h"

#include "openjudge_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>

using namespace krino::agent::openjudge;
using namespace krino::agent::openjudge::testing;

namespace {

// One assistant message per step; each step a list of {"name", "arguments"} written as JSON text.
std::string assistant_steps(std::initializer_list<std::string> steps) {
  std::string messages = "[";
  int id = 0;
  for (const std::string& step : steps) {
    const boost::json::value calls = boost::json::parse(step);
    boost::json::array tool_calls;
    for (const auto& call : calls.as_array()) {
      boost::json::object function{{"name", call.at("name")}};
      if (const auto* arguments = call.as_object().if_contains("arguments")) function["arguments"] = *arguments;
      tool_calls.push_back(boost::json::object{{"id", std::to_string(++id)}, {"function", function}});
    }
    if (messages.size() > 1) messages += ", ";
    messages += boost::json::serialize(boost::json::object{{"role", "assistant"}, {"tool_calls", tool_calls}});
  }
  return messages + "]";
}

krino::EvalResult openjudge_tool_call_sequence_match_match(const std::string& options, const std::string& messages, const std::string& reference) {
  const ToolCallSequenceMatchEvaluator evaluator(config(options));
  return evaluate(evaluator, conversation_case(messages, R"({"referenceToolCalls": )" + reference + "}"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_tool_call_sequence_match)

BOOST_AUTO_TEST_CASE(documented_example_strict_jaccard) {
  const std::string messages = R"([
    {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "search", "arguments": "{\"query\": \"python\"}"}}]},
    {"role": "tool", "tool_call_id": "1", "content": "Results..."}])";
  const krino::EvalResult r = openjudge_tool_call_sequence_match_match("{}", messages, R"([[{"name": "search", "arguments": {"query": "python"}}]])");
  BOOST_TEST(r.name == "tool_call_sequence_match");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "Tool call sequence evaluation (strict mode, jaccard): jaccard_similarity=1.000");
  BOOST_TEST(r.metadata.at("jaccard_similarity_score").as_double() == 1.0);
  BOOST_TEST(boost::json::serialize(r.metadata.at("intersection_set")) == R"(["search: {'query': 'python'}"])");
  BOOST_TEST(r.metadata.at("predicted_tool_count").to_number<int>() == 1);
  BOOST_TEST(r.metadata.at("reference_tool_count").to_number<int>() == 1);
  BOOST_TEST(r.metadata.at("strict_mode").as_bool());
  BOOST_TEST(r.metadata.at("use_jaccard_similarity").as_bool());
}

BOOST_AUTO_TEST_CASE(strict_jaccard_compares_python_reprs_so_key_order_and_number_types_matter) {
  const std::string reference = R"([[{"name": "f", "arguments": {"a": 1, "b": 2}}]])";
  BOOST_TEST(*openjudge_tool_call_sequence_match_match("{}", assistant_steps({R"([{"name": "f", "arguments": "{\"a\": 1, \"b\": 2}"}])"}), reference).score == 1.0);
  BOOST_TEST(*openjudge_tool_call_sequence_match_match("{}", assistant_steps({R"([{"name": "f", "arguments": "{\"b\": 2, \"a\": 1}"}])"}), reference).score == 0.0);
  BOOST_TEST(*openjudge_tool_call_sequence_match_match("{}", assistant_steps({R"([{"name": "f", "arguments": "{\"a\": 1.0, \"b\": 2}"}])"}), reference).score == 0.0);
}

BOOST_AUTO_TEST_CASE(jaccard_uses_sets_across_steps) {
  // Predicted {f: {}, g: {}} (f twice collapses), reference {f: {}, h: {}}: 1 shared of 3.
  const std::string predicted = assistant_steps({R"([{"name": "f", "arguments": "{}"}])", R"([{"name": "f", "arguments": "{}"}, {"name": "g"}])"});
  const krino::EvalResult strict = openjudge_tool_call_sequence_match_match("{}", predicted, R"([[{"name": "f", "arguments": {}}], [{"name": "h"}]])");
  BOOST_TEST(*strict.score == 1.0 / 3.0);
  BOOST_TEST(boost::json::serialize(strict.metadata.at("union_set")) == R"(["f: {}","g: {}","h: {}"])");
  const krino::EvalResult loose = openjudge_tool_call_sequence_match_match(R"({"strict_mode": false})", predicted, R"([[{"name": "h"}, {"name": "g"}, {"name": "f"}]])");
  BOOST_TEST(*loose.score == 2.0 / 3.0);  // names {f, g} against {f, g, h}
  BOOST_TEST(loose.reason == "Tool call sequence evaluation (loose mode, jaccard): jaccard_similarity=0.667");
}

BOOST_AUTO_TEST_CASE(unparseable_arguments_count_as_empty_and_references_may_wrap_function) {
  const krino::EvalResult r = openjudge_tool_call_sequence_match_match("{}", assistant_steps({R"([{"name": "f", "arguments": "{oops"}])"}),
                                    R"([[{"function": {"name": "f", "arguments": "{}"}}]])");
  BOOST_TEST(*r.score == 1.0);
  // A step given as a single call object rather than a list.
  BOOST_TEST(*openjudge_tool_call_sequence_match_match("{}", assistant_steps({R"([{"name": "f"}])"}), R"([{"name": "f"}])").score == 1.0);
}

BOOST_AUTO_TEST_CASE(empty_sides) {
  BOOST_TEST(*openjudge_tool_call_sequence_match_match("{}", "[]", "[]").score == 1.0);
  BOOST_TEST(openjudge_tool_call_sequence_match_match("{}", "[]", "[]").reason == "neither the conversation nor the reference has tool calls");
  BOOST_TEST(*openjudge_tool_call_sequence_match_match("{}", "[]", "[[]]").score == 1.0);  // only an empty step: both call sets are empty
  BOOST_TEST(*openjudge_tool_call_sequence_match_match("{}", assistant_steps({R"([{"name": "f"}])"}), "[]").score == 0.0);
  BOOST_TEST(*openjudge_tool_call_sequence_match_match("{}", "[]", R"([[{"name": "f"}]])").score == 0.0);
  BOOST_TEST(*openjudge_tool_call_sequence_match_match(R"({"use_jaccard_similarity": false})", assistant_steps({R"([{"name": "f"}])"}), "[]").score == 0.0);
}

BOOST_AUTO_TEST_CASE(strict_step_by_step_averages_parameter_f1) {
  const std::string options = R"({"use_jaccard_similarity": false})";
  // Elements {query, python, limit, 5} vs {query, python, limit, 10}: F1 0.75. Step 1 is missing.
  const krino::EvalResult r = openjudge_tool_call_sequence_match_match(options, assistant_steps({R"([{"name": "search", "arguments": "{\"query\": \"python\", \"limit\": 10}"}])"}),
                                    R"([[{"name": "search", "arguments": {"query": "python", "limit": 5}}], [{"name": "open"}]])");
  BOOST_TEST(*r.score == 0.375);
  BOOST_TEST(r.reason == "Tool call sequence evaluation (strict mode, step-by-step): step_matching=0.375");
  BOOST_TEST(boost::json::serialize(r.metadata.at("step_scores")) == "[7.5E-1,0E0]");
  // A reference name missing from the step scores the step 0, even if others match.
  BOOST_TEST(*openjudge_tool_call_sequence_match_match(options, assistant_steps({R"([{"name": "a"}])"}), R"([[{"name": "a"}, {"name": "b"}]])").score == 0.0);
  // Repeated reference names need repeated predicted calls; each is scored against the first.
  BOOST_TEST(*openjudge_tool_call_sequence_match_match(options, assistant_steps({R"([{"name": "a", "arguments": "{\"x\": 1}"}, {"name": "a", "arguments": "{\"x\": 2}"}])"}),
                    R"([[{"name": "a", "arguments": {"x": 1}}, {"name": "a", "arguments": {"x": 2}}]])").score == 0.75);
  // Extra predicted steps are ignored.
  BOOST_TEST(*openjudge_tool_call_sequence_match_match(options, assistant_steps({R"([{"name": "a"}])", R"([{"name": "z"}])"}), R"([[{"name": "a"}]])").score == 1.0);
  // F1 compares str() forms: 1 and 1.0 differ.
  BOOST_TEST(*openjudge_tool_call_sequence_match_match(options, assistant_steps({R"([{"name": "a", "arguments": "{\"x\": 1.0}"}])"}),
                    R"([[{"name": "a", "arguments": {"x": 1}}]])").score == 0.5);
}

BOOST_AUTO_TEST_CASE(loose_step_by_step_uses_recall_or_precision) {
  const std::string predicted = assistant_steps({R"([{"name": "a"}, {"name": "c"}, {"name": "d"}])"});
  const std::string reference = R"([[{"name": "a"}, {"name": "b"}]])";
  const krino::EvalResult recall = openjudge_tool_call_sequence_match_match(R"({"strict_mode": false, "use_jaccard_similarity": false})", predicted, reference);
  BOOST_TEST(*recall.score == 0.5);
  BOOST_TEST(recall.metadata.at("metric_type").as_string() == "recall");
  BOOST_TEST(*openjudge_tool_call_sequence_match_match(R"({"strict_mode": false, "use_jaccard_similarity": false, "metric_type": "precision"})", predicted,
                    reference).score == 1.0 / 3.0);
  BOOST_TEST(*openjudge_tool_call_sequence_match_match(R"({"strict_mode": false, "use_jaccard_similarity": false})", predicted, "[[]]").score == 1.0);
}

BOOST_AUTO_TEST_CASE(missing_conversation_fails_and_missing_or_malformed_references_are_errors) {
  const ToolCallSequenceMatchEvaluator evaluator(config(R"({"reference_key": "calls"})"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, conversation_case("[]")), krino::Error,
                        invalid("expectedOutputs has no 'calls'"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, conversation_case("[]", R"({"calls": null})")), krino::Error,
                        invalid("expectedOutputs has no 'calls'"));
  const krino::EvalResult no_conversation = evaluate(evaluator, test_case("{}", R"({"calls": []})"));
  BOOST_TEST(*no_conversation.score == 0.0);
  BOOST_TEST(!no_conversation.success);
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, conversation_case("[]", R"({"calls": {"name": "f"}})")), krino::Error,
                        invalid("expectedOutputs.calls must be a list of steps"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, conversation_case("[]", R"({"calls": ["f"]})")), krino::Error,
                        invalid("expectedOutputs.calls[0] must be a list of tool calls"));
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(ToolCallSequenceMatchEvaluator(config(R"({"metric_type": "f1"})")), krino::Error,
                        invalid("option 'metric_type' must be one of recall, precision"));
  BOOST_CHECK_EXCEPTION(ToolCallSequenceMatchEvaluator(config(R"({"strict_mode": "yes"})")), krino::Error,
                        invalid("option 'strict_mode' must be true or false"));
}

BOOST_AUTO_TEST_SUITE_END()
