// The krino.judge plugin: evaluators that ask the host's LLM judge service
// (docs/plugins/judge.md). All logic lives in krino_judge_logic (src/); prompts in prompts/*.txt.
#include "contextual_relevance_evaluator.h"
#include "faithfulness_evaluator.h"
#include "hallucination_evaluator.h"
#include "llm_judge_evaluator.h"
#include "task_completion_evaluator.h"
#include "tool_argument_hallucination_evaluator.h"
#include "trajectory_judge_evaluator.h"

#include <krino/plugin.hpp>

namespace {
// Judges are not deterministic, so no KRINO_CAP_DETERMINISTIC; evaluate() only reads members.
constexpr uint64_t kCapabilities = KRINO_CAP_THREAD_SAFE | KRINO_CAP_NEEDS_JUDGE;
}  // namespace

KRINO_EVALUATOR(krino::judge::LlmJudgeEvaluator, "krino.llm_judge", "llm_judge", "1.0.0",
                "An LLM judge scores the selected test case fields against plain-language criteria", kCapabilities,
                krino::judge::LlmJudgeEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::judge::FaithfulnessEvaluator, "krino.faithfulness", "faithfulness", "1.0.0",
                "Share of the output's claims that the retrieved context supports (LLM judge)", kCapabilities,
                krino::judge::FaithfulnessEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::judge::HallucinationEvaluator, "krino.hallucination", "hallucination", "1.0.0",
                "Share of the output's statements the retrieved context does not support; lower is better (LLM judge)",
                kCapabilities, krino::judge::HallucinationEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::judge::ContextualRelevanceEvaluator, "krino.contextual_relevance", "contextual_relevance",
                "1.0.0", "Mean relevance of the retrieved chunks to the input, each scored by an LLM judge",
                kCapabilities, krino::judge::ContextualRelevanceEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::judge::TaskCompletionEvaluator, "krino.task_completion", "task_completion", "1.0.0",
                "Share of the tasks in metadata.tasks the agent completed, judged by an LLM from the dialog",
                kCapabilities, krino::judge::TaskCompletionEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::judge::ToolArgumentHallucinationEvaluator, "krino.tool_argument_hallucination",
                "tool_argument_hallucination", "1.0.0",
                "Share of the agent's tool calls whose arguments an LLM judge finds grounded in the input or earlier "
                "results",
                kCapabilities, krino::judge::ToolArgumentHallucinationEvaluator::kConfigSchema);

KRINO_EVALUATOR(krino::judge::TrajectoryJudgeEvaluator, "krino.trajectory_judge", "trajectory_judge", "1.0.0",
                "An LLM judge scores a whole conversation against each criterion; the scores are aggregated "
                "(mean, weighted_mean, min or max)",
                kCapabilities, krino::judge::TrajectoryJudgeEvaluator::kConfigSchema);

KRINO_PLUGIN("krino.judge", "judge", "1.0.0", "krino", "Apache-2.0",
             "LLM-judge evaluators: llm_judge, faithfulness, hallucination, contextual relevance, task completion, "
             "tool argument hallucination, conversation trajectory judge, LLM-matched precision and recall, and "
             "OpenJudge's LLM graders");
