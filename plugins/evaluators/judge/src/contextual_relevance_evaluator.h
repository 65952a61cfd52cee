// contextual_relevance: the judge scores each retrieved chunk on its own, 0..1, for its
// relevance to the input (one judge call per chunk); the score is the mean of the chunk scores. The
// docs' example (relevant, irrelevant, relevant) gives ≈ 0.63 because the judge's own chunk scores
// are graded (0.9, 0.0, 0.95, say), not 1/0/1. metadata.contextScores: [{index, score, reason}], one
// per chunk in order. A list is one chunk per element, anything else one chunk; an empty list scores
// 0.0 (nothing relevant was retrieved). strict_mode sets the threshold to 1.0.
// See docs/plugins/judge.md#contextual_relevance.
#ifndef KRINO_JUDGE_CONTEXTUAL_RELEVANCE_EVALUATOR_H
#define KRINO_JUDGE_CONTEXTUAL_RELEVANCE_EVALUATOR_H

#include "judge_call.h"

#include <krino/plugin.hpp>

#include <string>

namespace krino::judge {

class ContextualRelevanceEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ContextualRelevanceEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  // The prompt for one chunk.
  std::string prompt(const std::string& input, const std::string& chunk) const;

 private:
  // One pass of judge calls; evaluate() runs one per vote (voting.h).
  EvalResult evaluate_once(const TestCase& test_case, const JudgeCall& call) const;
  JudgeSettings settings_;
  std::string input_key_;
  std::string retrieval_context_key_;
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_CONTEXTUAL_RELEVANCE_EVALUATOR_H
