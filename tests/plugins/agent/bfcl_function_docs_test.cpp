// BFCL function docs: tool_call_validity refuses their Python type names as JSON Schema, and with
// bfcl_types converts them the way BFCL's model handlers do before calling a model.
#include "bfcl_function_docs.h"
#include "tool_call_validity_evaluator.h"

#include "agent_test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;

namespace {

// Function docs in BFCL's style: "dict" parameters, Python type names, a dotted name.
constexpr const char* kBfclDocs = R"docs([
  {"name": "geo.distance", "description": "Distance between two points.",
   "parameters": {"type": "dict", "required": ["start", "end"], "properties": {
     "start": {"type": "tuple", "description": "(lat, lon)", "items": {"type": "float"}},
     "end": {"type": "tuple", "description": "(lat, lon)", "items": {"type": "float"}},
     "unit": {"type": "string", "enum": ["km", "mi"], "description": "Unit."},
     "precision": {"type": "float", "description": "Rounding."}}}},
  {"name": "stash", "description": "Keeps a value.",
   "parameters": {"type": "dict", "properties": {
     "value": {"type": "any", "description": "Anything."},
     "label": {"description": "No type given."},
     "tags": {"type": "list", "items": {"type": "dict", "properties": {"k": {"type": "String"}, "n": {"type": "long"}}}},
     "grid": {"type": "array", "items": {"type": "list", "items": {"type": "double"}}},
     "options": {"type": "HashMap", "properties": {"depth": {"type": "short"}}}}}}
])docs";

EvalResult validity(std::string_view calls, const std::string& options) {
  boost::json::object document = test_case("{\"toolCalls\":" + std::string(calls) + "}");
  document["metadata"] = boost::json::object{{"tools", json(kBfclDocs)}};
  return evaluate(ToolCallValidityEvaluator(config(options)), document);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bfcl_function_docs)

BOOST_AUTO_TEST_CASE(types_are_converted_as_bfcl_converts_them) {
  const boost::json::object converted = bfcl_parameters_as_json_schema(json(R"(
    {"type": "dict", "properties": {
      "a": {"type": "tuple", "items": {"type": "float"}}, "b": {"type": "any"}, "c": {"description": "x"},
      "d": {"type": "list", "items": {"type": "dict", "properties": {"k": {"type": "Bigint"}}}},
      "e": {"type": "array", "items": {"type": "ArrayList", "items": {"type": "char"}}},
      "f": {"type": "dict", "properties": {"g": {"type": "bool"}}}, "h": {"type": "Weird"},
      "i": {"type": ["string", "null"]}}, "required": ["a"]})").as_object());
  BOOST_TEST(converted == json(R"(
    {"type": "object", "properties": {
      "a": {"type": "array", "items": {"type": "number"}}, "b": {"type": "string"}, "c": {"description": "x", "type": "string"},
      "d": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "integer"}}}},
      "e": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
      "f": {"type": "object", "properties": {"g": {"type": "boolean"}}}, "h": {"type": "string"},
      "i": {"type": ["string", "null"]}}, "required": ["a"]})").as_object());
  BOOST_TEST(bfcl_api_name("geo.distance.v2") == "geo_distance_v2");
}

BOOST_AUTO_TEST_CASE(without_the_option_bfcl_docs_are_refused) {
  BOOST_CHECK_EXCEPTION(validity(R"([{"name":"geo.distance","arguments":{"start":[1.5,2],"end":[3,4]}}])", "{}"),
                        krino::Error, invalid("geo.distance"));
}

BOOST_AUTO_TEST_CASE(with_bfcl_types_calls_are_checked_against_the_converted_docs) {
  const std::string bfcl = R"({"bfcl_types": true})";
  const EvalResult good = validity(R"([{"name":"geo.distance","arguments":{"start":[1.5,2],"end":[3,4],"unit":"km","precision":0.1}},
                                       {"name":"geo_distance","arguments":{"start":[0,0],"end":[1,1]}},
                                       {"name":"stash","arguments":{"value":"v","label":"l","tags":[{"k":"a","n":3}],
                                                                    "grid":[[1.0,2.5]],"options":{"depth":2}}}])",
                                   bfcl);
  BOOST_TEST(*good.score == 1.0, good.reason);

  const EvalResult bad = validity(R"([{"name":"geo.distance","arguments":{"start":"1.5,2","end":[3,4]}},
                                      {"name":"geo.distance","arguments":{"end":[3,4]}},
                                      {"name":"stash","arguments":{"value":7}},
                                      {"name":"stash","arguments":{"tags":[{"n":"three"}]}},
                                      {"name":"stash","arguments":{"options":{"depth":2.5}}}])",
                                  bfcl);
  BOOST_TEST(*bad.score == 0.0, bad.reason);
  const boost::json::object metadata = bad.metadata_object();
  const boost::json::array& results = metadata.at("validationResults").as_array();
  BOOST_TEST(results[0].at("errors") == json(R"(["'start': must be array, got a string"])"));
  BOOST_TEST(results[1].at("errors") == json(R"(["missing required argument 'start'"])"));
  // BFCL makes "any" a string, so a number fails it, as it would in BFCL's own schema.
  BOOST_TEST(results[2].at("errors") == json(R"(["'value': must be string, got an integer"])"));
}

BOOST_AUTO_TEST_SUITE_END()
