// The tool-call lists an evaluator reads from a test case.
//
// A missing or null list is a broken test case on either side: an error naming the key, as the
// reference evaluators raise. Every task and trace extractor writes actualOutputs.toolCalls, as []
// when the agent called no tool, so a missing actual list means a wrongly wired key (a typo in
// tool_calls_key, a field mapping that found nothing), which must not score as "no calls". An
// empty list is "no calls".
#ifndef KRINO_AGENT_TOOL_CALL_OPERANDS_H
#define KRINO_AGENT_TOOL_CALL_OPERANDS_H

#include <krino/agent/tool_call.hpp>
#include <krino/plugin.hpp>

#include <string_view>
#include <vector>

namespace krino::agent {

struct ToolCallOperands {
  std::vector<ToolCall> actual;
  std::vector<ToolCall> expected;
};

// The agent's calls, actualOutputs[key]; INVALID_ARGUMENT when the key is missing or null.
std::vector<ToolCall> read_actual_tool_calls(const TestCase& test_case, std::string_view key);

// Both lists, actualOutputs[key] and expectedOutputs[key]; each must be present and not null.
ToolCallOperands read_tool_call_operands(const TestCase& test_case, std::string_view key);

// The same lists as views into the test case (the same checks and errors), for evaluators that
// only compare or check the calls: nothing is copied. Valid during the evaluate call.
struct ToolCallViewOperands {
  std::vector<ToolCallView> actual;
  std::vector<ToolCallView> expected;
};
std::vector<ToolCallView> view_actual_tool_calls(const TestCase& test_case, std::string_view key);
ToolCallViewOperands view_tool_call_operands(const TestCase& test_case, std::string_view key);

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_CALL_OPERANDS_H
