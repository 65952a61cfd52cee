#include "tool_call_operands.h"

#include <string>

namespace krino::agent {

namespace {

// actualOutputs[key], present and not null.
const boost::json::value& actual_list(const TestCase& test_case, std::string_view key) {
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
  return *actual;
}

// expectedOutputs[key], present and not null.
const boost::json::value& expected_list(const TestCase& test_case, std::string_view key) {
  const std::string name(key);
  const boost::json::value* expected = test_case.find(Section::expected_outputs, key);
  if (expected == nullptr)
    throw invalid_argument("expectedOutputs has no '" + name + "': give the list of tool calls the agent should make");
  if (expected->is_null())
    throw invalid_argument("expectedOutputs['" + name + "'] is null: give the list of tool calls the agent should make");
  return *expected;
}

std::string actual_label(std::string_view key) { return "actualOutputs." + std::string(key); }
std::string expected_label(std::string_view key) { return "expectedOutputs." + std::string(key); }

}  // namespace

std::vector<ToolCall> read_actual_tool_calls(const TestCase& test_case, std::string_view key) {
  const boost::json::value& actual = actual_list(test_case, key);
  return read_tool_calls(actual, actual_label(key), actual.storage());
}

ToolCallOperands read_tool_call_operands(const TestCase& test_case, std::string_view key) {
  const boost::json::value& expected = expected_list(test_case, key);
  ToolCallOperands operands;
  operands.expected = read_tool_calls(expected, expected_label(key), expected.storage());
  operands.actual = read_actual_tool_calls(test_case, key);
  return operands;
}

std::vector<ToolCallView> view_actual_tool_calls(const TestCase& test_case, std::string_view key) {
  const boost::json::value& actual = actual_list(test_case, key);
  return view_tool_calls(actual, actual_label(key), actual.storage());
}

ToolCallViewOperands view_tool_call_operands(const TestCase& test_case, std::string_view key) {
  const boost::json::value& expected = expected_list(test_case, key);
  ToolCallViewOperands operands;
  operands.expected = view_tool_calls(expected, expected_label(key), expected.storage());
  const boost::json::value& actual = actual_list(test_case, key);
  // Lists with the same bytes share one parsed value (TestCase); their views are then the same
  // too. Had the list a bad call, reading it as the expected list would have thrown already.
  operands.actual = &actual == &expected ? operands.expected : view_tool_calls(actual, actual_label(key), actual.storage());
  return operands;
}

}  // namespace krino::agent
