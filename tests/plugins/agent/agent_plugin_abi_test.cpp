// The tool evaluators through the C ABI trampolines the plugin registers: JSON text in and out.
#include "tool_correctness_evaluator.h"
#include "tool_trajectory_evaluator.h"

#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "evaluator_abi_call.hpp"

#include <string>

namespace {

using Outcome = krino::test::AbiOutcome;

template <class T>
Outcome agent_plugin_abi_run(const std::string& config, const std::string& test_case) {
  return krino::test::evaluate_through_abi<T>(config, test_case);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_plugin_abi)

BOOST_AUTO_TEST_CASE(tool_correctness_through_the_trampolines) {
  const Outcome o = agent_plugin_abi_run<krino::agent::ToolCorrectnessEvaluator>(
      R"({"match_mode":"names_and_args"})",
      R"({"inputs":{},"actualOutputs":{"toolCalls":[{"name":"f","arguments":"{\"n\":2.0}"}]},
          "expectedOutputs":{"toolCalls":[{"name":"f","arguments":{"n":2}}]},"metadata":{}})");
  BOOST_TEST(o.status == KRINO_OK);
  BOOST_TEST(o.error.empty());
  const boost::json::value r = boost::json::parse(o.result);
  BOOST_TEST(r.at("name").as_string() == "tool_correctness");
  BOOST_TEST(r.at("score").to_number<double>() == 1.0);
  BOOST_TEST(r.at("success").as_bool());
  BOOST_TEST(r.at("metadata").at("matchMode").as_string() == "names_and_args");
}

BOOST_AUTO_TEST_CASE(tool_trajectory_through_the_trampolines) {
  const Outcome o = agent_plugin_abi_run<krino::agent::ToolTrajectoryEvaluator>(
      R"({"match_mode":"precision","threshold":0.5})",
      R"({"inputs":{},"actualOutputs":{"toolCalls":[{"name":"a"},{"name":"x"}]},
          "expectedOutputs":{"toolCalls":[{"name":"a"}]},"metadata":{}})");
  BOOST_TEST(o.status == KRINO_OK);
  const boost::json::value r = boost::json::parse(o.result);
  BOOST_TEST(r.at("score").to_number<double>() == 0.5);
  BOOST_TEST(r.at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(a_missing_expected_list_is_an_invalid_argument) {
  const Outcome o = agent_plugin_abi_run<krino::agent::ToolTrajectoryEvaluator>(
      "{}", R"({"inputs":{},"actualOutputs":{"toolCalls":[]},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(o.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(o.error.find("expectedOutputs has no 'toolCalls'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(schemas_are_valid_json_with_defaults_and_descriptions) {
  for (const char* schema : {krino::agent::ToolCorrectnessEvaluator::kConfigSchema,
                             krino::agent::ToolTrajectoryEvaluator::kConfigSchema}) {
    const boost::json::value parsed = boost::json::parse(schema);
    BOOST_TEST(parsed.at("additionalProperties").as_bool() == false);
    for (const auto& property : parsed.at("properties").as_object()) {
      BOOST_TEST_INFO(property.key());
      BOOST_TEST(property.value().as_object().contains("default"));
      BOOST_TEST(property.value().as_object().contains("description"));
    }
  }
  const auto created = agent_plugin_abi_run<krino::agent::ToolTrajectoryEvaluator>(R"({"bogus":1})", "{}");
  BOOST_TEST(created.status == KRINO_INVALID_ARGUMENT);
}

BOOST_AUTO_TEST_SUITE_END()
