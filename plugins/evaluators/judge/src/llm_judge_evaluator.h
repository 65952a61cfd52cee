// llm_judge: the judge scores the selected test case fields against plain-language
// criteria on the scale score_range, and the score is normalised to 0..1 as
// (raw - min) / (max - min), clamped. The threshold is on 0..1 and is never normalised.
// evaluation_params picks the fields the prompt shows, in a fixed order (input, expected
// output, actual output, context); default [input, actual_output]. A selected field that
// is absent is an item error. A reply without a readable score is an item error, never a silent 0.
// See docs/plugins/judge.md#llm_judge.
#ifndef KRINO_JUDGE_LLM_JUDGE_EVALUATOR_H
#define KRINO_JUDGE_LLM_JUDGE_EVALUATOR_H

#include "judge_call.h"

#include <krino/plugin.hpp>

#include <string>

namespace krino::judge {

class LlmJudgeEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit LlmJudgeEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  // The prompt for `test_case`, as sent.
  std::string prompt(const TestCase& test_case) const;

 private:
  // One pass of judge calls; evaluate() runs one per vote (voting.h).
  EvalResult evaluate_once(const TestCase& test_case, const JudgeCall& call) const;
  JudgeSettings settings_;
  std::string criteria_;
  bool show_input_ = false;
  bool show_expected_ = false;
  bool show_actual_ = false;
  bool show_context_ = false;
  std::string input_key_;
  std::string output_key_;
  std::string expected_key_;
  std::string context_key_;
  double min_ = 0.0;
  double max_ = 1.0;
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_LLM_JUDGE_EVALUATOR_H
