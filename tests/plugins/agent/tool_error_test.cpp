#include "tool_error_evaluator.h"

#include "agent_test_support.hpp"

#include <krino/plugin.h>

#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;

namespace {

EvalResult tool_error_run(const std::string& options, std::string_view calls) {
  return evaluate(ToolErrorEvaluator(config(options)), test_case("{\"toolCalls\":" + std::string(calls) + "}"));
}

// The rule that fails one call with the given "result" JSON value, or "" when it succeeds.
std::string rule_for(std::string_view result_json, const std::string& options = "{}") {
  const EvalResult r = tool_error_run(options, "[{\"name\":\"t\",\"result\":" + std::string(result_json) + "}]");
  const auto& failed = r.metadata.at("failedCalls").as_array();
  return failed.empty() ? std::string() : std::string(failed[0].at("rule").as_string());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_error)

BOOST_AUTO_TEST_CASE(score_is_succeeded_over_all_calls) {
  const EvalResult r = tool_error_run("{}", R"([{"name":"a","result":"ok"},{"name":"b","result":""},
                                     {"name":"c","result":{"error":"boom"}},{"name":"d","result":"fine"}])");
  BOOST_TEST(r.name == "tool_error");
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.metadata.at("totalCalls").as_uint64() == 4u);
  BOOST_TEST(r.metadata.at("failedCount").as_uint64() == 2u);
  BOOST_TEST(r.metadata.at("failedCalls") == json(R"([{"index":1,"tool":"b","rule":"blank_result"},
                                                     {"index":2,"tool":"c","rule":"error_field"}])"));
  BOOST_TEST(r.reason == "2 of 4 tool calls succeeded; failed: #1 b (blank_result), #2 c (error_field)");
}

BOOST_AUTO_TEST_CASE(all_succeeded_passes) {
  const EvalResult r = tool_error_run("{}", R"([{"name":"a","result":"ok"},{"name":"b","result":{"rows":[]}}])");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.metadata.at("failedCalls").as_array().empty());
}

BOOST_AUTO_TEST_CASE(no_and_blank_results_fail) {
  const EvalResult r = tool_error_run("{}", R"([{"name":"a"}])");
  BOOST_TEST(r.metadata.at("failedCalls").at(0).at("rule").as_string() == "no_result");
  BOOST_TEST(rule_for(R"("")") == "blank_result");
  BOOST_TEST(rule_for(R"(" \t\n ")") == "blank_result");
}

// A tool that returned JSON null returned the text "null", which is not blank.
BOOST_AUTO_TEST_CASE(a_null_result_is_not_an_error) {
  BOOST_TEST(rule_for("null") == "");
  BOOST_TEST(rule_for(R"("null")") == "");
}

BOOST_AUTO_TEST_CASE(error_field_needs_a_non_null_non_false_value) {
  BOOST_TEST(rule_for(R"({"error":"timeout"})") == "error_field");
  BOOST_TEST(rule_for(R"("{\"error\":\"timeout\"}")") == "error_field");  // JSON text in a string result
  BOOST_TEST(rule_for(R"({"error":{"code":500}})") == "error_field");
  BOOST_TEST(rule_for(R"({"error":true})") == "error_field");
  BOOST_TEST(rule_for(R"({"error":0})") == "error_field");
  // A decision: an empty message is still an error field that is set.
  BOOST_TEST(rule_for(R"({"error":""})") == "error_field");
  // null is not an error; a decision: neither is false.
  BOOST_TEST(rule_for(R"({"error":null})") == "");
  BOOST_TEST(rule_for(R"({"error":false})") == "");
}

BOOST_AUTO_TEST_CASE(error_field_is_top_level_of_an_object_only) {
  BOOST_TEST(rule_for(R"({"data":{"error":"x"}})") == "");
  BOOST_TEST(rule_for(R"([{"error":"x"}])") == "");
  BOOST_TEST(rule_for(R"("error: not JSON")") == "");
  BOOST_TEST(rule_for(R"({"Error":"x"})") == "");
}

BOOST_AUTO_TEST_CASE(error_patterns_are_searched_in_the_result) {
  const std::string options = R"({"error_patterns":["(?i)traceback","^HTTP [45]\\d\\d"]})";
  BOOST_TEST(rule_for(R"x("ok, then Traceback (most recent call last)")x", options) == "error_pattern");
  BOOST_TEST(rule_for(R"("HTTP 503 Service Unavailable")", options) == "error_pattern");
  BOOST_TEST(rule_for(R"("got HTTP 503")", options) == "");
  BOOST_TEST(rule_for(R"("all good")", options) == "");
  // A non-string result is searched as its compact JSON.
  BOOST_TEST(rule_for(R"({"log":"TRACEBACK"})", options) == "error_pattern");
  const EvalResult r = tool_error_run(options, R"([{"name":"a","result":"HTTP 404"}])");
  BOOST_TEST(r.metadata.at("failedCalls") == json(R"([{"index":0,"tool":"a","rule":"error_pattern","pattern":"^HTTP [45]\\d\\d"}])"));
}

BOOST_AUTO_TEST_CASE(error_pointers_look_inside_json_results) {
  const std::string options = R"({"error_pointers":["/status/failed","/0/error","/a~1b"]})";
  BOOST_TEST(rule_for(R"({"status":{"failed":true}})", options) == "error_pointer");
  BOOST_TEST(rule_for(R"({"status":{"failed":"disk full"}})", options) == "error_pointer");
  BOOST_TEST(rule_for(R"([{"error":"x"}])", options) == "error_pointer");
  BOOST_TEST(rule_for(R"({"a/b":1})", options) == "error_pointer");
  BOOST_TEST(rule_for(R"({"status":{"failed":false}})", options) == "");
  BOOST_TEST(rule_for(R"({"status":{"failed":null}})", options) == "");
  BOOST_TEST(rule_for(R"({"status":{}})", options) == "");
  BOOST_TEST(rule_for(R"("/status/failed is not JSON")", options) == "");
  const EvalResult r = tool_error_run(options, R"([{"name":"a","result":{"status":{"failed":1}}}])");
  BOOST_TEST(r.metadata.at("failedCalls") == json(R"([{"index":0,"tool":"a","rule":"error_pointer","pointer":"/status/failed"}])"));
}

// Configured detectors add to the built-in rules and never replace them.
BOOST_AUTO_TEST_CASE(detectors_are_additive) {
  const std::string options = R"({"error_patterns":["never matches \\d{40}"],"error_pointers":["/nothing"]})";
  BOOST_TEST(rule_for(R"("")", options) == "blank_result");
  BOOST_TEST(rule_for(R"({"error":"x"})", options) == "error_field");
  BOOST_TEST(rule_for(R"({"error":null})", options) == "");
  BOOST_TEST(rule_for("null", options) == "");
  const EvalResult r = tool_error_run(R"({"error_patterns":["denied"]})",
                           R"([{"name":"a"},{"name":"b","result":{"error":"x"}},{"name":"c","result":"access denied"},
                               {"name":"d","result":"ok"}])");
  BOOST_TEST(*r.score == 0.25);
}

BOOST_AUTO_TEST_CASE(empty_list_scores_one) {
  const EvalResult r = tool_error_run("{}", "[]");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "no tool calls were made");
  BOOST_TEST(r.metadata.at("totalCalls").as_uint64() == 0u);
}

BOOST_AUTO_TEST_CASE(tool_calls_key_and_threshold) {
  const EvalResult r = evaluate(ToolErrorEvaluator(config(R"({"tool_calls_key":"calls","threshold":0.5,"name":"errs"})")),
                                test_case(R"({"calls":[{"name":"a","result":"ok"},{"name":"b"}]})"));
  BOOST_TEST(r.name == "errs");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.success);
}

BOOST_AUTO_TEST_CASE(malformed_lists_are_invalid_arguments) {
  BOOST_CHECK_EXCEPTION(tool_error_run("{}", R"({"name":"a"})"), krino::Error, invalid("must be a list of tool calls"));
  BOOST_CHECK_EXCEPTION(tool_error_run("{}", R"([{"name":"a","result":"ok"},{"result":"x"}])"), krino::Error,
                        invalid("'actualOutputs.toolCalls'[1]: a tool call needs a non-empty 'name'"));
  BOOST_CHECK_EXCEPTION(tool_error_run("{}", R"([42])"), krino::Error, invalid("a tool call must be a JSON object"));
}

BOOST_AUTO_TEST_CASE(bad_options_are_invalid_arguments) {
  BOOST_CHECK_EXCEPTION(ToolErrorEvaluator(config(R"({"error_patterns":["("]})")), krino::Error,
                        invalid("error_patterns[0]: invalid regular expression"));
  BOOST_CHECK_EXCEPTION(ToolErrorEvaluator(config(R"({"error_patterns":[""]})")), krino::Error,
                        invalid("error_patterns[0] must not be empty"));
  BOOST_CHECK_EXCEPTION(ToolErrorEvaluator(config(R"({"error_patterns":"x"})")), krino::Error,
                        invalid("must be a list of strings"));
  BOOST_CHECK_EXCEPTION(ToolErrorEvaluator(config(R"({"error_pointers":["error"]})")), krino::Error,
                        invalid("error_pointers[0] must be a JSON pointer starting with '/'"));
  BOOST_CHECK_EXCEPTION(ToolErrorEvaluator(config(R"({"error_pointers":[""]})")), krino::Error,
                        invalid("error_pointers[0] must be a JSON pointer"));
  BOOST_CHECK_EXCEPTION(ToolErrorEvaluator(config(R"({"error_pointers":["/a~2"]})")), krino::Error,
                        invalid("error_pointers[0] is not a valid JSON pointer"));
  BOOST_CHECK_EXCEPTION(ToolErrorEvaluator(config(R"({"error_detector":"x"})")), krino::Error,
                        invalid("unknown option 'error_detector'"));
  BOOST_CHECK_EXCEPTION(ToolErrorEvaluator(config(R"({"threshold":2})")), krino::Error, invalid("between 0 and 1"));
}

BOOST_AUTO_TEST_CASE(schema_has_a_default_and_description_for_every_option) {
  const boost::json::value schema = json(ToolErrorEvaluator::kConfigSchema);
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
  BOOST_TEST(schema.at("$schema").as_string() == "http://json-schema.org/draft-07/schema#");
  for (const auto& property : schema.at("properties").as_object()) {
    BOOST_TEST_INFO("option " << property.key());
    BOOST_TEST(property.value().as_object().contains("default"));
    BOOST_TEST(property.value().as_object().contains("description"));
  }
}

BOOST_AUTO_TEST_CASE(through_the_trampolines) {
  const krino_evaluator_vtable* vtable = krino::detail::EvaluatorTrampolines<ToolErrorEvaluator>::vtable();
  const std::string options = R"({"error_patterns":["refused"],"threshold":0.5})";
  krino::detail::StringSink create_error;
  void* instance = nullptr;
  BOOST_TEST_REQUIRE(vtable->create(nullptr, options.data(), options.size(), &instance, &create_error.sink) == KRINO_OK);
  const std::string document = R"({"inputs":{},"actualOutputs":{"toolCalls":[{"name":"a","result":"connection refused"},
      {"name":"b","result":{"error":null}}]},"expectedOutputs":{},"metadata":{}})";
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  krino::detail::StringSink result;
  krino::detail::StringSink error;
  const krino_status status = vtable->evaluate(instance, &ctx, document.data(), document.size(), &result.sink, &error.sink);
  vtable->destroy(instance);
  BOOST_TEST_REQUIRE(status == KRINO_OK);
  const boost::json::value r = json(result.text);
  BOOST_TEST(r.at("name").as_string() == "tool_error");
  BOOST_TEST(r.at("score").to_number<double>() == 0.5);
  BOOST_TEST(r.at("success").as_bool());
  BOOST_TEST(r.at("metadata").at("failedCalls").at(0).at("rule").as_string() == "error_pattern");
}

BOOST_AUTO_TEST_CASE(a_call_the_source_flagged_as_an_error_fails_whatever_its_result_says) {
  // Trace extractors keep a source's own error flag (Anthropic's is_error, a failed tool span) as
  // metadata.isError; the result text of such a call often reads like any other answer.
  const EvalResult r = tool_error_run("{}", R"([{"name":"a","result":"sold out","metadata":{"isError":true}},
                                     {"name":"b","result":"ok","metadata":{"isError":false}}])");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.metadata.at("failedCalls") == json(R"([{"index":0,"tool":"a","rule":"error_flag"}])"));
}

BOOST_AUTO_TEST_CASE(ignored_tools_are_neither_counted_nor_failed) {
  const EvalResult r = tool_error_run(R"({"ignore_tools": ["think"], "error_patterns": ["^Error:"]})",
                           R"([{"name":"think","result":""},{"name":"book","result":"Error: no seats"},
                               {"name":"think","result":""},{"name":"search","result":"[]"}])");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.metadata.at("totalCalls").as_uint64() == 2u);
  BOOST_TEST(r.metadata.at("ignoredCalls").as_uint64() == 2u);
  BOOST_TEST(r.reason == "1 of 2 tool calls succeeded; failed: #1 book (error_pattern); 2 ignored");
  const EvalResult only_ignored = tool_error_run(R"({"ignore_tools": ["think"]})", R"([{"name":"think","result":""}])");
  BOOST_TEST(*only_ignored.score == 1.0);
  BOOST_TEST(only_ignored.reason == "every tool call was of an ignored tool");
}

BOOST_AUTO_TEST_SUITE_END()
