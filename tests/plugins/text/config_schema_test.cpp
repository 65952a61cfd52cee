// The configuration schemas: valid draft-7 schemas the host's validator (valijson, as core uses
// it) accepts, documenting every option, and agreeing with what the evaluators really do.
#include "contains_evaluator.h"
#include "exact_match_evaluator.h"
#include "length_evaluator.h"
#include "regex_evaluator.h"
#include "retrieval_evaluator.h"
#include "structural_match_evaluator.h"

#include "text_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace krino::text;
using namespace krino::text::testing;

namespace {

struct Component {
  std::string name;
  const char* schema;
  std::string minimal_config;  // the least a user must write
  std::function<krino::EvalResult(const krino::Config&)> run;  // creates the evaluator and scores one case
};

template <class Evaluator>
std::function<krino::EvalResult(const krino::Config&)> runner(std::string actual, std::string expected) {
  return [actual, expected](const krino::Config& c) { return evaluate(Evaluator(c), actual, expected); };
}

std::vector<Component> components() {
  return {
      {"exact_match", ExactMatchEvaluator::kConfigSchema, "{}", runner<ExactMatchEvaluator>(R"({"output": "a"})", R"({"output": "a"})")},
      {"regex", RegexEvaluator::kConfigSchema, R"({"pattern": "a"})", runner<RegexEvaluator>(R"({"output": "a"})", "{}")},
      {"contains", ContainsEvaluator::kConfigSchema, R"({"value": "a"})", runner<ContainsEvaluator>(R"({"output": "a"})", "{}")},
      {"length", LengthEvaluator::kConfigSchema, R"({"max": 5})", runner<LengthEvaluator>(R"({"output": "a"})", "{}")},
      {"structural_match", StructuralMatchEvaluator::kConfigSchema, "{}",
       runner<StructuralMatchEvaluator>(R"({"output": {"a": 1}})", R"({"output": {"a": 1}})")},
      {"precision", PrecisionEvaluator::kConfigSchema, "{}", runner<PrecisionEvaluator>(R"({"retrieved": ["a"]})", R"({"relevant": ["a"]})")},
      {"recall", RecallEvaluator::kConfigSchema, "{}", runner<RecallEvaluator>(R"({"retrieved": ["a"]})", R"({"relevant": ["a"]})")},
  };
}

// The host's validation, as core/src/plugin/config_validator.cpp does it.
class HostValidator {
 public:
  explicit HostValidator(const char* schema_text) : document_(boost::json::parse(schema_text)) {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::BoostJsonAdapter adapter(document_);
    parser.populateSchema(adapter, schema_);
  }
  bool accepts(std::string_view config_json) const {
    const boost::json::value config_value = boost::json::parse(config_json);
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::adapters::BoostJsonAdapter target(config_value);
    return validator.validate(schema_, target, nullptr);
  }

 private:
  boost::json::value document_;
  valijson::Schema schema_;
};

// Options that have no default because they are required (alone or one of a pair).
bool required_without_default(const std::string& component, const std::string& option) {
  return (component == "regex" && option == "pattern") ||
         (component == "contains" && (option == "value" || option == "values"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(config_schema)

BOOST_AUTO_TEST_CASE(every_schema_is_a_closed_draft_7_object_schema) {
  for (const Component& c : components()) {
    BOOST_TEST_CONTEXT(c.name) {
      const boost::json::object schema = boost::json::parse(c.schema).as_object();
      BOOST_TEST(schema.at("$schema").as_string() == "http://json-schema.org/draft-07/schema#");
      BOOST_TEST(schema.at("title").as_string() == c.name);
      BOOST_TEST(!schema.at("description").as_string().empty());
      BOOST_TEST(schema.at("type").as_string() == "object");
      BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
      BOOST_CHECK_NO_THROW(HostValidator{c.schema});
    }
  }
}

BOOST_AUTO_TEST_CASE(every_option_has_a_type_a_description_and_a_default) {
  for (const Component& c : components()) {
    const boost::json::object schema = boost::json::parse(c.schema).as_object();
    for (const auto& property : schema.at("properties").as_object()) {
      const std::string option(property.key());
      BOOST_TEST_CONTEXT(c.name << "." << option) {
        const boost::json::object& p = property.value().as_object();
        BOOST_TEST(p.contains("type"));
        BOOST_TEST(p.at("description").as_string().size() > 20u);
        BOOST_TEST(p.contains("default") != required_without_default(c.name, option));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(enums_are_lower_snake_case) {
  for (const Component& c : components()) {
    const std::string text = c.schema;
    const boost::json::value schema = boost::json::parse(text);
    std::function<void(const boost::json::value&)> visit = [&](const boost::json::value& v) {
      if (v.is_object()) {
        for (const auto& member : v.get_object()) {
          if (member.key() == "enum") {
            for (const auto& choice : member.value().as_array()) {
              const std::string s(choice.as_string());
              BOOST_TEST_CONTEXT(c.name << " enum " << s) {
                for (char ch : s) BOOST_TEST(((ch >= 'a' && ch <= 'z') || ch == '_'));
              }
            }
          }
          visit(member.value());
        }
      } else if (v.is_array()) {
        for (const auto& item : v.get_array()) visit(item);
      }
    };
    visit(schema);
  }
}

BOOST_AUTO_TEST_CASE(the_documented_name_and_threshold_defaults_are_the_real_ones) {
  for (const Component& c : components()) {
    BOOST_TEST_CONTEXT(c.name) {
      const boost::json::object schema = boost::json::parse(c.schema).as_object();
      const boost::json::object& properties = schema.at("properties").as_object();
      const krino::EvalResult result = c.run(config(c.minimal_config));
      BOOST_TEST(result.name == std::string(properties.at("name").at("default").as_string()));
      BOOST_TEST(result.name == c.name);
      BOOST_TEST(*result.threshold == properties.at("threshold").at("default").to_number<double>());
      BOOST_TEST(*result.score == 1.0);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_host_accepts_what_the_evaluators_accept) {
  const std::vector<std::pair<const char*, std::vector<std::string>>> valid = {
      {ExactMatchEvaluator::kConfigSchema, {"{}", R"({"trim_whitespace": true, "ignore_case": true, "output_key": "a", "name": "n", "threshold": 0})"}},
      {RegexEvaluator::kConfigSchema, {R"({"pattern": "x", "negate": true, "ignore_case": false, "threshold": 0.5})"}},
      {ContainsEvaluator::kConfigSchema, {R"({"value": "x"})", R"({"values": ["x", "y"], "mode": "any", "ignore_case": true})"}},
      {LengthEvaluator::kConfigSchema, {R"({"min": 1})", R"({"max": 3})", R"({"min": 1, "max": null, "unit": "words"})"}},
      {StructuralMatchEvaluator::kConfigSchema, {"{}", R"({"match_mode": "lenient", "binary": true})"}},
      {PrecisionEvaluator::kConfigSchema,
       {"{}", R"({"matching": {"strategy": "field", "field": "id"}})",
        R"({"matching": {"strategy": "any_of", "strategies": [{"strategy": "containment", "normalize": true}, {}]}})",
        R"({"retrieved_key": "docs", "expected_key": "gold", "matching": {"strategy": "fields", "fields": ["a", "b"]}})"}},
  };
  for (const auto& [schema, configs] : valid) {
    const HostValidator validator(schema);
    for (const std::string& c : configs) {
      BOOST_TEST_CONTEXT(c) { BOOST_TEST(validator.accepts(c)); }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_host_rejects_bad_configurations_before_the_evaluator_sees_them) {
  const std::vector<std::pair<const char*, std::vector<std::string>>> invalid_configs = {
      {ExactMatchEvaluator::kConfigSchema,
       {R"({"trim": true})", R"({"ignore_case": "yes"})", R"({"threshold": 1.5})", R"({"name": ""})"}},
      {RegexEvaluator::kConfigSchema, {"{}", R"({"pattern": ""})", R"({"pattern": "x", "negate": 1})"}},
      {ContainsEvaluator::kConfigSchema,
       {"{}", R"({"value": "a", "values": ["b"]})", R"({"values": []})", R"({"value": "a", "mode": "most"})"}},
      {LengthEvaluator::kConfigSchema, {"{}", R"({"min": -1})", R"({"max": 2.5})", R"({"max": 3, "unit": "bytes"})"}},
      {StructuralMatchEvaluator::kConfigSchema, {R"({"match_mode": "STRICT"})", R"({"mode": "strict"})"}},
      {RecallEvaluator::kConfigSchema,
       {R"({"matching": {"strategy": "llm"}})", R"({"matching": {"strategy": "field"}})",
        R"({"matching": {"strategy": "fields"}})", R"({"matching": {"strategy": "any_of"}})",
        R"({"matching": {"strategy": "any_of", "strategies": [{"strategy": "bogus"}]}})",
        R"({"matching": {"strategy": "equality", "extra": 1}})", R"({"matching": "equality"})"}},
  };
  for (const auto& [schema, configs] : invalid_configs) {
    const HostValidator validator(schema);
    for (const std::string& c : configs) {
      BOOST_TEST_CONTEXT(c) { BOOST_TEST(!validator.accepts(c)); }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
