#include "tool_name_reliability_evaluator.h"

#include "agent_test_support.hpp"

#include <krino/plugin.h>

#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;
namespace tt = boost::test_tools;

namespace {

// A test case whose metadata holds `tools` (a JSON value) under `key`.
boost::json::object tool_name_reliability_tools_case(std::string_view tools, const std::string& key = "tools") {
  boost::json::object document = test_case("{}");
  document["metadata"].as_object()[key] = json(tools);
  return document;
}

EvalResult tool_name_reliability_run(std::string_view tools, const std::string& options = "{}") {
  return evaluate(ToolNameReliabilityEvaluator(config(options)), tool_name_reliability_tools_case(tools));
}

// The checks object of the only tool named `name`.
boost::json::value tool_name_reliability_checks_of(const std::string& name, const std::string& options = "{}") {
  const EvalResult r = tool_name_reliability_run(R"([{"name":")" + name + R"("}])", options);
  return r.metadata.at("perToolResults").at(0).at("checks");
}

// The schema's default blocklist (suffixes that say how a tool works rather than what it does).
NameRules default_rules() {
  return NameRules{7, krino::Config({}, ToolNameReliabilityEvaluator::kConfigSchema).get_strings("blocklist")};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_name_reliability)

BOOST_AUTO_TEST_CASE(a_good_name_passes_the_rule_checks_and_skips_the_judge_checks) {
  const EvalResult r = tool_name_reliability_run(R"([{"name":"search_flights","description":"Find flights"}])");
  BOOST_TEST(r.name == "tool_name_reliability");
  BOOST_TEST(*r.threshold == 0.8);
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.metadata.at("perToolResults") == json(R"([{"toolName":"search_flights","score":1.0,"checks":{
      "snakecase_format":true,"conciseness":true,"intent_over_implementation":true,
      "clarity":"skipped","name_order":"skipped"}}])"));
  BOOST_TEST(r.reason == "1 of 1 tools passed every check that ran; skipped (need a judge): clarity, name_order");
}

BOOST_AUTO_TEST_CASE(snake_case_follows_the_pattern) {
  for (const char* good : {"a", "get_user", "v2_search", "get_2fa_code", "a1_b2_c3"}) {
    BOOST_TEST_INFO(good);
    BOOST_TEST(tool_name_reliability_checks_of(good).at("snakecase_format") == json("true"));
  }
  for (const char* bad : {"GetUser", "getUser", "get-user", "_get", "get_", "get__user", "2fa_code", "get user",
                          "get.user", "gét_user"}) {
    BOOST_TEST_INFO(bad);
    BOOST_TEST(tool_name_reliability_checks_of(bad).at("snakecase_format") == json("false"));
  }
}

BOOST_AUTO_TEST_CASE(conciseness_counts_underscore_segments) {
  BOOST_TEST(tool_name_reliability_checks_of("a_b_c_d_e_f_g").at("conciseness") == json("true"));   // 7
  BOOST_TEST(tool_name_reliability_checks_of("a_b_c_d_e_f_g_h").at("conciseness") == json("false"));  // 8
  BOOST_TEST(tool_name_reliability_checks_of("a_b_c", R"({"max_segments":2})").at("conciseness") == json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("a_b", R"({"max_segments":2})").at("conciseness") == json("true"));
  const EvalResult r = tool_name_reliability_run(R"([{"name":"a_b_c_d_e_f_g_h"}])");
  BOOST_TEST(r.metadata.at("perToolResults").at(0).at("details") ==
             json(R"({"conciseness":"8 segments, more than 7"})"));
}

BOOST_AUTO_TEST_CASE(the_blocklist_is_a_case_insensitive_substring_match) {
  BOOST_TEST(tool_name_reliability_checks_of("summarize_with_llm").at("intent_over_implementation") == json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("fetch_orders_Via_API").at("intent_over_implementation") == json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("load_from_s3_bucket").at("intent_over_implementation") == json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("query_using_bq").at("intent_over_implementation") == json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("upload_using_sdk").at("intent_over_implementation") == json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("chat_with_gpt4").at("intent_over_implementation") == json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("fetch_orders").at("intent_over_implementation") == json("true"));
  // A substring, not a suffix: "with_llm" without the leading underscore is not on the list.
  BOOST_TEST(tool_name_reliability_checks_of("with_llm_summary").at("intent_over_implementation") == json("true"));
  const EvalResult r = tool_name_reliability_run(R"([{"name":"fetch_orders_via_api"}])");
  BOOST_TEST(r.metadata.at("perToolResults").at(0).at("details") ==
             json(R"({"intent_over_implementation":"contains '_via_api'"})"));
}

BOOST_AUTO_TEST_CASE(blocklist_replaces_and_extra_blocklist_extends) {
  // Replacing the list drops the defaults.
  BOOST_TEST(tool_name_reliability_checks_of("summarize_with_llm", R"({"blocklist":["_in_python"]})").at("intent_over_implementation") ==
             json("true"));
  BOOST_TEST(tool_name_reliability_checks_of("run_In_Python", R"({"blocklist":["_in_python"]})").at("intent_over_implementation") ==
             json("false"));
  // Extending keeps them.
  BOOST_TEST(tool_name_reliability_checks_of("summarize_with_llm", R"({"extra_blocklist":["_in_python"]})")
                 .at("intent_over_implementation") == json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("run_in_python", R"({"extra_blocklist":["_IN_PYTHON"]})").at("intent_over_implementation") ==
             json("false"));
  BOOST_TEST(tool_name_reliability_checks_of("run_in_python", R"({"blocklist":[],"extra_blocklist":["_in_python"]})")
                 .at("intent_over_implementation") == json("false"));
}

BOOST_AUTO_TEST_CASE(score_is_the_mean_of_per_tool_scores_over_the_checks_that_ran) {
  // search_flights 3/3, getUserData 2/3 (snake case), fetch_orders_via_api 2/3.
  const EvalResult r = tool_name_reliability_run(R"([{"name":"search_flights"},{"name":"getUserData"},
                               {"type":"function","function":{"name":"fetch_orders_via_api"}}])");
  BOOST_TEST(*r.score == (1.0 + 2.0 / 3.0 + 2.0 / 3.0) / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(!r.success);  // 0.78 < 0.8
  const auto& per_tool = r.metadata.at("perToolResults").as_array();
  BOOST_TEST(per_tool.size() == 3u);
  BOOST_TEST(per_tool[1].at("toolName").as_string() == "getUserData");
  BOOST_TEST(per_tool[1].at("score").as_double() == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(r.reason ==
             "1 of 3 tools passed every check that ran; getUserData passed 2 of 3 (failed: snakecase_format); "
             "fetch_orders_via_api passed 2 of 3 (failed: intent_over_implementation); "
             "skipped (need a judge): clarity, name_order");
  BOOST_TEST(tool_name_reliability_run(R"([{"name":"getUserData"}])", R"({"threshold":0.6})").success);
}

BOOST_AUTO_TEST_CASE(no_tools_scores_one) {
  const EvalResult r = tool_name_reliability_run("[]");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.metadata.at("perToolResults").as_array().empty());
  BOOST_TEST(r.reason == "no tool definitions to check");
}

BOOST_AUTO_TEST_CASE(a_missing_or_null_tool_list_is_an_error_naming_the_key) {
  const ToolNameReliabilityEvaluator evaluator(config("{}"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case("{}")), krino::Error, invalid("metadata has no 'tools'"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, tool_name_reliability_tools_case("null")), krino::Error, invalid("metadata['tools'] is null"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, tool_name_reliability_tools_case("{}")), krino::Error, invalid("list of tool definitions"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, tool_name_reliability_tools_case(R"([{"description":"x"}])")), krino::Error,
                        invalid("'metadata.tools'[0]: a tool definition needs a non-empty 'name'"));
}

BOOST_AUTO_TEST_CASE(tools_key_renames_the_metadata_key) {
  const ToolNameReliabilityEvaluator evaluator(config(R"({"tools_key":"functions"})"));
  const EvalResult r = evaluate(evaluator, tool_name_reliability_tools_case(R"([{"name":"BadName"}])", "functions"));
  BOOST_TEST(*r.score == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, tool_name_reliability_tools_case("[]")), krino::Error, invalid("metadata has no 'functions'"));
}

BOOST_AUTO_TEST_CASE(options_are_checked_when_the_evaluator_is_created) {
  BOOST_CHECK_EXCEPTION(ToolNameReliabilityEvaluator(config(R"({"judges":"gpt"})")), krino::Error,
                        invalid("unknown option 'judges'"));
  BOOST_CHECK_EXCEPTION(ToolNameReliabilityEvaluator(config(R"({"judge":"gpt"})")), krino::Error,
                        invalid("take effect only with 'llm_checks: true'"));
  BOOST_CHECK_EXCEPTION(ToolNameReliabilityEvaluator(config(R"({"max_segments":0})")), krino::Error,
                        invalid("'max_segments' must be at least 1"));
  BOOST_CHECK_EXCEPTION(ToolNameReliabilityEvaluator(config(R"({"max_segments":2.5})")), krino::Error,
                        invalid("'max_segments' must be an integer"));
  BOOST_CHECK_EXCEPTION(ToolNameReliabilityEvaluator(config(R"({"extra_blocklist":[""]})")), krino::Error,
                        invalid("must not hold empty strings"));
  BOOST_CHECK_EXCEPTION(ToolNameReliabilityEvaluator(config(R"({"threshold":1.5})")), krino::Error,
                        invalid("'threshold' must be between 0 and 1"));
  BOOST_CHECK_EXCEPTION(ToolNameReliabilityEvaluator(config(R"({"tools_key":""})")), krino::Error,
                        invalid("'tools_key' must not be empty"));
}

// The judge seam: verdicts fed straight to check_tool_name, no judge involved.
BOOST_AUTO_TEST_CASE(with_verdicts_all_five_checks_run) {
  const ToolChecks all_pass = check_tool_name("search_flights", default_rules(), NameJudgeVerdicts{true, true, true});
  BOOST_TEST(all_pass.ran() == 5u);
  BOOST_TEST(all_pass.score() == 1.0);

  const ToolChecks unclear = check_tool_name("do_thing", default_rules(), NameJudgeVerdicts{false, true, true});
  BOOST_TEST(unclear.ran() == 5u);
  BOOST_TEST(unclear.passed() == 4u);
  BOOST_TEST(unclear.score() == 0.8, tt::tolerance(1e-12));

  const ToolChecks rules_only = check_tool_name("do_thing", default_rules(), std::nullopt);
  BOOST_TEST(rules_only.ran() == 3u);
  BOOST_TEST(rules_only.checks.size() == 5u);
  BOOST_TEST(rules_only.score() == 1.0);
}

BOOST_AUTO_TEST_CASE(with_verdicts_intent_is_one_check_needing_blocklist_and_judge) {
  auto intent = [](const ToolChecks& tool) {
    for (const Check& check : tool.checks)
      if (check.name == "intent_over_implementation") return check.outcome;
    return CheckOutcome::skipped;
  };
  // Blocklist clean, judge says no: fails.
  const ToolChecks judge_says_no = check_tool_name("summarize", default_rules(), NameJudgeVerdicts{true, true, false});
  BOOST_TEST((intent(judge_says_no) == CheckOutcome::failed));
  BOOST_TEST(judge_says_no.ran() == 5u);
  BOOST_TEST(judge_says_no.passed() == 4u);
  // Blocklist hit, judge says yes: still fails, and counts once.
  const ToolChecks blocked = check_tool_name("summarize_with_llm", default_rules(), NameJudgeVerdicts{true, true, true});
  BOOST_TEST((intent(blocked) == CheckOutcome::failed));
  BOOST_TEST(blocked.ran() == 5u);
  BOOST_TEST(blocked.passed() == 4u);
  // Both agree: passes.
  BOOST_TEST((intent(check_tool_name("summarize", default_rules(), NameJudgeVerdicts{true, true, true})) ==
              CheckOutcome::passed));
}

BOOST_AUTO_TEST_CASE(the_result_of_judged_tools_averages_over_five_checks) {
  const std::vector<ToolChecks> tools{
      check_tool_name("search_flights", default_rules(), NameJudgeVerdicts{true, true, true}),
      check_tool_name("flightsSearch", default_rules(), NameJudgeVerdicts{true, false, true})};
  const EvalResult r = reliability_result(krino::CommonOptions{"n", 0.8}, tools);
  BOOST_TEST(*r.score == (1.0 + 3.0 / 5.0) / 2.0, tt::tolerance(1e-12));
  BOOST_TEST(r.metadata.at("perToolResults").at(1).at("checks") ==
             json(R"({"snakecase_format":false,"conciseness":true,"intent_over_implementation":true,
                      "clarity":true,"name_order":false})"));
  BOOST_TEST(r.reason.find("skipped") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
