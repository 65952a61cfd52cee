#include "hallucination_evaluator.h"

namespace krino::judge {

const char* const HallucinationEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "hallucination",
  "description": "Share of the statements in the actual output that the retrieved context does not support, as judged by an LLM. Lower is better: success is score <= threshold.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "hallucination",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                  "description": "The most hallucination allowed: the result succeeds when score <= threshold (inverted)."},
    )json" KRINO_JUDGE_VOTING_PROPERTIES KRINO_JUDGE_CLAIM_OPTIONS;

HallucinationEvaluator::HallucinationEvaluator(Config config)
    : ClaimEvaluator(std::move(config), kConfigSchema, "hallucination", "statements", "statement", Better::lower, &result_of) {}

EvalResult HallucinationEvaluator::result_of(ClaimVerdicts verdicts, const CommonOptions& common) {
  const std::size_t unsupported = verdicts.total - verdicts.supported;
  const double score =
      verdicts.total == 0 ? 0.0 : static_cast<double>(unsupported) / static_cast<double>(verdicts.total);
  std::string reason = verdicts.total == 0 ? "the output makes no statements of fact"
                                           : std::to_string(unsupported) + " of " + std::to_string(verdicts.total) +
                                                 " statements are not supported by the context";
  EvalResult result = EvalResult::scored(common.name, score, common.threshold, std::move(reason));
  result.success = score <= common.threshold;  // lower is better
  result.metadata["unsupportedStatements"] = unsupported;
  result.metadata["totalStatements"] = verdicts.total;
  result.metadata["statements"] = std::move(verdicts.claims);
  return result;
}

}  // namespace krino::judge
