// Registers the evaluators of how well the tools themselves are defined: their names and their
// descriptions. Their logic lives in src/tool_name_reliability_evaluator.*,
// src/tool_description_reliability_evaluator.* and the shared src/reliability_checks.*.
#include "tool_description_reliability_evaluator.h"
#include "tool_name_reliability_evaluator.h"

#include <krino/plugin.hpp>

namespace {
// With llm_checks they ask a judge, so they are neither DETERMINISTIC nor judge-free; capabilities
// are per component, not per configuration. evaluate() only reads members.
constexpr uint64_t kReliabilityCapabilities = KRINO_CAP_THREAD_SAFE | KRINO_CAP_NEEDS_JUDGE;
}  // namespace

KRINO_EVALUATOR(krino::agent::ToolNameReliabilityEvaluator, "krino.tool_name_reliability", "tool_name_reliability",
                "1.0.0",
                "Share of checks each tool name passes (snake_case, at most 7 segments, no implementation "
                "detail; with llm_checks also an LLM judge's clarity and word order), averaged over the tools",
                kReliabilityCapabilities,
                krino::agent::ToolNameReliabilityEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::agent::ToolDescriptionReliabilityEvaluator, "krino.tool_description_reliability",
                "tool_description_reliability", "1.0.0",
                "Share of checks each tool definition passes (parameters described and typed, not too many, "
                "not too many optional; with llm_checks also nine LLM judge checks), averaged over the tools",
                kReliabilityCapabilities,
                krino::agent::ToolDescriptionReliabilityEvaluator::kConfigSchema);
