// The direct checks compiled from a tool's argument schema against valijson: over a corpus of
// schemas and instances, the answer with them (validate) is the answer of valijson alone, verdict
// and messages; and the direct checks do accept the valid instances, so the fast path is taken.
#include "compiled_argument_schema.h"
#include "tool_argument_schema.h"

#include <krino/json_parse.hpp>

#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>
#include <vector>

using namespace krino::agent;

namespace {

boost::json::value exact(std::string_view text) { return krino::json::parse(text); }

// A flight search, as the agent benchmark's tools are written, plus the tricky corners.
constexpr std::string_view kFlightSchema = R"({
  "type": "object", "title": "search", "description": "Find flights", "$comment": "bench-like",
  "properties": {
    "origin": {"type": "string", "description": "IATA code"},
    "cabin": {"type": "string", "enum": ["economy", "premium", "first"]},
    "passengers": {"type": "integer", "minimum": 1, "maximum": 9.0},
    "code": {"type": "string", "minLength": 3, "maxLength": 3},
    "price": {"type": "number", "minimum": 0.5, "maximum": 1e300},
    "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}},
    "where": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
              "required": ["lat", "lon"], "additionalProperties": false},
    "note": {"type": ["string", "null"], "default": null},
    "mixed": {"enum": ["one", 1, null]}
  },
  "required": ["origin"],
  "additionalProperties": false
})";

// Valid instances of kFlightSchema: the direct checks must accept each.
const std::vector<std::string_view> kValidFlights = {
    R"({"origin": "LHR"})",
    R"({"origin": "LHR", "cabin": "first", "passengers": 2})",
    R"({"origin": "LHR", "passengers": 2.0})",
    R"({"origin": "LHR", "passengers": 9, "price": 0.5})",
    R"({"origin": "LHR", "price": 1, "code": "ABC"})",
    R"({"origin": "", "code": "日本語"})",
    R"({"origin": "LHR", "code": "e\u0301x"})",
    R"({"origin": "LHR", "tags": [], "note": null})",
    R"({"origin": "LHR", "tags": ["a", "bcd", "日本語!"], "note": "x"})",
    R"({"origin": "LHR", "where": {"lat": 51.5, "lon": -0.1}})",
    R"({"origin": "LHR", "where": {"lat": 51, "lon": 1e2}})",
    R"({"origin": "LHR", "mixed": "one"})",
};

// Instances valijson rejects, or that the direct checks leave to it (an unsigned 64-bit integer,
// a non-string enum member, a NUL).
const std::vector<std::string_view> kOtherFlights = {
    R"({})",
    R"({"cabin": "first"})",
    R"({"origin": 3})",
    R"({"origin": null})",
    R"({"origin": "LHR", "seat": "12A"})",
    R"({"origin": "LHR", "cabin": "business"})",
    R"({"origin": "LHR", "cabin": "first\u0000"})",
    R"({"origin": "LHR", "cabin": 1})",
    R"({"origin": "LHR", "passengers": 2.5})",
    R"({"origin": "LHR", "passengers": 0})",
    R"({"origin": "LHR", "passengers": 10})",
    R"({"origin": "LHR", "passengers": 9.000000001})",
    R"({"origin": "LHR", "passengers": -0.0})",
    R"({"origin": "LHR", "passengers": 1e19})",
    R"({"origin": "LHR", "passengers": 18446744073709551615})",
    R"({"origin": "LHR", "passengers": 123456789012345678901234567890})",
    R"({"origin": "LHR", "passengers": "2"})",
    R"({"origin": "LHR", "price": 0.49999999999999994})",
    R"({"origin": "LHR", "price": 1e400})",
    R"({"origin": "LHR", "price": 18446744073709551615})",
    R"({"origin": "LHR", "code": "AB"})",
    R"({"origin": "LHR", "code": "ABCD"})",
    R"({"origin": "LHR", "code": "日本"})",
    R"({"origin": "LHR", "code": "a\u0000bc"})",
    R"({"origin": "LHR", "code": "abc\u0000"})",
    R"({"origin": "LHR", "tags": ["abcde"]})",
    R"({"origin": "LHR", "tags": ["ok", 3]})",
    R"({"origin": "LHR", "tags": "a"})",
    R"({"origin": "LHR", "where": {"lat": 51.5}})",
    R"({"origin": "LHR", "where": {"lat": 51.5, "lon": 0, "alt": 3}})",
    R"({"origin": "LHR", "where": {"lat": "51.5", "lon": 0}})",
    R"({"origin": "LHR", "where": []})",
    R"({"origin": "LHR", "note": 3})",
    R"({"origin": "LHR", "mixed": 1})",
    R"({"origin": "LHR", "mixed": 1.0})",
    R"({"origin": "LHR", "mixed": null})",
    R"({"origin": "LHR", "mixed": "two"})",
};

// Other schemas the direct checks handle, each with instances of both kinds.
struct Corpus {
  std::string_view schema;
  std::vector<std::string_view> instances;
};

const std::vector<Corpus> kOtherSchemas = {
    {R"({"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": {"type": "string", "maxLength": 2}})",
     {R"({"n": 1, "x": "ab"})", R"({"x": "abc"})", R"({"x": 1})", R"({"n": 1.5})", R"({"n": 3.0, "y": ""})"}},
    {R"({"type": "object"})", {R"({})", R"({"anything": [1, {"a": null}]})"}},
    {R"({"properties": {"v": {"type": "number"}}})", {R"({"v": 1})", R"({"v": 1e308})", R"({"v": true})", R"({"v": 9223372036854775807})"}},
    {R"({"type": "object", "properties": {"list": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer", "minimum": -3}}, "required": ["id"]}}}})",
     {R"({"list": [{"id": -3}, {"id": 7, "extra": 1}]})", R"({"list": [{"id": -4}]})", R"({"list": [{}]})", R"({"list": [{"id": -9223372036854775808}]})"}},
    {R"({"type": ["object", "null"], "required": ["a", "b"], "additionalProperties": true})",
     {R"({"a": 1, "b": 2})", R"({"a": 1})", R"({"a": 1, "b": 2, "c": 3})"}},
};

// Schemas with a keyword the direct checks do not handle: valijson alone answers.
const std::vector<Corpus> kValijsonOnlySchemas = {
    {R"({"type": "object", "properties": {"d": {"type": "string", "pattern": "^[0-9]{4}$"}}})", {R"({"d": "2026"})", R"({"d": "26"})"}},
    {R"({"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": 0}}})", {R"({"n": 1})", R"({"n": 0})"}},
    {R"({"type": "object", "properties": {"t": {"type": "array", "items": [{"type": "string"}]}}})", {R"({"t": ["a"]})", R"({"t": [1]})"}},
    {R"({"type": "object", "properties": {"a": {"const": "x"}}})", {R"({"a": "x"})", R"({"a": "y"})"}},
    {R"({"type": "object", "properties": {"l": {"type": "array", "minItems": 1}}})", {R"({"l": [1]})", R"({"l": []})"}},
    {R"({"type": "object", "required": ["a\u0000b"]})", {R"({"a\u0000b": 1})", R"({"a": 1})", R"({})"}},
    {R"({"type": "object", "properties": {"a\u0000b": {"type": "string"}}})", {R"({"a\u0000b": "x"})", R"({"a\u0000b": 1})"}},
};

void check_same_answers(std::string_view schema_text, const std::vector<std::string_view>& instances, bool strict,
                        std::size_t* fast_accepts) {
  const boost::json::value schema = exact(schema_text);
  const auto compiled = ToolArgumentSchema::compile(&schema.as_object(), strict);
  for (std::string_view text : instances) {
    BOOST_TEST_CONTEXT(schema_text << "\n" << text << (strict ? " (strict)" : "")) {
      const boost::json::value instance = exact(text);
      const std::vector<std::string> valijson = compiled->validate_with_valijson(instance.as_object());
      BOOST_TEST(compiled->validate(instance.as_object()) == valijson, boost::test_tools::per_element());
      // Soundness of the fast path: whatever the direct checks accept, valijson accepts.
      boost::json::value document = schema;
      make_integral_numbers_integers(document);
      if (strict && document.as_object().contains("properties")) document.as_object()["additionalProperties"] = false;
      if (const auto direct = CompiledArgumentSchema::compile(document); direct != nullptr && direct->accepts(instance.as_object())) {
        BOOST_TEST(direct->accepts(instance));
        BOOST_TEST(valijson.empty());
        if (fast_accepts != nullptr) ++*fast_accepts;
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compiled_argument_schema)

BOOST_AUTO_TEST_CASE(answers_are_valijsons_verdicts_and_messages) {
  std::vector<std::string_view> all = kValidFlights;
  all.insert(all.end(), kOtherFlights.begin(), kOtherFlights.end());
  check_same_answers(kFlightSchema, all, false, nullptr);
  check_same_answers(kFlightSchema, all, true, nullptr);
  for (const Corpus& corpus : kOtherSchemas) {
    check_same_answers(corpus.schema, corpus.instances, false, nullptr);
    check_same_answers(corpus.schema, corpus.instances, true, nullptr);
  }
  for (const Corpus& corpus : kValijsonOnlySchemas) check_same_answers(corpus.schema, corpus.instances, false, nullptr);
}

BOOST_AUTO_TEST_CASE(valid_arguments_take_the_fast_path) {
  const boost::json::value schema = exact(kFlightSchema);
  BOOST_TEST(ToolArgumentSchema::compile(&schema.as_object(), false)->has_direct_checks());
  std::size_t accepted = 0;
  check_same_answers(kFlightSchema, kValidFlights, false, &accepted);
  BOOST_TEST(accepted == kValidFlights.size());
  for (std::string_view text : kValidFlights)
    BOOST_TEST(ToolArgumentSchema::compile(&schema.as_object(), false)->validate_with_valijson(exact(text).as_object()).empty(), text);
}

BOOST_AUTO_TEST_CASE(what_the_direct_checks_leave_to_valijson) {
  const boost::json::value flights = exact(kFlightSchema);
  const auto direct = CompiledArgumentSchema::compile(flights);
  BOOST_REQUIRE(direct != nullptr);
  // An unsigned 64-bit integer is a number to valijson but never an integer; not read here.
  BOOST_TEST(!direct->accepts(exact(R"({"origin": "LHR", "price": 18446744073709551615})")));
  // A non-string enum member matches through valijson's equality, not here.
  BOOST_TEST(!direct->accepts(exact(R"({"origin": "LHR", "mixed": 1})")));
  for (const Corpus& corpus : kValijsonOnlySchemas) {
    const boost::json::value schema = exact(corpus.schema);
    BOOST_TEST(CompiledArgumentSchema::compile(schema) == nullptr, corpus.schema);
    BOOST_TEST(!ToolArgumentSchema::compile(&schema.as_object(), false)->has_direct_checks(), corpus.schema);
  }
}

BOOST_AUTO_TEST_SUITE_END()
