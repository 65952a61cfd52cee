#include "tool_description_reliability_evaluator.h"

#include "agent_test_support.hpp"

#include <krino/plugin.h>

#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;
namespace tt = boost::test_tools;

namespace {

boost::json::object tool_description_reliability_tools_case(std::string_view tools) {
  boost::json::object document = test_case("{}");
  document["metadata"].as_object()["tools"] = json(tools);
  return document;
}

EvalResult tool_description_reliability_run(std::string_view tools, const std::string& options = "{}") {
  return evaluate(ToolDescriptionReliabilityEvaluator(config(options)), tool_description_reliability_tools_case(tools));
}

// The checks of one tool with the given parameters schema.
boost::json::value tool_description_reliability_checks_of(std::string_view parameters, const std::string& options = "{}") {
  const EvalResult r = tool_description_reliability_run(R"([{"name":"t","description":"d","parameters":)" + std::string(parameters) + "}]", options);
  return r.metadata.at("perToolResults").at(0).at("checks");
}

bool check(std::string_view parameters, const char* name, const std::string& options = "{}") {
  return tool_description_reliability_checks_of(parameters, options).at(name).as_bool();
}

ToolDefinition definition(std::string_view text) { return read_tool_definition(json(text), "tool"); }

// A definition that passes every rule check.
const char* const kGoodTool = R"({"name":"search_flights","description":"Find flights.",
  "parameters":{"type":"object","properties":{"origin":{"type":"string","description":"IATA code"},
                                              "date":{"type":"string","description":"YYYY-MM-DD"}},
                "required":["origin"]}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_description_reliability)

BOOST_AUTO_TEST_CASE(a_good_definition_passes_the_four_rule_checks) {
  const EvalResult r = tool_description_reliability_run(std::string("[") + kGoodTool + "]");
  BOOST_TEST(r.name == "tool_description_reliability");
  BOOST_TEST(*r.threshold == 0.8);
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.metadata.at("perToolResults") == json(R"([{"toolName":"search_flights","score":1.0,"checks":{
      "input_arguments_clarity":true,"input_arguments_types":true,
      "max_num_input_arguments":true,"max_optional_input_arguments":true,
      "general_structure":"skipped","has_examples":"skipped","has_usage_notes":"skipped",
      "intent_over_implementation":"skipped","clarity":"skipped","redundancy":"skipped",
      "input_arguments_enum":"skipped","input_arguments_format":"skipped","return_statement_quality":"skipped"}}])"));
}

BOOST_AUTO_TEST_CASE(every_parameter_needs_a_description_that_is_not_blank) {
  BOOST_TEST(!check(R"({"properties":{"a":{"type":"string"}}})", "input_arguments_clarity"));
  BOOST_TEST(!check(R"({"properties":{"a":{"type":"string","description":"  "}}})", "input_arguments_clarity"));
  BOOST_TEST(!check(R"({"properties":{"a":{"type":"string","description":7}}})", "input_arguments_clarity"));
  BOOST_TEST(check(R"({"properties":{"a":{"type":"string","description":"x"}}})", "input_arguments_clarity"));
  const EvalResult r = tool_description_reliability_run(R"([{"name":"t","parameters":{"properties":{"a":{"type":"string"},"b":{"type":"string"},
                                                                       "c":{"type":"string","description":"ok"}}}}])");
  BOOST_TEST(r.metadata.at("perToolResults").at(0).at("details") ==
             json(R"({"input_arguments_clarity":"no description: a, b"})"));
}

BOOST_AUTO_TEST_CASE(every_parameter_needs_a_type) {
  BOOST_TEST(!check(R"({"properties":{"a":{"description":"x"}}})", "input_arguments_types"));
  BOOST_TEST(!check(R"({"properties":{"a":{"description":"x","enum":["p","q"]}}})", "input_arguments_types"));
  BOOST_TEST(!check(R"({"properties":{"a":true}})", "input_arguments_types"));
  BOOST_TEST(!check(R"({"properties":{"a":{"type":""}}})", "input_arguments_types"));
  BOOST_TEST(check(R"({"properties":{"a":{"type":"integer"}}})", "input_arguments_types"));
  BOOST_TEST(check(R"({"properties":{"a":{"type":["string","null"]}}})", "input_arguments_types"));
  // Unions count when every branch is typed.
  BOOST_TEST(check(R"({"properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}}})", "input_arguments_types"));
  BOOST_TEST(check(R"({"properties":{"a":{"oneOf":[{"type":"string"},{"type":"integer"}]}}})", "input_arguments_types"));
  BOOST_TEST(!check(R"({"properties":{"a":{"anyOf":[{"type":"string"},{"enum":[1]}]}}})", "input_arguments_types"));
  BOOST_TEST(!check(R"({"properties":{"a":{"anyOf":[]}}})", "input_arguments_types"));
}

BOOST_AUTO_TEST_CASE(no_parameters_passes_clarity_and_types) {
  for (const char* tool : {R"({"name":"t"})", R"({"name":"t","parameters":{"type":"object"}})",
                           R"({"name":"t","parameters":{"type":"object","properties":{}}})"}) {
    BOOST_TEST_INFO(tool);
    const EvalResult r = tool_description_reliability_run(std::string("[") + tool + "]");
    BOOST_TEST(*r.score == 1.0);
  }
}

BOOST_AUTO_TEST_CASE(at_most_max_input_args_parameters) {
  const std::string five = R"({"properties":{"a":{},"b":{},"c":{},"d":{},"e":{}},"required":["a","b","c","d","e"]})";
  const std::string six = R"({"properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{}},"required":["a","b","c","d","e","f"]})";
  BOOST_TEST(check(five, "max_num_input_arguments"));
  BOOST_TEST(!check(six, "max_num_input_arguments"));
  BOOST_TEST(check(six, "max_num_input_arguments", R"({"max_input_args":6})"));
  BOOST_TEST(!check(R"({"properties":{"a":{}},"required":["a"]})", "max_num_input_arguments", R"({"max_input_args":0})"));
  const EvalResult r = tool_description_reliability_run(R"([{"name":"t","parameters":)" + six + "}]");
  BOOST_TEST(r.metadata.at("perToolResults").at(0).at("details").at("max_num_input_arguments").as_string() ==
             "6 parameters, more than 5");
}

BOOST_AUTO_TEST_CASE(optional_parameters_are_those_not_required) {
  // Four optional: a, b, c, d. "z" in required is not a parameter and does not count.
  const std::string four = R"({"properties":{"a":{},"b":{},"c":{},"d":{},"e":{}},"required":["e","z"]})";
  BOOST_TEST(!check(four, "max_optional_input_arguments"));
  BOOST_TEST(check(four, "max_optional_input_arguments", R"({"max_optional_args":4})"));
  BOOST_TEST(check(R"({"properties":{"a":{},"b":{},"c":{}}})", "max_optional_input_arguments"));
  BOOST_TEST(check(R"({"properties":{"a":{},"b":{},"c":{},"d":{}},"required":["d","d"]})",
                   "max_optional_input_arguments"));
  const EvalResult r = tool_description_reliability_run(R"([{"name":"t","parameters":)" + four + "}]");
  BOOST_TEST(r.metadata.at("perToolResults").at(0).at("details").at("max_optional_input_arguments").as_string() ==
             "4 optional parameters, more than 3");
}

BOOST_AUTO_TEST_CASE(score_is_the_mean_of_per_tool_scores) {
  // Tool 1: 4/4. Tool 2 (Anthropic form): no descriptions, no types, 6 params, 6 optional: 0/4.
  const EvalResult r = tool_description_reliability_run(std::string("[") + kGoodTool + R"(,
      {"name":"bulk","input_schema":{"properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{}}}}])");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason ==
             "1 of 2 tools passed every check that ran; bulk passed 0 of 4 (failed: input_arguments_clarity, "
             "input_arguments_types, max_num_input_arguments, max_optional_input_arguments); skipped (need a judge): "
             "general_structure, has_examples, has_usage_notes, intent_over_implementation, clarity, redundancy, "
             "input_arguments_enum, input_arguments_format, return_statement_quality");
  // One failed rule of four: 0.75 fails the default 0.8 threshold.
  const EvalResult three_of_four = tool_description_reliability_run(R"([{"name":"t","parameters":{"properties":{"a":{"type":"string"}}}}])");
  BOOST_TEST(*three_of_four.score == 0.75);
  BOOST_TEST(!three_of_four.success);
}

BOOST_AUTO_TEST_CASE(no_tools_scores_one_and_a_missing_list_is_an_error) {
  BOOST_TEST(*tool_description_reliability_run("[]").score == 1.0);
  const ToolDescriptionReliabilityEvaluator evaluator(config("{}"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case("{}")), krino::Error, invalid("metadata has no 'tools'"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, tool_description_reliability_tools_case("null")), krino::Error, invalid("metadata['tools'] is null"));
}

BOOST_AUTO_TEST_CASE(options_are_checked_when_the_evaluator_is_created) {
  BOOST_CHECK_EXCEPTION(ToolDescriptionReliabilityEvaluator(config(R"({"maxInputArgs":3})")), krino::Error,
                        invalid("unknown option 'maxInputArgs'"));
  BOOST_CHECK_EXCEPTION(ToolDescriptionReliabilityEvaluator(config(R"({"max_input_args":-1})")), krino::Error,
                        invalid("'max_input_args' must not be negative"));
  BOOST_CHECK_EXCEPTION(ToolDescriptionReliabilityEvaluator(config(R"({"max_optional_args":"3"})")), krino::Error,
                        invalid("'max_optional_args' must be an integer"));
}

// The judge seam: verdicts fed straight to check_tool_description.
BOOST_AUTO_TEST_CASE(with_verdicts_all_thirteen_checks_run) {
  const ToolDefinition good = definition(kGoodTool);
  DescriptionJudgeVerdicts verdicts{true, true, true, true, true, true, true, true, true};
  const ToolChecks all_pass = check_tool_description(good, DescriptionRules{}, verdicts);
  BOOST_TEST(all_pass.checks.size() == 13u);
  BOOST_TEST(all_pass.ran() == 13u);
  BOOST_TEST(all_pass.score() == 1.0);

  verdicts.has_examples = false;
  verdicts.return_statement_quality = false;
  const ToolChecks two_fail = check_tool_description(good, DescriptionRules{}, verdicts);
  BOOST_TEST(two_fail.passed() == 11u);
  BOOST_TEST(two_fail.score() == 11.0 / 13.0, tt::tolerance(1e-12));
  const EvalResult r = reliability_result(krino::CommonOptions{"d", 0.8}, {two_fail});
  BOOST_TEST(r.metadata.at("perToolResults").at(0).at("checks").at("has_examples") == json("false"));
  BOOST_TEST(r.metadata.at("perToolResults").at(0).at("checks").at("general_structure") == json("true"));
  BOOST_TEST(r.reason.find("skipped") == std::string::npos);

  const ToolChecks rules_only = check_tool_description(good, DescriptionRules{}, std::nullopt);
  BOOST_TEST(rules_only.checks.size() == 13u);
  BOOST_TEST(rules_only.ran() == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
