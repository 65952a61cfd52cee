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
    )json" KRINO_JUDGE_VOTING_PROPERTIES R"json("judge": {"type": "string", "minLength": 1, "description": "Name of a judge configured in the experiment file; the default judge when absent."},
    "prompt": {"type": "string", "minLength": 1, "description": "A prompt template replacing the built-in one. Placeholders: {{actual_output}}, {{context}} (the context passages, numbered), {{input}} (empty when the test case has no input)."},
    "output_key": {"type": "string", "minLength": 1, "default": "output", "description": "Key of the text to check in actualOutputs."},
    "context_key": {"type": "string", "minLength": 1, "default": "context", "description": "Key of the retrieved context: actualOutputs first, then metadata. A list is one passage per element."},
    "input_key": {"type": "string", "minLength": 1, "default": "input", "description": "Key of the input in inputs, for prompts that use {{input}}."}
  },
  "additionalProperties": false
})json";

FaithfulnessEvaluator::FaithfulnessEvaluator(const Config& config)
    : check_(config, kConfigSchema, "faithfulness", 0.8, "claims", "claim") {}

EvalResult FaithfulnessEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  return run_votes(check_.voting(), check_.common(), Better::higher, ctx,
                   [&](const JudgeCall& call) { return evaluate_once(test_case, call); });
}

EvalResult FaithfulnessEvaluator::evaluate_once(const TestCase& test_case, const JudgeCall& call) const {
  ClaimVerdicts verdicts = check_.run(test_case, call);
  const double score =
      verdicts.total == 0 ? 1.0 : static_cast<double>(verdicts.supported) / static_cast<double>(verdicts.total);
  std::string reason = verdicts.total == 0 ? "the output makes no claims"
                                           : std::to_string(verdicts.supported) + " of " + std::to_string(verdicts.total) +
                                                 " claims are supported by the context";
  EvalResult result = EvalResult::scored(check_.common().name, score, check_.common().threshold, std::move(reason));
  result.metadata["supportedClaims"] = verdicts.supported;
  result.metadata["totalClaims"] = verdicts.total;
  result.metadata["claims"] = std::move(verdicts.claims);
  return result;
}

}  // namespace krino::judge
