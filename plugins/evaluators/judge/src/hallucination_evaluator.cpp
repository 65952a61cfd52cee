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
    )json" KRINO_JUDGE_VOTING_PROPERTIES R"json("judge": {"type": "string", "minLength": 1, "description": "Name of a judge configured in the experiment file; the default judge when absent."},
    "prompt": {"type": "string", "minLength": 1, "description": "A prompt template replacing the built-in one. Placeholders: {{actual_output}}, {{context}} (the context passages, numbered), {{input}} (empty when the test case has no input)."},
    "output_key": {"type": "string", "minLength": 1, "default": "output", "description": "Key of the text to check in actualOutputs."},
    "context_key": {"type": "string", "minLength": 1, "default": "context", "description": "Key of the retrieved context: actualOutputs first, then metadata. A list is one passage per element."},
    "input_key": {"type": "string", "minLength": 1, "default": "input", "description": "Key of the input in inputs, for prompts that use {{input}}."}
  },
  "additionalProperties": false
})json";

HallucinationEvaluator::HallucinationEvaluator(const Config& config)
    : check_(config, kConfigSchema, "hallucination", 0.5, "statements", "statement") {}

EvalResult HallucinationEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  return run_votes(check_.voting(), check_.common(), Better::lower, ctx,
                   [&](const JudgeCall& call) { return evaluate_once(test_case, call); });
}

EvalResult HallucinationEvaluator::evaluate_once(const TestCase& test_case, const JudgeCall& call) const {
  ClaimVerdicts verdicts = check_.run(test_case, call);
  const std::size_t unsupported = verdicts.total - verdicts.supported;
  const double score =
      verdicts.total == 0 ? 0.0 : static_cast<double>(unsupported) / static_cast<double>(verdicts.total);
  std::string reason = verdicts.total == 0 ? "the output makes no statements of fact"
                                           : std::to_string(unsupported) + " of " + std::to_string(verdicts.total) +
                                                 " statements are not supported by the context";
  EvalResult result = EvalResult::scored(check_.common().name, score, check_.common().threshold, std::move(reason));
  result.success = score <= check_.common().threshold;  // lower is better (spec §4.6)
  result.metadata["unsupportedStatements"] = unsupported;
  result.metadata["totalStatements"] = verdicts.total;
  result.metadata["statements"] = std::move(verdicts.claims);
  return result;
}

}  // namespace krino::judge
