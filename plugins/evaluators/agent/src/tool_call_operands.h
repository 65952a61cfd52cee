// The two tool-call lists an evaluator compares, read from a test case.
//
// A missing or null expected list is a broken test case (an error naming the key). A missing or
// null actual list counts as "no calls": trace extractors leave the key out when an agent called
// no tool, and an agent that called nothing is a result to score, not an error.
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

ToolCallOperands read_tool_call_operands(const TestCase& test_case, std::string_view key);

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_CALL_OPERANDS_H
