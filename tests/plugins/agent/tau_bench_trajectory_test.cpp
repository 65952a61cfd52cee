// Real agent trajectories: tau-bench v1 gpt-4o airline runs (see tests/fixtures/shared-data/README.md),
// OpenAI chat messages with ground-truth actions. The conversation reader must take them as they
// are, and the tool evaluators must score them as their definitions say.
#include "test_paths.hpp"
#include "tool_correctness_evaluator.h"
#include "tool_trajectory_evaluator.h"

#include "agent_test_support.hpp"

#include <krino/agent/conversation.hpp>

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
namespace tt = boost::test_tools;

namespace {

const boost::json::array& trajectories() {
  static const boost::json::array runs = [] {
    std::ifstream in(std::string(KRINO_SHARED_DATA_DIR) + "/tau-bench/tau1_historical_gpt-4o-airline.json");
    std::stringstream text;
    text << in.rdbuf();
    return boost::json::parse(text.str()).as_array();
  }();
  return runs;
}

// The run's calls as the agent made them (OpenAI form, arguments as JSON strings) and its
// ground-truth actions as expected calls ({name, kwargs} renamed to {name, arguments}).
boost::json::object run_case(const boost::json::object& run) {
  boost::json::array actual;
  for (const auto& message : run.at("traj").as_array())
    if (const auto* calls = message.as_object().if_contains("tool_calls"); calls != nullptr && calls->is_array())
      for (const auto& call : calls->as_array()) actual.push_back(call);
  boost::json::array expected;
  for (const auto& action : run.at("info").at("task").at("actions").as_array())
    expected.push_back({{"name", action.at("name")}, {"arguments", action.at("kwargs")}});
  return test_case(boost::json::serialize(boost::json::object{{"toolCalls", actual}}),
                   boost::json::serialize(boost::json::object{{"toolCalls", expected}}));
}

double trajectory_score(const std::string& options, const boost::json::object& document) {
  return *evaluate(ToolTrajectoryEvaluator(config(options)), document).score;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tau_bench_trajectories)

BOOST_AUTO_TEST_CASE(every_trajectory_reads_as_a_conversation) {
  const boost::json::array& runs = trajectories();
  BOOST_TEST_REQUIRE(runs.size() == 200u);
  std::size_t calls = 0;
  std::size_t answered = 0;
  std::size_t errors = 0;
  std::size_t tool_messages = 0;
  for (const auto& run : runs) {
    const Conversation conversation = read_conversation(run.at("traj"), "traj");
    for (const Message& message : conversation.messages) tool_messages += message.role == "tool" ? 1 : 0;
    for (const ToolCall& call : conversation.tool_calls()) {
      ++calls;
      if (!call.result) continue;
      ++answered;
      if (call.result->rfind("Error:", 0) == 0) ++errors;
    }
    // At most one call per assistant message in this data set.
    for (const auto& turn : conversation.tool_calls_by_turn()) BOOST_TEST(turn.size() <= 1u);
  }
  BOOST_TEST(calls == 1164u);
  // Ids are reused within 49 runs; every tool message still finds its own call.
  BOOST_TEST(answered == tool_messages);
  BOOST_TEST(errors == 73u);
}

// Task 6, trial 0 (reward 1): six calls, among them the one expected update with the exact
// arguments the ground truth gives (sent as a JSON string, expected as an object).
BOOST_AUTO_TEST_CASE(a_successful_run_scores_as_defined) {
  const boost::json::object& run = trajectories()[6].as_object();
  BOOST_TEST_REQUIRE(run.at("task_id").to_number<int>() == 6);
  BOOST_TEST_REQUIRE(run.at("reward").to_number<double>() == 1.0);
  const boost::json::object document = run_case(run);

  // in_order over the longer list: 1 of 6; over the expected calls: the expected call appears.
  BOOST_TEST(trajectory_score("{}", document) == 1.0 / 6.0, tt::tolerance(1e-12));
  BOOST_TEST(trajectory_score(R"({"in_order_denominator":"expected"})", document) == 1.0);
  BOOST_TEST(trajectory_score(R"({"match_mode":"superset"})", document) == 1.0);
  BOOST_TEST(trajectory_score(R"({"match_mode":"recall"})", document) == 1.0);
  BOOST_TEST(trajectory_score(R"({"match_mode":"precision"})", document) == 1.0 / 6.0, tt::tolerance(1e-12));
  BOOST_TEST(trajectory_score(R"({"match_mode":"strict"})", document) == 0.0);
  BOOST_TEST(trajectory_score(R"({"match_mode":"any_order"})", document) == 1.0 / 6.0, tt::tolerance(1e-12));

  // Six distinct names against one: P = 1/6, R = 1, F1 = 2/7.
  const krino::EvalResult correctness = evaluate(ToolCorrectnessEvaluator(config("{}")), document);
  BOOST_TEST(*correctness.score == 2.0 / 7.0, tt::tolerance(1e-12));
  BOOST_TEST(correctness.metadata.at("missingTools").as_array().empty());
}

BOOST_AUTO_TEST_SUITE_END()
