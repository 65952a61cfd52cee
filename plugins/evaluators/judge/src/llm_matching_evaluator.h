// llm_precision and llm_recall: the text plugin's precision and recall (docs/plugins/text.md), with
// "two items match" decided by the LLM judge ("they mean the same thing") instead of a deterministic
// strategy. Same formulas, option keys, empty-list rules and one-to-one maximum matching:
//   precision = M / |retrieved|,  recall = M / |relevant|,
// M the size of a largest one-to-one pairing. An empty denominator scores 1 when both lists are
// empty, else 0. A value that is not a list counts as a list of that one item.
//
// Call pattern (one judge call per evaluation, per vote):
//   1. Equal pre-pass: items equal by value (krino/json_equality.hpp, numbers by value) are paired
//      first, one to one and as many as possible, without asking. When that pairs every retrieved or
//      every relevant item, M cannot grow and the judge is not asked at all.
//   2. Otherwise ONE request lists the still unpaired retrieved and relevant items, numbered from 1
//      in each list, and asks for every pair that means the same thing: {"pairs": [[r, e], ...]}
//      (a bare array of pairs is accepted too).
//   3. The judge's pairs (many to many) are reduced to a maximum one-to-one matching, so a judge that
//      pairs one item with several cannot inflate the score.
// A pair that is not two integers within the listed numbers, or a reply without a 'pairs' list, is
// an unreadable reply: the item fails (KRINO_INTERNAL), it never scores a silent 0.
#ifndef KRINO_JUDGE_LLM_MATCHING_EVALUATOR_H
#define KRINO_JUDGE_LLM_MATCHING_EVALUATOR_H

#include "judge_call.h"

#include <krino/plugin.hpp>

#include <string>
#include <utility>
#include <vector>

namespace krino::judge {

enum class MatchingMetric { precision, recall };

class LlmMatchingEvaluator {
 public:
  LlmMatchingEvaluator(Config config, MatchingMetric metric, const char* config_schema);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  // The prompt for the unpaired items (each rendered with render_value) and the input text.
  std::string prompt(const std::vector<std::string>& retrieved, const std::vector<std::string>& relevant,
                     const std::string& input) const;

 private:
  EvalResult evaluate_once(const TestCase& test_case, const JudgeCall& call) const;

  MatchingMetric metric_;
  JudgeSettings settings_;
  std::string retrieved_key_;
  std::string expected_key_;
};

class LlmPrecisionEvaluator : public LlmMatchingEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit LlmPrecisionEvaluator(Config config)
      : LlmMatchingEvaluator(std::move(config), MatchingMetric::precision, kConfigSchema) {}
};

class LlmRecallEvaluator : public LlmMatchingEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit LlmRecallEvaluator(Config config)
      : LlmMatchingEvaluator(std::move(config), MatchingMetric::recall, kConfigSchema) {}
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_LLM_MATCHING_EVALUATOR_H
