#include "faithfulness_evaluator.h"

namespace krino::judge {

const char* const FaithfulnessEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "faithfulness",
  "description": "Share of the claims in the actual output that the retrieved context supports, as judged by an LLM.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "faithfulness",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.8,
                  "description": "The result succeeds when score >= threshold."},
    )json" KRINO_JUDGE_VOTING_PROPERTIES KRINO_JUDGE_CLAIM_OPTIONS;

FaithfulnessEvaluator::FaithfulnessEvaluator(Config config)
    : ClaimEvaluator(std::move(config), kConfigSchema, "faithfulness", "claims", "claim", Better::higher, &result_of) {}

EvalResult FaithfulnessEvaluator::result_of(ClaimVerdicts verdicts, const CommonOptions& common) {
  const double score =
      verdicts.total == 0 ? 1.0 : static_cast<double>(verdicts.supported) / static_cast<double>(verdicts.total);
  std::string reason = verdicts.total == 0 ? "the output makes no claims"
                                           : std::to_string(verdicts.supported) + " of " + std::to_string(verdicts.total) +
                                                 " claims are supported by the context";
  EvalResult result = EvalResult::scored(common.name, score, common.threshold, std::move(reason));
  result.metadata["supportedClaims"] = verdicts.supported;
  result.metadata["totalClaims"] = verdicts.total;
  result.metadata["claims"] = std::move(verdicts.claims);
  return result;
}

}  // namespace krino::judge
