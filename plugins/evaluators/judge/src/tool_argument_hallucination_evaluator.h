// tool_argument_hallucination: one judge call for all of the agent's tool calls decides,
// per call, whether its argument values can be derived from the user's input or from the results of
// earlier calls (multi-step derivation is allowed, so each call is shown with its result). Score =
// min(1, grounded calls / calls); no calls scores 1.0 without a judge call. The reply is
// {"verdicts": [{toolName, grounded, reason}]} (a bare array is accepted too: JSON reply mode makes
// providers answer with an object). A reply without a verdict list is an item error (the reference
// scores it 0.0; issue 4 wants an error). metadata.verdicts: [{toolName, grounded, reason}].
// See docs/plugins/judge.md#tool_argument_hallucination.
#ifndef KRINO_JUDGE_TOOL_ARGUMENT_HALLUCINATION_EVALUATOR_H
#define KRINO_JUDGE_TOOL_ARGUMENT_HALLUCINATION_EVALUATOR_H

#include "judge_call.h"

#include <krino/agent/tool_call.hpp>
#include <krino/plugin.hpp>

#include <string>
#include <vector>

namespace krino::judge {

class ToolArgumentHallucinationEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolArgumentHallucinationEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  std::string prompt(const TestCase& test_case, const std::vector<agent::ToolCall>& calls) const;

 private:
  // One pass of judge calls; evaluate() runs one per vote (voting.h).
  EvalResult evaluate_once(const TestCase& test_case, const JudgeCall& call) const;
  JudgeSettings settings_;
  std::string input_key_;
  std::string tool_calls_key_;
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_TOOL_ARGUMENT_HALLUCINATION_EVALUATOR_H
