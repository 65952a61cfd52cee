// tool_trajectory: did the agent's sequence of tool calls follow the expected one? Two calls match
// when their names are equal and their arguments match (argument matcher, with per-tool
// overrides keyed by the expected call's name). With A the actual calls, E the expected calls
// and M the size of a largest one-to-one pairing of matching calls, ignoring order:
//   strict     1 when |A| == |E| and A[i] matches E[i] for every i, else 0
//   in_order   longest common subsequence of A and E / |E|: how much of E appears in order in A;
//              extra actual calls between or around them are allowed
//   any_order  M / max(|A|, |E|)
//   superset   1 when M == |E| (every expected call was made, extras allowed), else 0
//   subset     1 when M == |A| (every actual call was expected, omissions allowed), else 0
//   precision  M / |A|
//   recall     M / |E|
// Both lists empty scores 1 in every mode; a zero denominator with the other list non-empty
// scores 0 (an empty expected list means "call no tool").
#ifndef KRINO_AGENT_TOOL_TRAJECTORY_EVALUATOR_H
#define KRINO_AGENT_TOOL_TRAJECTORY_EVALUATOR_H

#include <krino/evaluator_options.hpp>

#include <krino/agent/argument_matcher.hpp>
#include <krino/plugin.hpp>

#include <string>

namespace krino::agent {

enum class TrajectoryMode { strict, in_order, any_order, superset, subset, precision, recall };

class ToolTrajectoryEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolTrajectoryEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  TrajectoryMode mode_;
  std::string tool_calls_key_;
  ToolCallMatcher matcher_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_TRAJECTORY_EVALUATOR_H
