// tool_name_reliability: how well each tool's name tells a model what the tool is for. The names
// come from the tool definitions in metadata.tools. Checks per tool, in this order:
//   snakecase_format            lower snake_case: ^[a-z][a-z0-9]*(_[a-z0-9]+)*$
//   conciseness                 at most max_segments underscore-separated segments (default 7)
//   intent_over_implementation  names no implementation detail: none of the blocklist substrings
//                               (case-insensitive); with a judge, also the judge's verdict, as one check
//   clarity                     judge: the purpose is clear from the name alone
//   name_order                  judge: the words follow operation, system, entity, data
// Per-tool score = passed / checks that ran; score = mean over the tools; no tools scores 1.0.
//
// Without `llm_checks` the two judge-only checks are recorded as "skipped" and
// intent_over_implementation is the blocklist alone (score over 3 checks). With it, one judge call
// per tool (reliability_judge.h) gives the verdicts check_tool_name() takes (score over 5 checks).
#ifndef KRINO_AGENT_TOOL_NAME_RELIABILITY_EVALUATOR_H
#define KRINO_AGENT_TOOL_NAME_RELIABILITY_EVALUATOR_H

#include "reliability_checks.h"
#include "reliability_judge.h"

#include <krino/agent/tool_definition.hpp>
#include <krino/evaluator_options.hpp>
#include <krino/plugin.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::agent {

// A judge's verdicts on one tool name.
struct NameJudgeVerdicts {
  bool clarity = false;
  bool name_order = false;
  bool intent_over_implementation = false;
};

struct NameRules {
  std::size_t max_segments = 7;
  std::vector<std::string> blocklist;  // lower-case substrings
};

// The checks on one name. Without verdicts the judge checks are skipped.
ToolChecks check_tool_name(std::string_view name, const NameRules& rules,
                           const std::optional<NameJudgeVerdicts>& verdicts);

class ToolNameReliabilityEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolNameReliabilityEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  // The judge's verdicts on one tool, or nullopt without llm_checks.
  std::optional<NameJudgeVerdicts> ask_judge(const ToolDefinition& tool, const CallContext& ctx) const;

  CommonOptions common_;
  std::string tools_key_;
  NameRules rules_;
  ReliabilityJudge judge_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_NAME_RELIABILITY_EVALUATOR_H
