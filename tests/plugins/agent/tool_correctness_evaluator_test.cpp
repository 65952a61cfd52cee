#include "tool_correctness_evaluator.h"

#include "agent_test_support.hpp"

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;
namespace tt = boost::test_tools;

namespace {

double tool_correctness_evaluator_score(std::string_view options, std::string_view actual, std::string_view expected) {
  return *evaluate(ToolCorrectnessEvaluator(config(options)), calls_case(actual, expected)).score;
}

double names_only(std::string_view actual, std::string_view expected) { return tool_correctness_evaluator_score("{}", actual, expected); }

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_correctness)

// A worked example of docs/plugins/agent-spec-coverage.md: [a,b,b] against [a,c] is F1 0.5.
BOOST_AUTO_TEST_CASE(names_only_is_f1_over_distinct_name_sets) {
  const EvalResult r = evaluate(ToolCorrectnessEvaluator(config("{}")),
                                calls_case(R"([{"name":"a"},{"name":"b"},{"name":"b"}])", R"([{"name":"a"},{"name":"c"}])"));
  BOOST_TEST(*r.score == 0.5, tt::tolerance(1e-12));
  BOOST_TEST(!r.success);
  BOOST_TEST(r.name == "tool_correctness");
  BOOST_TEST(r.reason == "correct: [a], redundant: [b], missing: [c]");
  BOOST_TEST(r.metadata.at("correctTools") == json(R"(["a"])"));
  BOOST_TEST(r.metadata.at("redundantTools") == json(R"(["b"])"));
  BOOST_TEST(r.metadata.at("missingTools") == json(R"(["c"])"));
  BOOST_TEST(r.metadata.at("matchMode").as_string() == "names_only");
}

// names_only is set-based: both lists empty score 1.0, one empty 0.0.
BOOST_AUTO_TEST_CASE(names_only_edge_cases) {
  BOOST_TEST(names_only("[]", "[]") == 1.0);
  BOOST_TEST(names_only("[]", R"([{"name":"a"}])") == 0.0);
  BOOST_TEST(names_only(R"([{"name":"a"}])", "[]") == 0.0);
  BOOST_TEST(names_only(R"([{"name":"a"}])", R"([{"name":"b"}])") == 0.0);
  BOOST_TEST(names_only(R"([{"name":"a"},{"name":"a"}])", R"([{"name":"a"}])") == 1.0);
  // P = 2/3, R = 1: F1 = 0.8.
  BOOST_TEST(names_only(R"([{"name":"a"},{"name":"b"},{"name":"c"}])", R"([{"name":"a"},{"name":"b"}])") == 0.8,
             tt::tolerance(1e-12));
  // Arguments do not matter by name.
  BOOST_TEST(names_only(R"([{"name":"a","arguments":{"x":1}}])", R"([{"name":"a"}])") == 1.0);
}

BOOST_AUTO_TEST_CASE(names_and_order_is_lcs_over_the_longer_sequence) {
  const char* options = R"({"match_mode":"names_and_order"})";
  const EvalResult r = evaluate(ToolCorrectnessEvaluator(config(options)),
                                calls_case(R"([{"name":"a"},{"name":"x"},{"name":"b"}])", R"([{"name":"a"},{"name":"b"}])"));
  BOOST_TEST(*r.score == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(r.metadata.at("lcsLength").as_uint64() == 2u);
  BOOST_TEST(r.metadata.at("unmatchedActual") == json(R"([{"index":1,"tool":"x"}])"));
  BOOST_TEST(tool_correctness_evaluator_score(options, R"([{"name":"b"},{"name":"a"}])", R"([{"name":"a"},{"name":"b"}])") == 0.5);
  BOOST_TEST(tool_correctness_evaluator_score(options, R"([{"name":"a"},{"name":"b"}])", R"([{"name":"a"},{"name":"b"}])") == 1.0);
  BOOST_TEST(tool_correctness_evaluator_score(options, "[]", "[]") == 1.0);
  BOOST_TEST(tool_correctness_evaluator_score(options, "[]", R"([{"name":"a"}])") == 0.0);
}

BOOST_AUTO_TEST_CASE(names_and_args_pairs_calls_with_the_tolerant_matcher) {
  const char* options = R"({"match_mode":"names_and_args"})";
  const EvalResult r = evaluate(ToolCorrectnessEvaluator(config(options)),
                                calls_case(R"([{"name":"f","arguments":{"n":1.0}},{"name":"g","arguments":{"x":1}}])",
                                           R"([{"name":"f","arguments":{"n":1}},{"name":"g","arguments":{"x":2}}])"));
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.metadata_object().at("matchedCount").to_number<std::uint64_t>() == 1u);
  BOOST_TEST(r.metadata.at("matchedPairs") == json(R"([{"actual":0,"expected":0,"tool":"f"}])"));
  BOOST_TEST(r.metadata.at("unmatchedExpected") == json(R"([{"index":1,"tool":"g"}])"));
  BOOST_TEST(r.metadata.at("argumentMatching").at("arg_match_mode").as_string() == "exact");
  // Duplicates count: two expected calls, one made.
  BOOST_TEST(tool_correctness_evaluator_score(options, R"([{"name":"f"}])", R"([{"name":"f"},{"name":"f"}])") == 0.5);
  // Extra actual calls lower the score: denominator is the longer list.
  BOOST_TEST(tool_correctness_evaluator_score(options, R"([{"name":"f"},{"name":"f"},{"name":"g"}])", R"([{"name":"f"}])") == 1.0 / 3.0,
             tt::tolerance(1e-12));
  BOOST_TEST(tool_correctness_evaluator_score(options, "[]", "[]") == 1.0);
}

// names_and_args uses maximum matching, where a greedy pairing would lose a pair.
BOOST_AUTO_TEST_CASE(names_and_args_uses_maximum_matching_not_greedy) {
  const char* options = R"({"match_mode":"names_and_args","per_tool":{"s":{"arg_match_mode":"subset"}}})";
  // Greedy would give actual 0 the wildcard expected 0 and leave actual 1 unpaired.
  BOOST_TEST(tool_correctness_evaluator_score(options, R"([{"name":"s","arguments":{"q":"a"}},{"name":"s","arguments":{"q":"b"}}])",
                   R"([{"name":"s","arguments":{}},{"name":"s","arguments":{"q":"a"}}])") == 1.0);
}

BOOST_AUTO_TEST_CASE(argument_options_apply_in_names_and_args) {
  BOOST_TEST(tool_correctness_evaluator_score(R"({"match_mode":"names_and_args"})", R"([{"name":"f","arguments":{"c":" Paris"}}])",
                   R"([{"name":"f","arguments":{"c":"paris"}}])") == 0.0);
  BOOST_TEST(tool_correctness_evaluator_score(R"({"match_mode":"names_and_args","trim_strings":true,"ignore_case":true})",
                   R"([{"name":"f","arguments":{"c":" Paris"}}])", R"([{"name":"f","arguments":{"c":"paris"}}])") == 1.0);
  BOOST_TEST(tool_correctness_evaluator_score(R"({"match_mode":"names_and_args","arg_match_mode":"superset"})",
                   R"([{"name":"f","arguments":"{\"a\":1}"}])", R"([{"name":"f","arguments":{"a":1,"b":2}}])") == 1.0);
}

BOOST_AUTO_TEST_CASE(custom_key_name_and_threshold) {
  const ToolCorrectnessEvaluator evaluator(config(R"({"tool_calls_key":"calls","name":"tools","threshold":0.5})"));
  const EvalResult r = evaluate(evaluator, test_case(R"({"calls":[{"name":"a"},{"name":"b"}]})",
                                                     R"({"calls":[{"name":"a"},{"name":"c"}]})"));
  BOOST_TEST(r.name == "tools");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.success);
}

BOOST_AUTO_TEST_CASE(missing_and_malformed_inputs) {
  const ToolCorrectnessEvaluator evaluator(config("{}"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case(R"({"toolCalls":[]})")), krino::Error,
                        invalid("expectedOutputs has no 'toolCalls'"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case(R"({"toolCalls":[]})", R"({"toolCalls":null})")), krino::Error,
                        invalid("expectedOutputs['toolCalls'] is null"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, calls_case(R"([{"name":"a"},{"name":""}])", "[]")), krino::Error,
                        invalid("'actualOutputs.toolCalls'[1]"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, calls_case("[]", R"([{"name":"a"},7])")), krino::Error,
                        invalid("'expectedOutputs.toolCalls'[1]"));
  // An empty actual list: the agent called nothing.
  BOOST_TEST(*evaluate(evaluator, calls_case("[]", R"([{"name":"a"}])")).score == 0.0);
  BOOST_TEST(*evaluate(evaluator, calls_case("[]", "[]")).score == 1.0);
}

BOOST_AUTO_TEST_CASE(bad_options_are_rejected) {
  BOOST_CHECK_EXCEPTION(ToolCorrectnessEvaluator(config(R"({"mode":"names_only"})")), krino::Error,
                        invalid("unknown option 'mode'"));
  BOOST_CHECK_EXCEPTION(ToolCorrectnessEvaluator(config(R"({"match_mode":"NAMES_ONLY"})")), krino::Error,
                        invalid("match_mode"));
  BOOST_CHECK_EXCEPTION(ToolCorrectnessEvaluator(config(R"({"arg_match_mode":"loose"})")), krino::Error,
                        invalid("arg_match_mode"));
  BOOST_CHECK_EXCEPTION(ToolCorrectnessEvaluator(config(R"({"per_tool":{"f":{"mode":"subset"}}})")), krino::Error,
                        invalid("per_tool['f']: unknown option 'mode'"));
  BOOST_CHECK_EXCEPTION(ToolCorrectnessEvaluator(config(R"({"per_tool":{"f":true}})")), krino::Error,
                        invalid("per_tool['f'] must be an object"));
}

BOOST_AUTO_TEST_SUITE_END()
