// tool_selection: did the agent pick the right tool for a single user message? One expected tool
// (or the none_marker, "none": answer in text, call nothing), optional secondary tools that earn
// partial credit, and the one tool the agent called first (or none).
//
// The first rule that applies decides; the order matters (a secondary hit on a negative case is
// rule 2, not rule 4; a tool really named "none" on a negative case is rule 1):
//   1 expected_tool         a tool was called and it is the expected one          1.0
//   2 secondary_tool        a tool was called and it is one of the secondary ones secondary_score
//   3 no_call_as_expected   no tool was called and none was expected              1.0
//   4 unexpected_call       a tool was called though none was expected            0.0
//   5 missing_call          no tool was called though one was expected            0.0
//   6 wrong_tool            another tool was called                               0.0
//
// Inputs: expectedOutputs.expectedTool (a string, required), expectedOutputs.secondaryTools (a
// list of strings; missing or null is empty). The actual tool is actualOutputs.actualTool when that
// key is present (a string, or null for no call); otherwise the name of the first call in
// actualOutputs.toolCalls (missing, null or empty: no call). Later calls are ignored.
#ifndef KRINO_AGENT_TOOL_SELECTION_EVALUATOR_H
#define KRINO_AGENT_TOOL_SELECTION_EVALUATOR_H

#include <krino/evaluator_options.hpp>
#include <krino/plugin.hpp>

#include <optional>
#include <string>
#include <vector>

namespace krino::agent {

struct ToolSelection {
  std::string rule;  // expected_tool, secondary_tool, ... (see above)
  double score;
  std::string reason;
};

// The rules above, applied in order. `actual` is nullopt when no tool was called.
ToolSelection select_rule(const std::string& expected, const std::vector<std::string>& secondary,
                          const std::optional<std::string>& actual, const std::string& none_marker,
                          double secondary_score);

class ToolSelectionEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolSelectionEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  std::string expected_tool_key_;
  std::string secondary_tools_key_;
  std::string actual_tool_key_;
  std::string tool_calls_key_;
  std::string none_marker_;
  double secondary_score_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_SELECTION_EVALUATOR_H
