// Registers the evaluators of how well the tools themselves are defined: their names and their
// descriptions. Their logic lives in src/tool_name_reliability_evaluator.*,
// src/tool_description_reliability_evaluator.* and the shared src/reliability_checks.*.
#include "tool_description_reliability_evaluator.h"
#include "tool_name_reliability_evaluator.h"

#include <krino/plugin.hpp>

KRINO_EVALUATOR(krino::agent::ToolNameReliabilityEvaluator, "krino.tool_name_reliability", "tool_name_reliability",
                "1.0.0",
                "Share of rule checks each tool name passes (snake_case, at most 7 segments, no implementation "
                "detail), averaged over the tools; the judge checks are reported as skipped",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC,
                krino::agent::ToolNameReliabilityEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::agent::ToolDescriptionReliabilityEvaluator, "krino.tool_description_reliability",
                "tool_description_reliability", "1.0.0",
                "Share of rule checks each tool definition passes (parameters described and typed, not too many, "
                "not too many optional), averaged over the tools; the judge checks are reported as skipped",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC,
                krino::agent::ToolDescriptionReliabilityEvaluator::kConfigSchema);
