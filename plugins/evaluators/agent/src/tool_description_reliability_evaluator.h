// tool_description_reliability: how well each tool definition in metadata.tools describes the tool
// and its parameters (the keys of the JSON Schema's "properties"). Rule checks, always run:
//   input_arguments_clarity       every parameter has a description that is not blank
//   input_arguments_types         every parameter declares a type: "type", or an anyOf / oneOf
//                                 whose every branch has one
//   max_num_input_arguments       at most max_input_args parameters (default 5)
//   max_optional_input_arguments  at most max_optional_args parameters outside "required" (default 3)
// A tool without parameters passes the first two. Nine judge checks follow them (see
// DescriptionJudgeVerdicts). Per-tool score = passed / checks that ran; score = mean over the tools;
// no tools scores 1.0.
//
// Without `llm_checks` the judge checks are recorded as "skipped" (score over 4 checks). With it,
// one judge call per tool (reliability_judge.h) gives the verdicts check_tool_description() takes
// (score over 13 checks).
#ifndef KRINO_AGENT_TOOL_DESCRIPTION_RELIABILITY_EVALUATOR_H
#define KRINO_AGENT_TOOL_DESCRIPTION_RELIABILITY_EVALUATOR_H

#include "reliability_checks.h"
#include "reliability_judge.h"

#include <krino/evaluator_options.hpp>

#include <krino/agent/tool_definition.hpp>
#include <krino/plugin.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace krino::agent {

// A judge's verdicts on one definition. The checks are reported in this order, after the rule checks.
struct DescriptionJudgeVerdicts {
  bool general_structure = false;           // a clear purpose first, then details
  bool has_examples = false;                // shows example calls or values
  bool has_usage_notes = false;             // says when to use the tool and when not to
  bool intent_over_implementation = false;  // says what the tool does, not how
  bool clarity = false;                     // unambiguous to a model reading it cold
  bool redundancy = false;                  // no repetition of what the schema already says
  bool input_arguments_enum = false;        // closed sets of values are enums
  bool input_arguments_format = false;      // formats (dates, ids) are stated
  bool return_statement_quality = false;    // says what the tool returns
};

struct DescriptionRules {
  std::size_t max_input_args = 5;
  std::size_t max_optional_args = 3;
};

// The checks on one definition. Without verdicts the judge checks are skipped.
ToolChecks check_tool_description(const ToolDefinition& tool, const DescriptionRules& rules,
                                  const std::optional<DescriptionJudgeVerdicts>& verdicts);

class ToolDescriptionReliabilityEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolDescriptionReliabilityEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  // The judge's verdicts on one tool, or nullopt without llm_checks.
  std::optional<DescriptionJudgeVerdicts> ask_judge(const ToolDefinition& tool, const CallContext& ctx) const;

  CommonOptions common_;
  std::string tools_key_;
  DescriptionRules rules_;
  ReliabilityJudge judge_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_DESCRIPTION_RELIABILITY_EVALUATOR_H
