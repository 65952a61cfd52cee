// faithfulness: score = claims of the actual output the context supports / all claims;
// an output without claims scores 1.0. Default threshold 0.8. The context is read from actualOutputs,
// then metadata. metadata.claims holds every claim with its verdict and reason.
// See docs/plugins/judge.md#faithfulness-and-hallucination.
#ifndef KRINO_JUDGE_FAITHFULNESS_EVALUATOR_H
#define KRINO_JUDGE_FAITHFULNESS_EVALUATOR_H

#include "claim_check.h"

#include <krino/plugin.hpp>

namespace krino::judge {

class FaithfulnessEvaluator : public ClaimEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit FaithfulnessEvaluator(Config config);

 private:
  static EvalResult result_of(ClaimVerdicts verdicts, const CommonOptions& common);
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_FAITHFULNESS_EVALUATOR_H
