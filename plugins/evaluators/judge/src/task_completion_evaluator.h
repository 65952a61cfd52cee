// task_completion: the judge reads the user-agent dialog and the task list
// (metadata.tasks, plus metadata.constraints when present) and says which tasks were completed.
// Dialog: "User: <input>\n\nAgent: <output>" when actualOutputs.output is present and not blank,
// otherwise the input alone (the multi-turn judge path puts the whole transcript in the input).
// Score = min(1, tasks the judge marked completed / tasks); an empty task list scores 1.0 without a
// judge call; a missing tasks key is an item error, and so is a reply without a 'tasks' list (the
// reference scores that 0.0; issue 4 wants an error). metadata.taskResults: [{task, completed, reason}].
// See docs/plugins/judge.md#task_completion.
#ifndef KRINO_JUDGE_TASK_COMPLETION_EVALUATOR_H
#define KRINO_JUDGE_TASK_COMPLETION_EVALUATOR_H

#include "judge_call.h"

#include <krino/plugin.hpp>

#include <string>
#include <vector>

namespace krino::judge {

class TaskCompletionEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit TaskCompletionEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  std::string prompt(const TestCase& test_case, const std::vector<std::string>& tasks) const;
  // The tasks under metadata[tasks_key]: a list of strings. Throws invalid_argument when absent or malformed.
  std::vector<std::string> tasks(const TestCase& test_case) const;

 private:
  // One pass of judge calls; evaluate() runs one per vote (voting.h).
  EvalResult evaluate_once(const TestCase& test_case, const JudgeCall& call) const;
  JudgeSettings settings_;
  std::string input_key_;
  std::string output_key_;
  std::string tasks_key_;
  std::string constraints_key_;
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_TASK_COMPLETION_EVALUATOR_H
