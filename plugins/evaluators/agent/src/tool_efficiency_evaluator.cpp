#include "tool_efficiency_evaluator.h"

#include "schema_join.h"
#include "tool_call_operands.h"
#include "tool_call_options.h"

#include <krino/agent/tool_call.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace krino::agent {

namespace {

constexpr char kEfficiencyOwnOptions[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_efficiency",
  "description": "Share of the agent's tool calls that were not repeats: distinct calls / all calls, where a call repeats an earlier one when the names are equal and the arguments match (argument matcher, the earlier call in the expected role; by default equal by value, 1 equals 1.0).",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_efficiency",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold. The default 1.0 accepts no repeated call; legitimate retries lower the score too, so consider a lower threshold."},
    "tool_calls_key": {"type": "string", "minLength": 1, "default": "toolCalls",
                       "description": "Key of the agent's tool calls in actualOutputs ([] for no calls; a missing or null list is an error)."},)json";

constexpr char kEfficiencyClosing[] = R"json(  },
  "additionalProperties": false
})json";

constexpr auto kToolEfficiencyEvaluatorSchema = join(kEfficiencyOwnOptions, kArgumentMatchingOptionsSchema, kEfficiencyClosing);

}  // namespace

const char* const ToolEfficiencyEvaluator::kConfigSchema = kToolEfficiencyEvaluatorSchema.data();

ToolEfficiencyEvaluator::ToolEfficiencyEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      tool_calls_key_(read_key_option(config, "tool_calls_key")),
      same_call_(read_tool_call_matcher(config)) {}

EvalResult ToolEfficiencyEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  std::vector<ToolCall> calls = read_actual_tool_calls(test_case, tool_calls_key_);

  std::vector<std::size_t> distinct;  // indices of first occurrences
  boost::json::array redundant;
  boost::json::array consecutive;
  for (std::size_t index = 0; index < calls.size(); ++index) {
    bool seen = false;
    for (std::size_t earlier : distinct) {
      if (same_call_.matches(calls[earlier], calls[index])) {
        seen = true;
        break;
      }
    }
    if (seen) redundant.emplace_back(calls[index].name);
    else distinct.push_back(index);
    if (index > 0 && same_call_.matches(calls[index - 1], calls[index])) consecutive.emplace_back(calls[index].name);
  }

  const double score =
      calls.empty() ? 1.0 : static_cast<double>(distinct.size()) / static_cast<double>(calls.size());
  std::string reason = calls.empty() ? "no tool calls were made"
                                     : std::to_string(distinct.size()) + " of " + std::to_string(calls.size()) +
                                           (calls.size() == 1 ? " tool call" : " tool calls") +
                                           (distinct.size() == 1 ? " was distinct" : " were distinct");
  if (!consecutive.empty())
    reason += "; " + std::to_string(consecutive.size()) + " repeated the call just before (possible loop)";

  EvalResult result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  result.metadata["totalCalls"] = calls.size();
  result.metadata["distinctCalls"] = distinct.size();
  result.metadata["redundantCalls"] = std::move(redundant);
  result.metadata["consecutiveDuplicates"] = std::move(consecutive);
  result.metadata["argumentMatching"] = describe_matcher(same_call_);
  return result;
}

}  // namespace krino::agent
