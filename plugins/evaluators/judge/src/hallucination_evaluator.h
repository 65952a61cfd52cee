// hallucination (spec §4.6): score = statements of the actual output the context does not support
// (verdict no or idk) / all statements; LOWER IS BETTER and success is score <= threshold (sharp
// edge 4). An output without statements scores 0.0 (nothing hallucinated). Default threshold 0.5.
// metadata.statements holds every statement with its verdict and reason.
#ifndef KRINO_JUDGE_HALLUCINATION_EVALUATOR_H
#define KRINO_JUDGE_HALLUCINATION_EVALUATOR_H

#include "claim_check.h"

#include <krino/plugin.hpp>

namespace krino::judge {

class HallucinationEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit HallucinationEvaluator(const Config& config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;
  std::string prompt(const TestCase& test_case) const { return check_.prompt(test_case); }

 private:
  // One pass of judge calls; evaluate() runs one per vote (voting.h).
  EvalResult evaluate_once(const TestCase& test_case, const JudgeCall& call) const;
  ClaimCheck check_;
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_HALLUCINATION_EVALUATOR_H
