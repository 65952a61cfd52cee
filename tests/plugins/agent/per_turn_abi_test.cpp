// per_turn through the C ABI: the trampolines its registration uses, and the component the built
// krino-agent.so registers.
#include "per_turn_evaluator.h"
#include "test_paths.hpp"

#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "evaluator_abi_call.hpp"
#include "loaded_module.hpp"

#include <string>

namespace {

using Outcome = krino::test::AbiOutcome;

const std::string kTripCase = R"({"inputs":{},"metadata":{"tools":[{"name":"get_weather"},{"name":"book_hotel"}]},
  "actualOutputs":{"conversation":{"scenario":"trip","messages":[
    {"role":"user","content":"Weather in Paris?"},
    {"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function",
        "function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},
    {"role":"tool","tool_call_id":"c1","content":"sunny"},
    {"role":"assistant","content":"Sunny."},
    {"role":"user","content":"Book a hotel."},
    {"role":"assistant","content":"Booked.","toolCalls":[{"name":"book_hotel","arguments":{"city":"Paris","nights":2.0}}]}]}},
  "expectedOutputs":{"toolCallsByTurn":[
    [{"name":"get_weather","arguments":{"city":"Paris"}}],
    [],
    [{"name":"book_hotel","arguments":{"city":"Paris","nights":2}}]]}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(per_turn_abi)

BOOST_AUTO_TEST_CASE(per_turn_through_the_trampolines) {
  const Outcome o = krino::test::evaluate_through_abi<krino::agent::PerTurnEvaluator>(
      R"({"evaluator":"tool_correctness","options":{"match_mode":"names_and_args"},"aggregate":"all_pass"})", kTripCase);
  BOOST_TEST(o.status == KRINO_OK, o.error);
  const boost::json::value r = boost::json::parse(o.result);
  BOOST_TEST(r.at("name").as_string() == "tool_correctness_per_turn");
  BOOST_TEST(r.at("score").to_number<double>() == 1.0);
  BOOST_TEST(r.at("success").as_bool());
  BOOST_TEST(r.at("reason").as_string() == "3 turns; 3 of 3 passed");
  BOOST_TEST(r.at("metadata").at("turns").as_array().size() == 3u);
}

BOOST_AUTO_TEST_CASE(configuration_and_test_case_errors_are_invalid_argument) {
  const Outcome unknown = krino::test::evaluate_through_abi<krino::agent::PerTurnEvaluator>(
      R"({"evaluator":"judge_me"})", kTripCase);
  BOOST_TEST(unknown.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(unknown.error.find("tool_correctness, tool_trajectory") != std::string::npos, unknown.error);

  const Outcome bad_inner = krino::test::evaluate_through_abi<krino::agent::PerTurnEvaluator>(
      R"({"evaluator":"tool_trajectory","options":{"match_mode":"sideways"}})", kTripCase);
  BOOST_TEST(bad_inner.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(bad_inner.error.find("options/match_mode") != std::string::npos, bad_inner.error);

  const Outcome no_conversation = krino::test::evaluate_through_abi<krino::agent::PerTurnEvaluator>(
      R"({"evaluator":"tool_error"})", R"({"inputs":{},"actualOutputs":{},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(no_conversation.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(no_conversation.error.find("actualOutputs has no 'conversation'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_schema_describes_every_option) {
  const boost::json::value schema = boost::json::parse(krino::agent::PerTurnEvaluator::kConfigSchema);
  BOOST_TEST(schema.at("additionalProperties").as_bool() == false);
  BOOST_TEST(schema.at("required") == boost::json::parse(R"(["evaluator"])"));
  for (const auto& property : schema.at("properties").as_object()) {
    BOOST_TEST_INFO(property.key());
    BOOST_TEST(property.value().as_object().contains("description"));
  }
}

// Needs the module built (ninja krino_plugin_agent, which a full build does before ctest runs).
BOOST_AUTO_TEST_CASE(the_built_module_runs_per_turn) {
  const krino::test::LoadedModule module(std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-agent.so");
  const krino_component* component = module.component("per_turn");
  BOOST_TEST_REQUIRE(component != nullptr, "krino-agent.so registers no per_turn evaluator");
  BOOST_TEST(std::string(component->id) == "krino.per_turn");
  BOOST_TEST(component->capabilities == (KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC));
  BOOST_TEST(boost::json::parse(component->config_schema).at("title").as_string() == "per_turn");

  const Outcome o = module.evaluate("per_turn", R"({"evaluator":"tool_trajectory","aggregate":"mean","name":"trip_turns"})", kTripCase);
  BOOST_TEST(o.status == KRINO_OK, o.error);
  const boost::json::value r = boost::json::parse(o.result);
  BOOST_TEST(r.at("name").as_string() == "trip_turns");
  BOOST_TEST(r.at("score").to_number<double>() == 1.0);
  BOOST_TEST(r.at("metadata").at("turnCount").to_number<int>() == 3);
  BOOST_TEST(r.at("metadata").at("turns").at(1).at("reason").is_string());

  const Outcome bad = module.evaluate("per_turn", R"({"evaluator":"tool_correctness","options":{"tool_calls_key":"calls"}})", kTripCase);
  BOOST_TEST(bad.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(bad.error.find("options.tool_calls_key") != std::string::npos, bad.error);
}

BOOST_AUTO_TEST_SUITE_END()
