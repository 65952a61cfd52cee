#include "tool_call_operands.h"

#include <string>

namespace krino::agent {

std::vector<ToolCall> read_actual_tool_calls(const TestCase& test_case, std::string_view key) {
  const std::string name(key);
  const boost::json::value* actual = test_case.find(Section::actual_outputs, key);
  // Tasks and trace extractors write [] for an agent that called nothing; a missing list is a
  // key that points nowhere.
  if (actual == nullptr)
    throw invalid_argument("actualOutputs has no '" + name +
                           "': the agent's tool calls are not there (an agent that called no tool has []); check "
                           "tool_calls_key and the dataset's field mapping");
  if (actual->is_null())
    throw invalid_argument("actualOutputs['" + name + "'] is null: give the list of tool calls the agent made ([] for none)");
  return read_tool_calls(*actual, "actualOutputs." + name, actual->storage());
}

ToolCallOperands read_tool_call_operands(const TestCase& test_case, std::string_view key) {
  const std::string name(key);
  const boost::json::value* expected = test_case.find(Section::expected_outputs, key);
  if (expected == nullptr)
    throw invalid_argument("expectedOutputs has no '" + name + "': give the list of tool calls the agent should make");
  if (expected->is_null())
    throw invalid_argument("expectedOutputs['" + name + "'] is null: give the list of tool calls the agent should make");
  ToolCallOperands operands;
  operands.expected = read_tool_calls(*expected, "expectedOutputs." + name, expected->storage());
  operands.actual = read_actual_tool_calls(test_case, key);
  return operands;
}

}  // namespace krino::agent
