// Registers per_turn, which runs one of this plugin's deterministic tool evaluators on each
// assistant turn of a conversation. Its logic lives in src/per_turn_evaluator.* and the table of
// evaluators it can run in src/turn_evaluator_factory.*.
#include "per_turn_evaluator.h"

#include <krino/plugin.hpp>

KRINO_EVALUATOR(krino::agent::PerTurnEvaluator, "krino.per_turn", "per_turn", "1.0.0",
                "Runs a deterministic tool evaluator on every assistant turn of a conversation and aggregates the "
                "turn scores (mean, min or all_pass)",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, krino::agent::PerTurnEvaluator::kConfigSchema);
