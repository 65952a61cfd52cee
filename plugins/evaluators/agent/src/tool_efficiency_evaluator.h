// tool_efficiency: how much of the agent's tool use was not repetition. A call repeats an earlier
// one when their names are equal and the argument matcher (krino/agent/argument_matcher.hpp, the
// options of tool_call_options.h) accepts the later call's arguments against the earlier call's,
// as the reference does: by default the same keys with values equal by value (1 equals 1.0); with
// arg_match_mode: ignore, any two calls of one tool. A call is redundant when it repeats an
// earlier distinct call; the distinct calls are the first occurrences.
//   score = distinct calls / all calls; no calls scores 1.0
// Calls that repeat their immediate predecessor are listed separately as a loop signal. Retries
// that were needed also lower the score: read it as a signal, not a hard gate.
#ifndef KRINO_AGENT_TOOL_EFFICIENCY_EVALUATOR_H
#define KRINO_AGENT_TOOL_EFFICIENCY_EVALUATOR_H

#include <krino/evaluator_options.hpp>

#include <krino/agent/argument_matcher.hpp>
#include <krino/plugin.hpp>

#include <string>

namespace krino::agent {

class ToolEfficiencyEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolEfficiencyEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  std::string tool_calls_key_;
  ToolCallMatcher same_call_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_EFFICIENCY_EVALUATOR_H
