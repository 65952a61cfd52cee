// tool_name_reliability, tool_description_reliability and tool_selection through the built
// krino-agent.so: found in its descriptor, created and run through the module's own vtables.
#include "test_paths.hpp"
#include "tool_description_reliability_evaluator.h"
#include "tool_name_reliability_evaluator.h"
#include "tool_selection_evaluator.h"

#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "loaded_module.hpp"

#include <string>

namespace {

using Outcome = krino::test::AbiOutcome;

// The built module, loaded for one test and unloaded after it.
class LoadedAgentPlugin : public krino::test::LoadedModule {
 public:
  LoadedAgentPlugin() : LoadedModule(std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-agent.so") {}
  Outcome run(const std::string& name, const std::string& config, const std::string& test_case) const {
    return evaluate(name, config, test_case);
  }
};

const char* const kReliabilityAbiTools = R"({"inputs":{},"actualOutputs":{},"expectedOutputs":{},"metadata":{"tools":[
  {"name":"search_flights","description":"Find flights","parameters":{"type":"object",
     "properties":{"origin":{"type":"string","description":"IATA code"}},"required":["origin"]}},
  {"name":"fetch_orders_Via_Api","parameters":{"type":"object","properties":{"id":{}}}}]}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(reliability_abi)

BOOST_AUTO_TEST_CASE(the_module_registers_the_three_evaluators) {
  const LoadedAgentPlugin plugin;
  for (const auto& [name, id] : {std::pair<std::string, std::string>{"tool_name_reliability", "krino.tool_name_reliability"},
                                 {"tool_description_reliability", "krino.tool_description_reliability"},
                                 {"tool_selection", "krino.tool_selection"}}) {
    BOOST_TEST_CONTEXT(name) {
      const krino_component* c = plugin.component(name);
      BOOST_TEST_REQUIRE(c != nullptr);
      BOOST_TEST(c->kind == KRINO_KIND_EVALUATOR);
      BOOST_TEST(std::string(c->id) == id);
      BOOST_TEST(std::string(c->version) == "1.0.0");
      // The reliability evaluators may ask a judge (llm_checks), so they are not DETERMINISTIC.
      const uint64_t expected = name == "tool_selection" ? (KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC)
                                                         : (KRINO_CAP_THREAD_SAFE | KRINO_CAP_NEEDS_JUDGE);
      BOOST_TEST(c->capabilities == expected);
      BOOST_TEST(boost::json::parse(c->config_schema).at("title").as_string() == name);
    }
  }
}

BOOST_AUTO_TEST_CASE(tool_name_reliability_through_the_module) {
  const LoadedAgentPlugin plugin;
  const Outcome o = plugin.run("tool_name_reliability", "{}", kReliabilityAbiTools);
  BOOST_TEST(o.status == KRINO_OK, o.error);
  const boost::json::value r = boost::json::parse(o.result);
  BOOST_TEST(r.at("name").as_string() == "tool_name_reliability");
  // search_flights 3/3; fetch_orders_Via_Api fails snake case and the blocklist (case-insensitive): 1/3.
  BOOST_TEST(r.at("score").to_number<double>() == (1.0 + 1.0 / 3.0) / 2.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(!r.at("success").as_bool());
  BOOST_TEST(r.at("metadata").at("perToolResults").at(1).at("checks").at("clarity").as_string() == "skipped");

  const Outcome missing = plugin.run("tool_name_reliability", "{}", R"({"inputs":{},"metadata":{}})");
  BOOST_TEST(missing.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(missing.error.find("metadata has no 'tools'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(tool_description_reliability_through_the_module) {
  const LoadedAgentPlugin plugin;
  const Outcome o = plugin.run("tool_description_reliability", R"({"threshold":0.7})", kReliabilityAbiTools);
  BOOST_TEST(o.status == KRINO_OK, o.error);
  const boost::json::value r = boost::json::parse(o.result);
  // search_flights 4/4; fetch_orders_Via_Api: "id" has no description and no type: 2/4.
  BOOST_TEST(r.at("score").to_number<double>() == 0.75);
  BOOST_TEST(r.at("success").as_bool());
  BOOST_TEST(r.at("metadata").at("perToolResults").at(1).at("checks").at("input_arguments_types").as_bool() == false);

  const Outcome bad = plugin.run("tool_description_reliability", R"({"max_input_args":-2})", kReliabilityAbiTools);
  BOOST_TEST(bad.status == KRINO_INVALID_ARGUMENT);
}

BOOST_AUTO_TEST_CASE(tool_selection_through_the_module) {
  const LoadedAgentPlugin plugin;
  const Outcome o = plugin.run("tool_selection", "{}", R"({"inputs":{"input":"show me main.cpp"},
      "actualOutputs":{"toolCalls":[{"name":"list_files"},{"name":"read_file"}]},
      "expectedOutputs":{"expectedTool":"read_file","secondaryTools":["list_files"]},"metadata":{}})");
  BOOST_TEST(o.status == KRINO_OK, o.error);
  const boost::json::value r = boost::json::parse(o.result);
  BOOST_TEST(r.at("name").as_string() == "tool_selection");
  BOOST_TEST(r.at("score").to_number<double>() == 0.5);
  BOOST_TEST(r.at("success").as_bool());
  BOOST_TEST(r.at("metadata").at("rule").as_string() == "secondary_tool");
  BOOST_TEST(r.at("metadata").at("actualTool").as_string() == "list_files");
}

BOOST_AUTO_TEST_CASE(schemas_declare_every_option_with_a_default_and_a_description) {
  for (const char* schema : {krino::agent::ToolNameReliabilityEvaluator::kConfigSchema,
                             krino::agent::ToolDescriptionReliabilityEvaluator::kConfigSchema,
                             krino::agent::ToolSelectionEvaluator::kConfigSchema}) {
    const boost::json::value parsed = boost::json::parse(schema);
    BOOST_TEST(parsed.at("$schema").as_string() == "http://json-schema.org/draft-07/schema#");
    BOOST_TEST(parsed.at("additionalProperties").as_bool() == false);
    for (const auto& property : parsed.at("properties").as_object()) {
      BOOST_TEST_CONTEXT(parsed.at("title").as_string() << "." << property.key()) {
        BOOST_TEST(property.value().as_object().contains("default"));
        BOOST_TEST(property.value().as_object().contains("description"));
      }
    }
  }
}

// Each schema's defaults, fed back as a configuration, are accepted and change nothing.
BOOST_AUTO_TEST_CASE(schema_defaults_are_accepted_as_a_configuration) {
  auto defaults_of = [](const char* schema) {
    boost::json::object config;
    const boost::json::value parsed = boost::json::parse(schema);
    for (const auto& property : parsed.at("properties").as_object())
      config[property.key()] = property.value().at("default");
    return krino::Config(config);
  };
  const krino::agent::ToolNameReliabilityEvaluator names(defaults_of(krino::agent::ToolNameReliabilityEvaluator::kConfigSchema));
  const krino::agent::ToolDescriptionReliabilityEvaluator descriptions(
      defaults_of(krino::agent::ToolDescriptionReliabilityEvaluator::kConfigSchema));
  const krino::agent::ToolSelectionEvaluator selection(defaults_of(krino::agent::ToolSelectionEvaluator::kConfigSchema));
  const boost::json::object document = boost::json::parse(kReliabilityAbiTools).as_object();
  const krino::TestCase tc(document);
  krino::CallContext ctx(nullptr, nullptr);
  const krino::agent::ToolNameReliabilityEvaluator plain_names(krino::Config{});
  BOOST_TEST(*names.evaluate(tc, ctx).score == *plain_names.evaluate(tc, ctx).score);
  BOOST_TEST(*descriptions.evaluate(tc, ctx).score == 0.75);
  const boost::json::object choice = boost::json::parse(R"({"actualOutputs":{"toolCalls":[{"name":"a"}]},
                                                          "expectedOutputs":{"expectedTool":"a"}})").as_object();
  BOOST_TEST(*selection.evaluate(krino::TestCase(choice), ctx).score == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
