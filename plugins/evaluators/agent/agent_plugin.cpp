// The krino.agent plugin: evaluators of what an agent did with its tools (docs/plugins/agent.md).
// This file holds the plugin declaration and the registrations of tool_correctness and
// tool_trajectory; the other groups of evaluators register in their own *_registration.cpp files,
// and all logic lives in krino_agent_logic.
#include "tool_correctness_evaluator.h"
#include "tool_trajectory_evaluator.h"

#include <krino/plugin.hpp>

namespace {
constexpr uint64_t kCapabilities = KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC;
}  // namespace

KRINO_EVALUATOR(krino::agent::ToolCorrectnessEvaluator, "krino.tool_correctness", "tool_correctness", "1.0.0",
                "The agent called the expected tools: by name, by name and order, or by name and arguments",
                kCapabilities, krino::agent::ToolCorrectnessEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::agent::ToolTrajectoryEvaluator, "krino.tool_trajectory", "tool_trajectory", "1.0.0",
                "The agent's tool calls follow the expected trajectory (strict, in order, any order, superset, "
                "subset, precision or recall)",
                kCapabilities, krino::agent::ToolTrajectoryEvaluator::kConfigSchema);

KRINO_PLUGIN("krino.agent", "agent", "1.0.0", "krino", "Apache-2.0",
             "Agent evaluators: tool calls, trajectories, tool definitions, tool selection, per-turn "
             "scoring and OpenJudge's deterministic graders");
