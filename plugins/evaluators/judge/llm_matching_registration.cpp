// llm_precision and llm_recall of the krino.judge plugin (issue 4): the text plugin's precision and
// recall with an LLM judge deciding which items mean the same thing. Logic in
// src/llm_matching_evaluator.*; the plugin entry point is in judge_plugin.cpp.
#include "llm_matching_evaluator.h"

#include <krino/plugin.hpp>

namespace {
// Judges are not deterministic, so no KRINO_CAP_DETERMINISTIC; evaluate() only reads members.
constexpr uint64_t kLlmMatchingCapabilities = KRINO_CAP_THREAD_SAFE | KRINO_CAP_NEEDS_JUDGE;
}  // namespace

KRINO_EVALUATOR(krino::judge::LlmPrecisionEvaluator, "krino.llm_precision", "llm_precision", "1.0.0",
                "Share of the retrieved items that are relevant, paired one to one; an LLM judge decides which "
                "items mean the same thing",
                kLlmMatchingCapabilities, krino::judge::LlmPrecisionEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::judge::LlmRecallEvaluator, "krino.llm_recall", "llm_recall", "1.0.0",
                "Share of the relevant items that were retrieved, paired one to one; an LLM judge decides which "
                "items mean the same thing",
                kLlmMatchingCapabilities, krino::judge::LlmRecallEvaluator::kConfigSchema);
