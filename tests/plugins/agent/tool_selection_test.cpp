#include "tool_selection_evaluator.h"

#include "agent_test_support.hpp"

#include <krino/plugin.h>

#include <string>
#include <vector>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;
namespace tt = boost::test_tools;

namespace {

EvalResult tool_selection_run(std::string_view actual, std::string_view expected, const std::string& options = "{}") {
  return evaluate(ToolSelectionEvaluator(config(options)), test_case(actual, expected));
}

// A case where the agent's first call was `tool` (or no call when empty).
EvalResult called(const std::string& tool, std::string_view expected, const std::string& options = "{}") {
  const std::string actual = tool.empty() ? R"({"toolCalls":[]})" : R"({"toolCalls":[{"name":")" + tool + R"("}]})";
  return tool_selection_run(actual, expected, options);
}

std::string rule(const EvalResult& r) { return std::string(r.metadata.at("rule").as_string()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_selection)

BOOST_AUTO_TEST_CASE(rule_1_the_expected_tool) {
  const EvalResult r = called("read_file", R"({"expectedTool":"read_file","secondaryTools":["list_files"]})");
  BOOST_TEST(r.name == "tool_selection");
  BOOST_TEST(*r.threshold == 0.5);
  BOOST_TEST(rule(r) == "expected_tool");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "called the expected tool 'read_file'");
  BOOST_TEST(r.metadata.at("expectedTool").as_string() == "read_file");
  BOOST_TEST(r.metadata.at("actualTool").as_string() == "read_file");
  BOOST_TEST(r.metadata.at("secondaryTools") == json(R"(["list_files"])"));
  BOOST_TEST(r.metadata.at("actualSource").as_string() == "toolCalls");
}

// A worked example of docs/plugins/agent-spec-coverage.md: a secondary tool passes with 0.5.
BOOST_AUTO_TEST_CASE(rule_2_a_secondary_tool_earns_partial_credit_and_passes) {
  const EvalResult r = called("list_files", R"({"expectedTool":"read_file","secondaryTools":["grep","list_files"]})");
  BOOST_TEST(rule(r) == "secondary_tool");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "called 'list_files', an accepted secondary tool (the expected one is 'read_file')");
  // The partial credit is configurable; with a lower one the default threshold fails it.
  const EvalResult low = called("list_files", R"({"expectedTool":"read_file","secondaryTools":["list_files"]})",
                                R"({"secondary_score":0.25})");
  BOOST_TEST(*low.score == 0.25);
  BOOST_TEST(!low.success);
}

BOOST_AUTO_TEST_CASE(rule_3_no_call_on_a_negative_case) {
  const EvalResult r = called("", R"({"expectedTool":"none"})");
  BOOST_TEST(rule(r) == "no_call_as_expected");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "called no tool, as expected");
  BOOST_TEST(r.metadata.at("actualTool").is_null());
  BOOST_TEST(r.metadata.at("secondaryTools").as_array().empty());
}

BOOST_AUTO_TEST_CASE(rule_4_a_call_on_a_negative_case) {
  const EvalResult r = called("search", R"({"expectedTool":"none","secondaryTools":["other"]})");
  BOOST_TEST(rule(r) == "unexpected_call");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason == "called 'search' where no tool call was expected");
}

BOOST_AUTO_TEST_CASE(rule_5_no_call_when_one_was_expected) {
  const EvalResult r = called("", R"({"expectedTool":"read_file","secondaryTools":["list_files"]})");
  BOOST_TEST(rule(r) == "missing_call");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason == "called no tool; expected 'read_file'");
}

BOOST_AUTO_TEST_CASE(rule_6_the_wrong_tool) {
  const EvalResult r = called("delete_file", R"({"expectedTool":"read_file","secondaryTools":["list_files"]})");
  BOOST_TEST(rule(r) == "wrong_tool");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason == "called 'delete_file' instead of the expected 'read_file'");
}

BOOST_AUTO_TEST_CASE(a_tool_named_none_on_a_negative_case_is_rule_1) {
  const EvalResult r = called("none", R"({"expectedTool":"none"})");
  BOOST_TEST(rule(r) == "expected_tool");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.metadata.at("actualTool").as_string() == "none");
  // A different marker makes "none" an ordinary tool name, and the marker the negative case.
  BOOST_TEST(rule(called("none", R"({"expectedTool":"NO_TOOL"})", R"({"none_marker":"NO_TOOL"})")) == "unexpected_call");
  BOOST_TEST(rule(called("", R"({"expectedTool":"NO_TOOL"})", R"({"none_marker":"NO_TOOL"})")) == "no_call_as_expected");
  BOOST_TEST(rule(called("", R"({"expectedTool":"none"})", R"({"none_marker":"NO_TOOL"})")) == "missing_call");
}

BOOST_AUTO_TEST_CASE(a_secondary_list_on_a_negative_case_fires_rule_2_before_rule_4) {
  const EvalResult r = called("search", R"({"expectedTool":"none","secondaryTools":["search"]})");
  BOOST_TEST(rule(r) == "secondary_tool");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.success);
}

BOOST_AUTO_TEST_CASE(missing_or_null_secondary_tools_are_empty) {
  BOOST_TEST(rule(called("list_files", R"({"expectedTool":"read_file"})")) == "wrong_tool");
  const EvalResult r = called("list_files", R"({"expectedTool":"read_file","secondaryTools":null})");
  BOOST_TEST(rule(r) == "wrong_tool");
  BOOST_TEST(r.metadata.at("secondaryTools").as_array().empty());
}

BOOST_AUTO_TEST_CASE(only_the_first_call_counts) {
  BOOST_TEST(rule(tool_selection_run(R"({"toolCalls":[{"name":"read_file"},{"name":"delete_file"}]})",
                      R"({"expectedTool":"read_file"})")) == "expected_tool");
  BOOST_TEST(rule(tool_selection_run(R"({"toolCalls":[{"name":"delete_file"},{"name":"read_file"}]})",
                      R"({"expectedTool":"read_file"})")) == "wrong_tool");
  // Provider-shaped calls are read too.
  BOOST_TEST(rule(tool_selection_run(R"({"toolCalls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{}"}}]})",
                      R"({"expectedTool":"read_file"})")) == "expected_tool");
}

BOOST_AUTO_TEST_CASE(a_missing_or_null_call_list_is_no_call) {
  BOOST_TEST(rule(tool_selection_run("{}", R"({"expectedTool":"none"})")) == "no_call_as_expected");
  BOOST_TEST(rule(tool_selection_run(R"({"toolCalls":null})", R"({"expectedTool":"none"})")) == "no_call_as_expected");
  BOOST_TEST(rule(tool_selection_run("{}", R"({"expectedTool":"read_file"})")) == "missing_call");
}

BOOST_AUTO_TEST_CASE(actual_tool_takes_precedence_over_the_calls) {
  const EvalResult r = tool_selection_run(R"({"actualTool":"read_file","toolCalls":[{"name":"delete_file"}]})",
                           R"({"expectedTool":"read_file"})");
  BOOST_TEST(rule(r) == "expected_tool");
  BOOST_TEST(r.metadata.at("actualSource").as_string() == "actualTool");
  // A null actualTool says "no call", even when calls are listed.
  BOOST_TEST(rule(tool_selection_run(R"({"actualTool":null,"toolCalls":[{"name":"search"}]})", R"({"expectedTool":"none"})")) ==
             "no_call_as_expected");
  BOOST_TEST(rule(tool_selection_run(R"({"picked":"search"})", R"({"expectedTool":"search"})", R"({"actual_tool_key":"picked"})")) ==
             "expected_tool");
}

BOOST_AUTO_TEST_CASE(keys_can_be_renamed) {
  const EvalResult r = tool_selection_run(R"({"calls":[{"name":"b"}]})", R"({"tool":"a","alternatives":["b"]})",
                           R"({"expected_tool_key":"tool","secondary_tools_key":"alternatives","tool_calls_key":"calls"})");
  BOOST_TEST(rule(r) == "secondary_tool");
}

BOOST_AUTO_TEST_CASE(malformed_inputs_are_errors_naming_the_key) {
  const ToolSelectionEvaluator evaluator(config("{}"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case("{}", "{}")), krino::Error,
                        invalid("expectedOutputs has no 'expectedTool'"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case("{}", R"({"expectedTool":null})")), krino::Error,
                        invalid("expectedOutputs has no 'expectedTool'"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case("{}", R"({"expectedTool":""})")), krino::Error,
                        invalid("expectedOutputs.expectedTool must be a non-empty tool name"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case("{}", R"({"expectedTool":"a","secondaryTools":"b"})")),
                        krino::Error, invalid("expectedOutputs.secondaryTools must be a list of tool names"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case("{}", R"({"expectedTool":"a","secondaryTools":[1]})")),
                        krino::Error, invalid("expectedOutputs.secondaryTools must be a list of tool names"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case(R"({"actualTool":3})", R"({"expectedTool":"a"})")), krino::Error,
                        invalid("actualOutputs.actualTool must be a non-empty tool name or null"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case(R"({"toolCalls":[{"arguments":{}}]})", R"({"expectedTool":"a"})")),
                        krino::Error, invalid("'actualOutputs.toolCalls'[0]"));
}

BOOST_AUTO_TEST_CASE(options_are_checked_when_the_evaluator_is_created) {
  BOOST_CHECK_EXCEPTION(ToolSelectionEvaluator(config(R"({"secondary_score":1.5})")), krino::Error,
                        invalid("'secondary_score' must be between 0 and 1"));
  BOOST_CHECK_EXCEPTION(ToolSelectionEvaluator(config(R"({"none_marker":""})")), krino::Error,
                        invalid("'none_marker' must not be empty"));
  BOOST_CHECK_EXCEPTION(ToolSelectionEvaluator(config(R"({"secondaryTools":[]})")), krino::Error,
                        invalid("unknown option 'secondaryTools'"));
}

// The worked example of docs/tasks/model.md and its secondary variant: six cases, two of them negative.
BOOST_AUTO_TEST_CASE(worked_example_six_cases) {
  struct Case {
    const char* actual_tool;  // "" for no call
    const char* expected;
  };
  const std::vector<Case> all_correct{
      {"read_file", R"({"expectedTool":"read_file","secondaryTools":["list_files"]})"},
      {"list_files", R"({"expectedTool":"list_files"})"},
      {"search_code", R"({"expectedTool":"search_code","secondaryTools":["read_file"]})"},
      {"write_file", R"({"expectedTool":"write_file"})"},
      {"", R"({"expectedTool":"none"})"},
      {"", R"({"expectedTool":"none","secondaryTools":[]})"}};
  auto summarise = [](const std::vector<Case>& cases, std::size_t& passed) {
    double sum = 0.0;
    passed = 0;
    for (const Case& c : cases) {
      const EvalResult r = called(c.actual_tool, c.expected);
      sum += *r.score;
      if (r.success) ++passed;
    }
    return sum / static_cast<double>(cases.size());
  };
  std::size_t passed = 0;
  BOOST_TEST(summarise(all_correct, passed) == 1.0);
  BOOST_TEST(passed == 6u);

  std::vector<Case> one_secondary = all_correct;
  one_secondary[0].actual_tool = "list_files";
  BOOST_TEST(summarise(one_secondary, passed) == 11.0 / 12.0, tt::tolerance(1e-12));
  BOOST_TEST(passed == 6u);
}

// The rules through the seam, without a test case.
BOOST_AUTO_TEST_CASE(select_rule_applies_the_rules_in_order) {
  const std::vector<std::string> secondary{"b"};
  BOOST_TEST(select_rule("a", secondary, std::string("a"), "none", 0.5).rule == "expected_tool");
  BOOST_TEST(select_rule("a", secondary, std::string("b"), "none", 0.3).score == 0.3);
  BOOST_TEST(select_rule("none", secondary, std::nullopt, "none", 0.5).rule == "no_call_as_expected");
  BOOST_TEST(select_rule("none", secondary, std::string("c"), "none", 0.5).rule == "unexpected_call");
  BOOST_TEST(select_rule("a", secondary, std::nullopt, "none", 0.5).rule == "missing_call");
  BOOST_TEST(select_rule("a", secondary, std::string("c"), "none", 0.5).rule == "wrong_tool");
}

BOOST_AUTO_TEST_SUITE_END()
