// tool_trajectory: did the agent's sequence of tool calls follow the expected one? Two calls match
// when their names are equal and their arguments match (argument matcher, with per-tool
// overrides keyed by the expected call's name). With A the actual calls, E the expected calls
// and M the size of a largest one-to-one pairing of matching calls, ignoring order:
//   strict     1 when |A| == |E| and A[i] matches E[i] for every i, else 0
//   in_order   longest common subsequence of A and E / max(|A|, |E|), as the reference divides it;
//              with in_order_denominator: expected, / |E| instead: how much of E appears in order
//              in A, extra actual calls allowed (E empty then scores 1: nothing was required)
//   any_order  M / max(|A|, |E|)
//   superset   1 when M == |E| (every expected call was made, extras allowed), else 0
//   subset     1 when M == |A| (every actual call was expected, omissions allowed), else 0
//   precision  M / |A|
//   recall     M / |E|
// Both lists empty scores 1 in every mode; otherwise a zero denominator scores 0 (an empty
// expected list means "call no tool"), except in_order over |E|, which allows extra calls.
#ifndef KRINO_AGENT_TOOL_TRAJECTORY_EVALUATOR_H
#define KRINO_AGENT_TOOL_TRAJECTORY_EVALUATOR_H

#include <krino/evaluator_options.hpp>

#include <krino/agent/argument_matcher.hpp>
#include <krino/plugin.hpp>

#include <string>

namespace krino::agent {

enum class TrajectoryMode { strict, in_order, any_order, superset, subset, precision, recall };

// What in_order divides the longest common subsequence by: the longer list (the reference's) or
// the expected list (krino's earlier default: extra calls are free).
enum class InOrderDenominator { longer, expected };

class ToolTrajectoryEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolTrajectoryEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  TrajectoryMode mode_;
  InOrderDenominator in_order_denominator_;
  std::string tool_calls_key_;
  ToolCallMatcher matcher_;
  std::string argument_matching_json_;  // describe_matcher(matcher_), written once: the same on every case
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_TRAJECTORY_EVALUATOR_H
