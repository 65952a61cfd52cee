// Registers tool_selection, the single-turn check of which tool the agent chose. Its logic lives in
// src/tool_selection_evaluator.*.
#include "tool_selection_evaluator.h"

#include <krino/plugin.hpp>

KRINO_EVALUATOR(krino::agent::ToolSelectionEvaluator, "krino.tool_selection", "tool_selection", "1.0.0",
                "Whether the agent's first tool call is the expected tool (1.0), a secondary one (partial credit) or "
                "correctly no call on a negative case (1.0)",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, krino::agent::ToolSelectionEvaluator::kConfigSchema);
