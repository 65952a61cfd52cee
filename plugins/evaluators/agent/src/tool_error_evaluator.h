// tool_error: the share of the agent's tool calls that succeeded. A call failed when any rule
// fires; the rules add up, and the configurable ones never switch the built-in ones off:
//   error_flag      the call's metadata says "isError": true (trace extractors set it from the
//                   source's own error flag: Anthropic's is_error, a failed tool span or run)
//   no_result       the call has no result (absent); a JSON null result is the text "null",
//                   which is something the tool returned, so it is not an error
//   blank_result    the result is empty or only white space
//   error_field     the result is a JSON object whose top-level "error" is present and neither
//                   null nor false
//   error_pattern   one of error_patterns (PCRE2) is found somewhere in the result
//   error_pointer   the result is JSON and one of error_pointers leads to a value that is neither
//                   null nor false
// Score = succeeded calls / judged calls; no judged calls scores 1.0. Calls of the tools listed in
// ignore_tools are not judged (tools such as a "think" scratchpad return nothing by design). The
// calls are read from actualOutputs only; a missing or null list is an error, [] means no calls.
#ifndef KRINO_AGENT_TOOL_ERROR_EVALUATOR_H
#define KRINO_AGENT_TOOL_ERROR_EVALUATOR_H

#include <krino/evaluator_options.hpp>
#include "result_pattern.h"

#include <krino/agent/tool_call.hpp>
#include <krino/plugin.hpp>

#include <optional>
#include <string>
#include <vector>

namespace krino::agent {

// Why a call failed: the first rule that fired, and for the configurable rules which pattern or
// pointer it was.
struct ToolCallFailure {
  std::string rule;
  std::string detail;
};

class ToolErrorEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolErrorEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  // nullopt when the call succeeded under every rule.
  std::optional<ToolCallFailure> failure(const ToolCall& call) const;

 private:
  CommonOptions common_;
  std::string tool_calls_key_;
  std::vector<ResultPattern> error_patterns_;
  std::vector<std::string> error_pointers_;
  std::vector<std::string> ignore_tools_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_ERROR_EVALUATOR_H
