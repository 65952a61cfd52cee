#include "tool_efficiency_evaluator.h"

#include "agent_test_support.hpp"

#include <krino/plugin.h>

#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;
namespace tt = boost::test_tools;

namespace {

EvalResult tool_efficiency_run(std::string_view calls, const std::string& options = "{}") {
  return evaluate(ToolEfficiencyEvaluator(config(options)), test_case("{\"toolCalls\":" + std::string(calls) + "}"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_efficiency)

// A worked example: [a(1), a(1), b(), a(1.0)] -> 2 / 4, with the second a a loop.
BOOST_AUTO_TEST_CASE(worked_example_row_16) {
  const EvalResult r = tool_efficiency_run(R"([{"name":"a","arguments":{"n":1}},{"name":"a","arguments":{"n":1}},
                               {"name":"b"},{"name":"a","arguments":{"n":1.0}}])");
  BOOST_TEST(r.name == "tool_efficiency");
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.metadata.at("totalCalls").as_uint64() == 4u);
  BOOST_TEST(r.metadata.at("distinctCalls").as_uint64() == 2u);
  BOOST_TEST(r.metadata.at("redundantCalls") == json(R"(["a","a"])"));
  BOOST_TEST(r.metadata.at("consecutiveDuplicates") == json(R"(["a"])"));
  BOOST_TEST(r.reason == "2 of 4 tool calls were distinct; 1 repeated the call just before (possible loop)");
}

BOOST_AUTO_TEST_CASE(distinct_calls_score_one) {
  const EvalResult r = tool_efficiency_run(R"([{"name":"a","arguments":{"n":1}},{"name":"a","arguments":{"n":2}},{"name":"b","arguments":{"n":1}}])");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.metadata.at("redundantCalls").as_array().empty());
  BOOST_TEST(r.metadata.at("consecutiveDuplicates").as_array().empty());
  BOOST_TEST(r.reason == "3 of 3 tool calls were distinct");
}

BOOST_AUTO_TEST_CASE(arguments_compare_by_value_with_exact_keys) {
  // Nested numbers by value, string arguments as JSON text, key order irrelevant.
  BOOST_TEST(*tool_efficiency_run(R"([{"name":"a","arguments":{"x":[1,{"y":2}],"z":"s"}},
                      {"name":"a","arguments":"{\"z\":\"s\",\"x\":[1.0,{\"y\":2.00}]}"}])").score == 0.5);
  BOOST_TEST(*tool_efficiency_run(R"([{"name":"a","arguments":{"x":1}},{"name":"a","arguments":{"x":1,"y":2}}])").score == 1.0);
  BOOST_TEST(*tool_efficiency_run(R"([{"name":"a","arguments":{"x":"1"}},{"name":"a","arguments":{"x":1}}])").score == 1.0);
  BOOST_TEST(*tool_efficiency_run(R"([{"name":"a","arguments":{"x":"Paris"}},{"name":"a","arguments":{"x":"paris"}}])").score == 1.0);
  BOOST_TEST(*tool_efficiency_run(R"([{"name":"a"},{"name":"a","arguments":{}}])").score == 0.5);
  // The same arguments under another name are a different call.
  BOOST_TEST(*tool_efficiency_run(R"([{"name":"a","arguments":{"x":1}},{"name":"b","arguments":{"x":1}}])").score == 1.0);
}

BOOST_AUTO_TEST_CASE(consecutive_duplicates_are_back_to_back_repeats_only) {
  const EvalResult r = tool_efficiency_run(R"([{"name":"a"},{"name":"b"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"b","arguments":{"q":1}}])");
  BOOST_TEST(*r.score == 3.0 / 6.0, tt::tolerance(1e-12));
  BOOST_TEST(r.metadata.at("redundantCalls") == json(R"(["a","a","a"])"));
  BOOST_TEST(r.metadata.at("consecutiveDuplicates") == json(R"(["a","a"])"));
  // Same name back to back with different arguments is not a loop.
  const EvalResult paging = tool_efficiency_run(R"([{"name":"page","arguments":{"n":1}},{"name":"page","arguments":{"n":2}}])");
  BOOST_TEST(paging.metadata.at("consecutiveDuplicates").as_array().empty());
}

BOOST_AUTO_TEST_CASE(results_do_not_make_calls_different) {
  BOOST_TEST(*tool_efficiency_run(R"([{"name":"a","result":"timeout"},{"name":"a","result":"ok"}])").score == 0.5);
}

BOOST_AUTO_TEST_CASE(empty_list_scores_one) {
  const EvalResult r = tool_efficiency_run("[]");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "no tool calls were made");
  BOOST_TEST(r.metadata.at("totalCalls").as_uint64() == 0u);
  BOOST_TEST(r.metadata.at("distinctCalls").as_uint64() == 0u);
}

BOOST_AUTO_TEST_CASE(tool_calls_key_name_and_threshold) {
  const EvalResult r = evaluate(ToolEfficiencyEvaluator(config(R"({"tool_calls_key":"calls","threshold":0.5,"name":"eff"})")),
                                test_case(R"({"calls":[{"name":"a"},{"name":"a"}]})"));
  BOOST_TEST(r.name == "eff");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.success);
}

BOOST_AUTO_TEST_CASE(malformed_lists_are_invalid_arguments) {
  BOOST_CHECK_EXCEPTION(tool_efficiency_run(R"("a,b")"), krino::Error, invalid("must be a list of tool calls"));
  BOOST_CHECK_EXCEPTION(tool_efficiency_run(R"([{"name":"a"},{"name":""}])"), krino::Error,
                        invalid("'actualOutputs.toolCalls'[1]: a tool call needs a non-empty 'name'"));
  BOOST_CHECK_EXCEPTION(tool_efficiency_run(R"([{"name":"a","arguments":"{not json"}])"), krino::Error, invalid("not valid JSON"));
}

// As the reference's: repeats are decided by the argument matcher, so with ignore any two calls of
// one tool repeat each other.
BOOST_AUTO_TEST_CASE(the_argument_matcher_decides_what_repeats) {
  const char* two_searches = R"([{"name":"s","arguments":{"q":"x"}},{"name":"s","arguments":{"q":"y"}}])";
  BOOST_TEST(*tool_efficiency_run(two_searches).score == 1.0);
  const EvalResult ignored = tool_efficiency_run(two_searches, R"({"arg_match_mode":"ignore"})");
  BOOST_TEST(*ignored.score == 0.5);
  BOOST_TEST(ignored.metadata.at("consecutiveDuplicates") == json(R"(["s"])"));
  BOOST_TEST(ignored.metadata.at("argumentMatching").at("arg_match_mode") == "ignore");
  // Per tool, keyed by the tool's name.
  BOOST_TEST(*tool_efficiency_run(two_searches, R"({"per_tool":{"s":{"arg_match_mode":"ignore"}}})").score == 0.5);
  BOOST_TEST(*tool_efficiency_run(two_searches, R"({"per_tool":{"t":{"arg_match_mode":"ignore"}}})").score == 1.0);
  // String options.
  BOOST_TEST(*tool_efficiency_run(R"([{"name":"s","arguments":{"q":"Paris"}},{"name":"s","arguments":{"q":" paris "}}])",
                                  R"({"trim_strings":true,"ignore_case":true})")
                  .score == 0.5);
}

// The earlier call plays the expected call: under subset, a later call repeats an earlier one when
// it passes at least the earlier call's arguments with the same values.
BOOST_AUTO_TEST_CASE(the_earlier_call_is_the_expected_side) {
  const char* narrow_then_wide = R"([{"name":"s","arguments":{"q":"x"}},{"name":"s","arguments":{"q":"x","n":2}}])";
  const char* wide_then_narrow = R"([{"name":"s","arguments":{"q":"x","n":2}},{"name":"s","arguments":{"q":"x"}}])";
  BOOST_TEST(*tool_efficiency_run(narrow_then_wide, R"({"arg_match_mode":"subset"})").score == 0.5);
  BOOST_TEST(*tool_efficiency_run(wide_then_narrow, R"({"arg_match_mode":"subset"})").score == 1.0);
  BOOST_TEST(*tool_efficiency_run(wide_then_narrow, R"({"arg_match_mode":"superset"})").score == 0.5);
}

BOOST_AUTO_TEST_CASE(bad_options_are_invalid_arguments) {
  BOOST_CHECK_EXCEPTION(ToolEfficiencyEvaluator(config(R"({"arg_match_mode":"loose"})")), krino::Error,
                        invalid("arg_match_mode"));
  BOOST_CHECK_EXCEPTION(ToolEfficiencyEvaluator(config(R"({"tool_calls_key":""})")), krino::Error,
                        invalid("option 'tool_calls_key' must not be empty"));
  BOOST_CHECK_EXCEPTION(ToolEfficiencyEvaluator(config(R"({"threshold":-0.1})")), krino::Error, invalid("between 0 and 1"));
}

BOOST_AUTO_TEST_CASE(schema_has_a_default_and_description_for_every_option) {
  const boost::json::value schema = json(ToolEfficiencyEvaluator::kConfigSchema);
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
  BOOST_TEST(schema.at("$schema").as_string() == "http://json-schema.org/draft-07/schema#");
  for (const auto& property : schema.at("properties").as_object()) {
    BOOST_TEST_INFO("option " << property.key());
    BOOST_TEST(property.value().as_object().contains("default"));
    BOOST_TEST(property.value().as_object().contains("description"));
  }
}

BOOST_AUTO_TEST_CASE(through_the_trampolines) {
  const krino_evaluator_vtable* vtable = krino::detail::EvaluatorTrampolines<ToolEfficiencyEvaluator>::vtable();
  const std::string options = R"({"threshold":0.5})";
  krino::detail::StringSink create_error;
  void* instance = nullptr;
  BOOST_TEST_REQUIRE(vtable->create(nullptr, options.data(), options.size(), &instance, &create_error.sink) == KRINO_OK);
  const std::string document = R"({"inputs":{},"actualOutputs":{"toolCalls":[{"name":"a","arguments":"{\"n\":1}"},
      {"name":"a","arguments":{"n":1.0}},{"name":"b"},{"name":"a","arguments":{"n":1}}]},"expectedOutputs":{},"metadata":{}})";
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  krino::detail::StringSink result;
  krino::detail::StringSink error;
  const krino_status status = vtable->evaluate(instance, &ctx, document.data(), document.size(), &result.sink, &error.sink);
  vtable->destroy(instance);
  BOOST_TEST_REQUIRE(status == KRINO_OK);
  const boost::json::value r = json(result.text);
  BOOST_TEST(r.at("name").as_string() == "tool_efficiency");
  BOOST_TEST(r.at("score").to_number<double>() == 0.5);
  BOOST_TEST(r.at("success").as_bool());
  BOOST_TEST(r.at("metadata").at("consecutiveDuplicates") == json(R"(["a"])"));
}

BOOST_AUTO_TEST_SUITE_END()
