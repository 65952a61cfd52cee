#include "tool_argument_schema.h"
#include "tool_call_validity_evaluator.h"

#include "agent_test_support.hpp"

#include <krino/json_parse.hpp>
#include <krino/plugin.h>
#include <krino/plugin/test_case_document.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;

namespace {

// get_weather(city: string required, units: "celsius"|"fahrenheit", days: integer 1..7,
// location: {lat: number, lon: number} both required, tags: [string]); closed by
// additionalProperties: false. search(query: string required) stays open.
constexpr std::string_view kToolCallValidityTools = R"([
  {"name": "get_weather", "description": "Forecast for a city",
   "parameters": {"type": "object",
     "properties": {"city": {"type": "string"},
                    "units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    "days": {"type": "integer", "minimum": 1, "maximum": 7},
                    "location": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
                                 "required": ["lat", "lon"]},
                    "tags": {"type": "array", "items": {"type": "string"}}},
     "required": ["city"], "additionalProperties": false}},
  {"type": "function", "function": {"name": "search", "description": "Web search",
   "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "number", "enum": [10, 20]}},
                  "required": ["query"]}}},
  {"name": "ping", "description": "No schema at all"}
])";

boost::json::object validity_case(std::string_view calls, std::string_view tools = kToolCallValidityTools) {
  boost::json::object document = test_case("{\"toolCalls\":" + std::string(calls) + "}");
  document["metadata"] = boost::json::object{{"tools", json(tools)}};
  return document;
}

EvalResult tool_call_validity_run(std::string_view calls, const std::string& options = "{}") {
  return evaluate(ToolCallValidityEvaluator(config(options)), validity_case(calls));
}

// The errors recorded for call `index`.
boost::json::array errors_of(const EvalResult& r, std::size_t index) {
  return r.metadata_object().at("validationResults").as_array().at(index).as_object().at("errors").as_array();
}

bool has_error(const EvalResult& r, std::size_t index, std::string_view text) {
  for (const auto& e : errors_of(r, index))
    if (e.as_string() == text) return true;
  BOOST_TEST_MESSAGE("errors: " << boost::json::serialize(errors_of(r, index)));
  return false;
}

// The result of the test case `text` read as the host sends it (bytes, members found by a scan),
// and of the same test case parsed whole up front, as JSON text each.
std::pair<std::string, std::string> results_from_text_and_value(const ToolCallValidityEvaluator& evaluator,
                                                                const std::string& text) {
  auto document = std::make_unique<krino::detail::TestCaseDocument>();
  document->reset(1, text);
  krino::CallContext ctx(nullptr, nullptr);
  std::string from_text;
  evaluator.evaluate(krino::TestCase(*document), ctx).append_json(from_text);
  std::string from_value;
  evaluate(evaluator, krino::json::parse(text).as_object()).append_json(from_value);
  return {from_text, from_value};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_call_validity)

// Rows offering a tool list seen on a recent row reuse its compiled schemas, the list recognised
// from its bytes where the scan reaches it; every row scores as its own list says: a repeated
// "tools" key (the last counts), another reading of the schemas (strict_mode), white space after.
BOOST_AUTO_TEST_CASE(a_recent_tool_list_is_recognised_and_each_row_scores_as_its_own) {
  const std::string tools(kToolCallValidityTools);
  const std::string search_only = R"([{"name":"search","parameters":{"type":"object","properties":{"query":{"type":"integer"}}}}])";
  const std::string calls = R"([{"name":"search","arguments":{"query":"x"}},{"name":"get_weather","arguments":{"city":"P"}}])";
  const auto row = [&](const std::string& metadata) {
    return R"({"inputs":{},"actualOutputs":{"toolCalls":)" + calls + R"(},"expectedOutputs":{},"metadata":)" + metadata + "}";
  };
  const std::vector<std::string> metadata = {
      "{\"tools\":" + tools + "}",
      "{\"tools\":" + tools + "}",  // the same list again: recognised
      "{\"tools\":" + tools + ",\"tools\":" + search_only + "}",
      "{\"tools\":" + search_only + ",\"tools\":" + tools + "}",
      "{\"tools\":" + tools + " ,\"n\":1}",
      "{\"n\":1,\"tools\":" + tools + "}",
  };
  for (const char* options : {"{}", R"({"strict_mode":true})", "{}"}) {
    const ToolCallValidityEvaluator evaluator(config(options));
    for (const std::string& m : metadata) {
      BOOST_TEST_CONTEXT(options << " " << m) {
        const auto [from_text, from_value] = results_from_text_and_value(evaluator, row(m));
        BOOST_TEST(from_text == from_value);
      }
    }
  }
  const ToolCallValidityEvaluator evaluator(config("{}"));
  BOOST_TEST(results_from_text_and_value(evaluator, row(metadata[2])).first.find("'query'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(valid_calls_score_one) {
  const EvalResult r = tool_call_validity_run(R"([{"name":"get_weather","arguments":{"city":"Paris","units":"celsius","days":3,
                                 "location":{"lat":48.85,"lon":2.35},"tags":["a"]}},
                               {"name":"search","arguments":"{\"query\":\"hotels\",\"extra\":true}"},
                               {"name":"ping","arguments":{"anything":[1,2]}}])");
  BOOST_TEST(r.name == "tool_call_validity");
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == "3 of 3 tool calls were valid");
  BOOST_TEST(r.metadata_object().at("validationResults") ==
             json(R"([{"toolName":"get_weather","valid":true,"errors":[]},{"toolName":"search","valid":true,"errors":[]},
                      {"toolName":"ping","valid":true,"errors":[]}])"));
}

BOOST_AUTO_TEST_CASE(no_calls_score_one_and_singular_reason) {
  BOOST_TEST(*tool_call_validity_run("[]").score == 1.0);
  const EvalResult one = tool_call_validity_run(R"([{"name":"search","arguments":{"query":"x"}}])");
  BOOST_TEST(one.reason == "1 of 1 tool call was valid");
}

BOOST_AUTO_TEST_CASE(unknown_tool_is_invalid) {
  const EvalResult r = tool_call_validity_run(R"([{"name":"search","arguments":{"query":"x"}},{"name":"book_hotel","arguments":{}}])");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(!r.success);
  BOOST_TEST(has_error(r, 1, "unknown tool 'book_hotel': no definition in metadata.tools"));
  BOOST_TEST(r.reason == "1 of 2 tool calls were valid; first problem: book_hotel: unknown tool 'book_hotel': no "
                         "definition in metadata.tools");
}

BOOST_AUTO_TEST_CASE(missing_required_argument) {
  const EvalResult r = tool_call_validity_run(R"([{"name":"get_weather","arguments":{"units":"celsius"}}])");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(has_error(r, 0, "missing required argument 'city'"));
}

BOOST_AUTO_TEST_CASE(wrong_types_name_the_argument_and_both_types) {
  const EvalResult r = tool_call_validity_run(R"([{"name":"get_weather","arguments":{"city":42}},
                               {"name":"get_weather","arguments":{"city":null}},
                               {"name":"get_weather","arguments":{"city":"Oslo","days":2.5}}])");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(has_error(r, 0, "'city': must be string, got an integer"));
  BOOST_TEST(has_error(r, 1, "'city': must be string, got null"));
  BOOST_TEST(has_error(r, 2, "'days': must be integer, got a number with a fraction"));
}

// A decision: numbers by value, as JSON Schema defines them: 5.0 is an integer, and an enum
// of [10, 20] accepts 10.0. Dokimos's source types by representation and rejects both.
BOOST_AUTO_TEST_CASE(numbers_compare_by_value) {
  const EvalResult r = tool_call_validity_run(R"([{"name":"get_weather","arguments":{"city":"Oslo","days":5.0}},
                               {"name":"search","arguments":{"query":"x","limit":10.0}},
                               {"name":"search","arguments":{"query":"x","limit":10}}])");
  BOOST_TEST(*r.score == 1.0);
}

BOOST_AUTO_TEST_CASE(integer_bounds_still_apply_after_rewriting) {
  const EvalResult r = tool_call_validity_run(R"([{"name":"get_weather","arguments":{"city":"Oslo","days":8.0}}])");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(errors_of(r, 0).size() == 1u);
}

BOOST_AUTO_TEST_CASE(enum_values) {
  const EvalResult r = tool_call_validity_run(R"([{"name":"get_weather","arguments":{"city":"Oslo","units":"kelvin"}},
                               {"name":"search","arguments":{"query":"x","limit":"10"}}])");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(has_error(r, 0, R"('units': "kelvin" is not one of ["celsius","fahrenheit"])"));
  BOOST_TEST(has_error(r, 1, R"('limit': "10" is not one of [10,20])"));
}

BOOST_AUTO_TEST_CASE(nested_objects_and_arrays_are_validated) {
  const EvalResult r = tool_call_validity_run(R"([{"name":"get_weather","arguments":{"city":"Oslo","location":{"lat":"north"}}},
                               {"name":"get_weather","arguments":{"city":"Oslo","tags":["ok",7]}}])");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(has_error(r, 0, "'location': missing required property 'lon'"));
  BOOST_TEST(has_error(r, 0, "'location.lat': must be number, got a string"));
  BOOST_TEST(has_error(r, 1, "'tags[1]': must be string, got an integer"));
}

// Unexpected arguments are an error only with additionalProperties: false or
// strict_mode, and strict_mode only for schemas that list properties.
BOOST_AUTO_TEST_CASE(unexpected_arguments) {
  const std::string calls = R"([{"name":"get_weather","arguments":{"city":"Oslo","colour":"red"}},
                                {"name":"search","arguments":{"query":"x","page":2}},
                                {"name":"ping","arguments":{"x":1}}])";
  const EvalResult lenient = tool_call_validity_run(calls);
  BOOST_TEST(*lenient.score == 2.0 / 3.0);
  BOOST_TEST(has_error(lenient, 0, "unexpected argument 'colour'"));
  const EvalResult strict = tool_call_validity_run(calls, R"({"strict_mode": true})");
  BOOST_TEST(*strict.score == 1.0 / 3.0);
  BOOST_TEST(has_error(strict, 1, "unexpected argument 'page'"));
  BOOST_TEST(errors_of(strict, 2).empty());
}

BOOST_AUTO_TEST_CASE(strict_mode_rejects_every_argument_of_a_tool_with_empty_properties) {
  const std::string tools = R"([{"name":"now","parameters":{"type":"object","properties":{}}}])";
  auto document = validity_case(R"([{"name":"now","arguments":{"tz":"UTC"}},{"name":"now"}])", tools);
  const EvalResult strict = evaluate(ToolCallValidityEvaluator(config(R"({"strict_mode":true})")), document);
  BOOST_TEST(*strict.score == 0.5);
  const EvalResult lenient = evaluate(ToolCallValidityEvaluator(config("{}")), document);
  BOOST_TEST(*lenient.score == 1.0);
}

BOOST_AUTO_TEST_CASE(other_schema_keywords_apply) {
  const std::string tools =
      R"([{"name":"t","parameters":{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$"},
           "n":{"type":["integer","null"]}}}}])";
  auto document = validity_case(R"([{"name":"t","arguments":{"code":"PAR","n":null}},{"name":"t","arguments":{"code":"paris"}},
                                    {"name":"t","arguments":{"n":"1"}}])", tools);
  const EvalResult r = evaluate(ToolCallValidityEvaluator(config("{}")), document);
  BOOST_TEST(*r.score == 1.0 / 3.0);
  BOOST_TEST(errors_of(r, 1).size() == 1u);
  BOOST_TEST(has_error(r, 2, "'n': must be integer or null, got a string"));
}

BOOST_AUTO_TEST_CASE(missing_tools_is_a_broken_test_case) {
  auto document = test_case(R"({"toolCalls":[]})");
  BOOST_CHECK_EXCEPTION(evaluate(ToolCallValidityEvaluator(config("{}")), document), krino::Error,
                        invalid("metadata has no 'tools'"));
  document["metadata"] = boost::json::object{{"tools", nullptr}};
  BOOST_CHECK_EXCEPTION(evaluate(ToolCallValidityEvaluator(config("{}")), document), krino::Error,
                        invalid("metadata['tools'] is null"));
  document["metadata"] = boost::json::object{{"tools", json(R"([{"description":"nameless"}])")}};
  BOOST_CHECK_EXCEPTION(evaluate(ToolCallValidityEvaluator(config("{}")), document), krino::Error,
                        invalid("'metadata.tools'[0]: a tool definition needs a non-empty 'name'"));
}

BOOST_AUTO_TEST_CASE(unusable_schema_names_the_tool) {
  auto document = validity_case(R"([{"name":"t","arguments":{"a":1}}])",
                                R"([{"name":"t","parameters":{"type":"object","properties":{"a":{"type":"int"}}}}])");
  BOOST_CHECK_EXCEPTION(evaluate(ToolCallValidityEvaluator(config("{}")), document), krino::Error,
                        invalid("tool 't' in metadata.tools: the schema is not a usable JSON Schema"));
}

BOOST_AUTO_TEST_CASE(options) {
  auto document = validity_case("[]");
  document["actualOutputs"] = boost::json::object{{"calls", json(R"([{"name":"nope"}])")}};
  document["metadata"] = boost::json::object{{"offered", json(kToolCallValidityTools)}};
  const EvalResult r = evaluate(
      ToolCallValidityEvaluator(config(R"({"tool_calls_key":"calls","tools_key":"offered","name":"v","threshold":0})")),
      document);
  BOOST_TEST(r.name == "v");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(r.success);
  BOOST_CHECK_EXCEPTION(ToolCallValidityEvaluator(config(R"({"strict":true})")), krino::Error,
                        invalid("unknown option 'strict'"));
}

BOOST_AUTO_TEST_CASE(compiled_schemas_are_reused_per_thread) {
  const boost::json::value schema = json(R"({"type":"object","properties":{"a":{"type":"string"}}})");
  const auto first = ToolArgumentSchema::compile(&schema.as_object(), false);
  BOOST_TEST(first == ToolArgumentSchema::compile(&schema.as_object(), false));
  BOOST_TEST(first != ToolArgumentSchema::compile(&schema.as_object(), true));
}

BOOST_AUTO_TEST_CASE(integral_doubles_become_integers_at_any_depth) {
  boost::json::value v = json(R"({"a":5.0,"b":[1.0,2.5,{"c":-3.0}],"d":1e300,"e":"5.0"})");
  BOOST_TEST(make_integral_numbers_integers(v));
  BOOST_TEST(v.at("a").is_int64());
  BOOST_TEST(v.at("b").at(0).is_int64());
  BOOST_TEST(v.at("b").at(1).is_double());
  BOOST_TEST(v.at("b").at(2).at("c").as_int64() == -3);
  BOOST_TEST(v.at("d").is_double());
  BOOST_TEST(v.at("e").is_string());
  boost::json::value none = json(R"({"a":1,"b":2.5})");
  BOOST_TEST(!make_integral_numbers_integers(none));
}

BOOST_AUTO_TEST_SUITE_END()
