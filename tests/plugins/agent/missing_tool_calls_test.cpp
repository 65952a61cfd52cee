// Every evaluator that reads the agent's calls from actualOutputs.toolCalls refuses a missing or
// null list, as the reference evaluators do: tasks and trace extractors write [] for "no calls",
// so a missing list is a wrongly wired key and must not score as an agent that called nothing.
#include "agent_test_support.hpp"
#include "tool_call_validity_evaluator.h"
#include "tool_correctness_evaluator.h"
#include "tool_efficiency_evaluator.h"
#include "tool_error_evaluator.h"
#include "tool_trajectory_evaluator.h"

#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace krino;
using namespace krino::agent;
using namespace krino::agent::testing;

namespace {

struct NamedEvaluator {
  std::string name;
  std::function<EvalResult(const boost::json::object&)> run;
};

template <class Evaluator>
NamedEvaluator named(std::string name) {
  auto evaluator = std::make_shared<Evaluator>(config("{}"));
  return {std::move(name), [evaluator](const boost::json::object& document) { return evaluate(*evaluator, document); }};
}

std::vector<NamedEvaluator> every_call_reader() {
  return {named<ToolTrajectoryEvaluator>("tool_trajectory"), named<ToolCorrectnessEvaluator>("tool_correctness"),
          named<ToolEfficiencyEvaluator>("tool_efficiency"), named<ToolErrorEvaluator>("tool_error"),
          named<ToolCallValidityEvaluator>("tool_call_validity")};
}

// A test case with `actual_outputs`, an empty expected list and an empty tool list.
boost::json::object case_with(std::string_view actual_outputs) {
  boost::json::object document = test_case(actual_outputs, R"({"toolCalls":[]})");
  document["metadata"] = boost::json::object{{"tools", boost::json::array()}};
  return document;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(missing_tool_calls)

BOOST_AUTO_TEST_CASE(a_missing_actual_list_is_an_item_error) {
  for (const NamedEvaluator& evaluator : every_call_reader()) {
    BOOST_TEST_CONTEXT(evaluator.name) {
      BOOST_CHECK_EXCEPTION(evaluator.run(case_with(R"({"output":"done"})")), krino::Error,
                            invalid("actualOutputs has no 'toolCalls'"));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_null_actual_list_is_an_item_error) {
  for (const NamedEvaluator& evaluator : every_call_reader()) {
    BOOST_TEST_CONTEXT(evaluator.name) {
      BOOST_CHECK_EXCEPTION(evaluator.run(case_with(R"({"toolCalls":null})")), krino::Error,
                            invalid("actualOutputs['toolCalls'] is null"));
    }
  }
}

BOOST_AUTO_TEST_CASE(an_empty_actual_list_is_no_calls) {
  for (const NamedEvaluator& evaluator : every_call_reader()) {
    BOOST_TEST_CONTEXT(evaluator.name) {
      const EvalResult r = evaluator.run(case_with(R"({"toolCalls":[]})"));
      BOOST_TEST(*r.score == 1.0);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_error_names_a_renamed_key) {
  const ToolEfficiencyEvaluator evaluator(config(R"({"tool_calls_key":"calls"})"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case(R"({"toolCalls":[]})")), krino::Error,
                        invalid("actualOutputs has no 'calls'"));
}

BOOST_AUTO_TEST_SUITE_END()
