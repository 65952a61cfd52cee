// The OpenJudge graders' configuration schemas: draft-7, closed, every option described and given
// a default, and the defaults are what the evaluators really use.
#include "openjudge_action_loop_detection.h"
#include "openjudge_observation_information_gain.h"
#include "openjudge_tool_call_sequence_match.h"

#include "openjudge_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace krino::agent::openjudge;
using namespace krino::agent::openjudge::testing;

namespace {

struct Grader {
  std::string name;
  const char* schema;
  std::function<krino::EvalResult(const krino::Config&)> run;  // creates the grader and scores an empty conversation
};

template <class Evaluator>
std::function<krino::EvalResult(const krino::Config&)> runner() {
  return [](const krino::Config& c) {
    return evaluate(Evaluator(c), conversation_case("[]", R"({"referenceToolCalls": []})"));
  };
}

std::vector<Grader> graders() {
  return {{"action_loop_detection", ActionLoopDetectionEvaluator::kConfigSchema, runner<ActionLoopDetectionEvaluator>()},
          {"tool_call_sequence_match", ToolCallSequenceMatchEvaluator::kConfigSchema, runner<ToolCallSequenceMatchEvaluator>()},
          {"observation_information_gain", ObservationInformationGainEvaluator::kConfigSchema,
           runner<ObservationInformationGainEvaluator>()}};
}

// A configuration naming every option with its schema default.
krino::Config defaults_of(const boost::json::object& schema) {
  boost::json::object options;
  for (const auto& property : schema.at("properties").as_object()) options[property.key()] = property.value().at("default");
  return krino::Config(options);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_config_schema)

BOOST_AUTO_TEST_CASE(schemas_are_closed_draft7_documents_describing_every_option) {
  for (const Grader& grader : graders()) {
    BOOST_TEST_CONTEXT(grader.name) {
      const boost::json::object schema = boost::json::parse(grader.schema).as_object();
      BOOST_TEST(schema.at("$schema").as_string() == "http://json-schema.org/draft-07/schema#");
      BOOST_TEST(schema.at("title").as_string() == grader.name);
      BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
      for (const auto& property : schema.at("properties").as_object()) {
        BOOST_TEST_CONTEXT(property.key()) {
          BOOST_TEST(!property.value().at("description").as_string().empty());
          BOOST_TEST(property.value().as_object().contains("default"));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(schema_defaults_match_the_evaluators_defaults) {
  for (const Grader& grader : graders()) {
    BOOST_TEST_CONTEXT(grader.name) {
      const boost::json::object schema = boost::json::parse(grader.schema).as_object();
      const krino::EvalResult implicit = grader.run(config("{}"));
      const krino::Config explicit_defaults = defaults_of(schema);
      const krino::EvalResult spelled_out = grader.run(explicit_defaults);
      BOOST_TEST(implicit.name == grader.name);
      BOOST_TEST(spelled_out.name == grader.name);
      BOOST_TEST(*implicit.threshold == schema.at("properties").at("threshold").at("default").to_number<double>());
      BOOST_TEST(*spelled_out.threshold == *implicit.threshold);
      BOOST_TEST(*spelled_out.score == *implicit.score);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
