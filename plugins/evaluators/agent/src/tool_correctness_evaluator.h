// tool_correctness: did the agent call the right tools? Three ways to compare the actual calls
// (actualOutputs[tool_calls_key]) with the expected ones (expectedOutputs[tool_calls_key]):
//   names_only       F1 of the two sets of distinct tool names; repeats do not count
//   names_and_order  longest common subsequence of the name sequences / max(|actual|, |expected|)
//   names_and_args   calls paired one to one (same name, arguments matching), as many pairs as
//                    possible (maximum bipartite matching); pairs / max(|actual|, |expected|)
// Both lists empty scores 1 in every mode.
#ifndef KRINO_AGENT_TOOL_CORRECTNESS_EVALUATOR_H
#define KRINO_AGENT_TOOL_CORRECTNESS_EVALUATOR_H

#include <krino/evaluator_options.hpp>

#include <krino/agent/argument_matcher.hpp>
#include <krino/plugin.hpp>

#include <string>

namespace krino::agent {

enum class CorrectnessMode { names_only, names_and_order, names_and_args };

class ToolCorrectnessEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolCorrectnessEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  CorrectnessMode mode_;
  std::string tool_calls_key_;
  ToolCallMatcher matcher_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_CORRECTNESS_EVALUATOR_H
