// The LLM checks of tool_name_reliability and tool_description_reliability (llm_checks: true)
// against a scripted judge: one call per tool, the prompt, 0|1 and boolean verdicts, a missing key
// failing its check, and what is an error.
#include "tool_description_reliability_evaluator.h"
#include "tool_name_reliability_evaluator.h"

#include "evaluator_abi_call.hpp"
#include "scripted_judge_host.hpp"

#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>

namespace {

using krino::agent::ToolDescriptionReliabilityEvaluator;
using krino::agent::ToolNameReliabilityEvaluator;
using krino::test::ScriptedJudge;
namespace tt = boost::test_tools;

template <class T>
krino::test::AbiOutcome reliability_llm_checks_run(const ScriptedJudge& judge, const std::string& config, const std::string& test_case) {
  return krino::test::evaluate_with_vtable(krino::detail::EvaluatorTrampolines<T>::vtable(), judge.host(), config,
                                           test_case);
}

boost::json::object result_of(const krino::test::AbiOutcome& outcome) {
  BOOST_TEST_INFO("error: " << outcome.error);
  BOOST_TEST_REQUIRE(outcome.status == KRINO_OK);
  return boost::json::parse(outcome.result).as_object();
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

std::string reliability_llm_checks_tools_case(const std::string& tools) {
  return R"({"inputs":{},"actualOutputs":{},"expectedOutputs":{},"metadata":{"tools":)" + tools + "}}";
}

const std::string kTwoTools = reliability_llm_checks_tools_case(
    R"([{"name":"search_flights","description":"Find flights between two airports."},)"
    R"({"name":"fetch_orders_via_api","description":"Orders."}])");

BOOST_AUTO_TEST_SUITE(reliability_llm_checks)

BOOST_AUTO_TEST_CASE(name_checks_ask_once_per_tool_and_count_five_checks) {
  ScriptedJudge judge;
  judge.reply(R"({"clarity": 1, "name_order": 0, "intent_over_implementation": true})")
      .reply(R"(Here you go: ```json
{"clarity": "yes", "name_order": 1, "intent_over_implementation": 1}
```)");
  const auto result = result_of(reliability_llm_checks_run<ToolNameReliabilityEvaluator>(judge, R"({"llm_checks":true,"judge":"strict"})", kTwoTools));
  BOOST_TEST_REQUIRE(judge.calls() == 2u);
  BOOST_TEST(judge.request(0).at("judge").as_string() == "strict");
  BOOST_TEST(judge.request(0).at("response_format").as_string() == "json");
  BOOST_TEST(contains(judge.prompt(0), "Tool name: search_flights"));
  BOOST_TEST(contains(judge.prompt(1), "Tool name: fetch_orders_via_api"));

  const auto& tools = result.at("metadata").at("perToolResults").as_array();
  // search_flights: 4 of 5 (name_order failed).
  BOOST_TEST(tools[0].at("score").to_number<double>() == 0.8, tt::tolerance(1e-12));
  BOOST_TEST(tools[0].at("checks").at("name_order") == boost::json::value(false));
  BOOST_TEST(tools[0].at("checks").at("clarity") == boost::json::value(true));
  // fetch_orders_via_api: the blocklist fails intent_over_implementation whatever the judge says: 4 of 5.
  BOOST_TEST(tools[1].at("checks").at("intent_over_implementation") == boost::json::value(false));
  BOOST_TEST(tools[1].at("score").to_number<double>() == 0.8, tt::tolerance(1e-12));
  BOOST_TEST(result.at("score").to_number<double>() == 0.8, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_key_missing_from_the_reply_fails_its_check) {
  ScriptedJudge judge;
  judge.reply(R"({"clarity": 1})");
  const auto result = result_of(reliability_llm_checks_run<ToolNameReliabilityEvaluator>(
      judge, R"({"llm_checks":true})", reliability_llm_checks_tools_case(R"([{"name":"search_flights"}])")));
  const auto& checks = result.at("metadata").at("perToolResults").at(0).at("checks");
  BOOST_TEST(checks.at("clarity") == boost::json::value(true));
  BOOST_TEST(checks.at("name_order") == boost::json::value(false));
  BOOST_TEST(checks.at("intent_over_implementation") == boost::json::value(false));
  BOOST_TEST(result.at("score").to_number<double>() == 0.6, tt::tolerance(1e-12));  // 3 of 5
}

BOOST_AUTO_TEST_CASE(without_llm_checks_no_judge_is_asked) {
  ScriptedJudge judge;
  const auto result = result_of(reliability_llm_checks_run<ToolNameReliabilityEvaluator>(judge, "{}", kTwoTools));
  BOOST_TEST(judge.calls() == 0u);
  BOOST_TEST(result.at("metadata").at("perToolResults").at(0).at("checks").at("clarity").as_string() == "skipped");
  BOOST_TEST(judge.calls() == 0u);
  const auto described = result_of(reliability_llm_checks_run<ToolDescriptionReliabilityEvaluator>(judge, "{}", kTwoTools));
  BOOST_TEST(described.at("metadata").at("perToolResults").at(0).at("checks").at("has_examples").as_string() == "skipped");
  BOOST_TEST(judge.calls() == 0u);
}

BOOST_AUTO_TEST_CASE(description_checks_send_the_definition_and_count_thirteen_checks) {
  ScriptedJudge judge;
  // Seven of nine pass; has_examples is 0 and return_statement_quality is missing.
  judge.reply(R"({"general_structure": 1, "has_examples": 0, "has_usage_notes": true, "intent_over_implementation": 1,
                  "clarity": 1, "redundancy": 1, "input_arguments_enum": 1, "input_arguments_format": "true"})");
  const auto result = result_of(reliability_llm_checks_run<ToolDescriptionReliabilityEvaluator>(
      judge, R"({"llm_checks":true})",
      reliability_llm_checks_tools_case(R"([{"name":"get_weather","description":"Current weather for a city.",)"
                 R"("parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}}])")));
  BOOST_TEST_REQUIRE(judge.calls() == 1u);
  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "Tool name: get_weather"));
  BOOST_TEST(contains(prompt, "Current weather for a city."));
  BOOST_TEST(contains(prompt, R"("city":{"type":"string","description":"City name"})"));
  const auto& tool = result.at("metadata").at("perToolResults").at(0);
  BOOST_TEST(tool.at("checks").at("has_examples") == boost::json::value(false));
  BOOST_TEST(tool.at("checks").at("return_statement_quality") == boost::json::value(false));
  BOOST_TEST(tool.at("checks").at("input_arguments_format") == boost::json::value(true));
  BOOST_TEST(result.at("score").to_number<double>() == 11.0 / 13.0, tt::tolerance(1e-12));  // 4 rules + 7 of 9
}

BOOST_AUTO_TEST_CASE(a_prompt_option_replaces_the_built_in_prompt) {
  ScriptedJudge judge;
  judge.reply(R"({"clarity": 1, "name_order": 1, "intent_over_implementation": 1})");
  result_of(reliability_llm_checks_run<ToolNameReliabilityEvaluator>(
      judge, R"({"llm_checks":true,"prompt":"Rate {{tool_name}} ({{tool_description}}) as JSON."})",
      reliability_llm_checks_tools_case(R"([{"name":"search_flights","description":"Find flights"}])")));
  BOOST_TEST(judge.prompt() == "Rate search_flights (Find flights) as JSON.");
}

BOOST_AUTO_TEST_CASE(errors) {
  ScriptedJudge judge;
  judge.reply("I cannot rate this.");
  const auto unreadable = reliability_llm_checks_run<ToolNameReliabilityEvaluator>(judge, R"({"llm_checks":true})", kTwoTools);
  BOOST_TEST(unreadable.status == KRINO_INTERNAL);
  BOOST_TEST(contains(unreadable.error, "search_flights"));

  ScriptedJudge down;
  down.fail(KRINO_UNAVAILABLE, "no LLM judge is configured in this host");
  const auto unavailable = reliability_llm_checks_run<ToolDescriptionReliabilityEvaluator>(down, R"({"llm_checks":true})", kTwoTools);
  BOOST_TEST(unavailable.status == KRINO_UNAVAILABLE);
  BOOST_TEST(contains(unavailable.error, "no LLM judge is configured"));

  ScriptedJudge unused;
  for (const char* config : {R"({"judge":"strict"})", R"({"prompt":"{{tool_name}}"})",
                             R"({"llm_checks":true,"prompt":"{{tool_nam}}"})"}) {
    BOOST_TEST_CONTEXT(config) {
      BOOST_TEST(reliability_llm_checks_run<ToolNameReliabilityEvaluator>(unused, config, kTwoTools).status == KRINO_INVALID_ARGUMENT);
    }
  }
  BOOST_TEST(reliability_llm_checks_run<ToolDescriptionReliabilityEvaluator>(unused, R"({"llm_checks":true,"prompt":"{{tool_name}} {{params}}"})",
                                                      kTwoTools)
                 .status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(unused.calls() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
