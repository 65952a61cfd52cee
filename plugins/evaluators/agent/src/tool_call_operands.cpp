#include "tool_call_operands.h"

#include <string>

namespace krino::agent {

ToolCallOperands read_tool_call_operands(const TestCase& test_case, std::string_view key) {
  const std::string name(key);
  const boost::json::value* expected = test_case.find(Section::expected_outputs, key);
  if (expected == nullptr)
    throw invalid_argument("expectedOutputs has no '" + name + "': give the list of tool calls the agent should make");
  if (expected->is_null())
    throw invalid_argument("expectedOutputs['" + name + "'] is null: give the list of tool calls the agent should make");
  ToolCallOperands operands;
  operands.expected = read_tool_calls(*expected, "expectedOutputs." + name, expected->storage());
  const boost::json::value* actual = test_case.find(Section::actual_outputs, key);
  if (actual != nullptr && !actual->is_null()) operands.actual = read_tool_calls(*actual, "actualOutputs." + name, actual->storage());
  return operands;
}

}  // namespace krino::agent
