// Registers the evaluators of how the agent used its tools: calls its tools accept, failed calls
// and repeated calls. Their logic lives in src/tool_call_validity_evaluator.*,
// src/tool_error_evaluator.* and src/tool_efficiency_evaluator.*.
#include "tool_call_validity_evaluator.h"
#include "tool_efficiency_evaluator.h"
#include "tool_error_evaluator.h"

#include <krino/plugin.hpp>

KRINO_EVALUATOR(krino::agent::ToolErrorEvaluator, "krino.tool_error", "tool_error", "1.0.0",
                "Share of the agent's tool calls that succeeded (no blank result, no error field, no configured "
                "error pattern or pointer)",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, krino::agent::ToolErrorEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::agent::ToolEfficiencyEvaluator, "krino.tool_efficiency", "tool_efficiency", "1.0.0",
                "Share of the agent's tool calls that were distinct (same name and equal arguments count as a repeat)",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, krino::agent::ToolEfficiencyEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::agent::ToolCallValidityEvaluator, "krino.tool_call_validity", "tool_call_validity", "1.0.0",
                "Share of the agent's tool calls that name an offered tool and whose arguments satisfy its JSON "
                "Schema (required, types, enums, nested values, unexpected arguments)",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, krino::agent::ToolCallValidityEvaluator::kConfigSchema);
