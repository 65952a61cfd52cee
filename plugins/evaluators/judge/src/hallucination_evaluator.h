// hallucination: score = statements of the actual output the context does not support
// (verdict no or idk) / all statements; LOWER IS BETTER and success is score <= threshold.
// An output without statements scores 0.0 (nothing hallucinated). Default threshold 0.5.
// metadata.statements holds every statement with its verdict and reason.
// See docs/plugins/judge.md#faithfulness-and-hallucination.
#ifndef KRINO_JUDGE_HALLUCINATION_EVALUATOR_H
#define KRINO_JUDGE_HALLUCINATION_EVALUATOR_H

#include "claim_check.h"

#include <krino/plugin.hpp>

namespace krino::judge {

class HallucinationEvaluator : public ClaimEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit HallucinationEvaluator(Config config);

 private:
  static EvalResult result_of(ClaimVerdicts verdicts, const CommonOptions& common);
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_HALLUCINATION_EVALUATOR_H
