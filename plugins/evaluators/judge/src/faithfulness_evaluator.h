// faithfulness (spec §4.5): score = claims of the actual output the context supports / all claims;
// an output without claims scores 1.0. Default threshold 0.8. The context is read from actualOutputs,
// then metadata (§16 item 6). metadata.claims holds every claim with its verdict and reason.
#ifndef KRINO_JUDGE_FAITHFULNESS_EVALUATOR_H
#define KRINO_JUDGE_FAITHFULNESS_EVALUATOR_H

#include "claim_check.h"

#include <krino/plugin.hpp>

namespace krino::judge {

class FaithfulnessEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit FaithfulnessEvaluator(const Config& config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;
  std::string prompt(const TestCase& test_case) const { return check_.prompt(test_case); }

 private:
  // One pass of judge calls; evaluate() runs one per vote (voting.h).
  EvalResult evaluate_once(const TestCase& test_case, const JudgeCall& call) const;
  ClaimCheck check_;
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_FAITHFULNESS_EVALUATOR_H
