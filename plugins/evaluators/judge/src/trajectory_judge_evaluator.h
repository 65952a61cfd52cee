// trajectory_judge: an LLM judge scores a whole conversation (actualOutputs.trajectory,
// read with krino/agent/conversation.hpp) against each criterion in `criteria`, one judge call per
// criterion, and the criterion scores are aggregated by mean, weighted_mean, min or max.
//
//   criteria   built-ins by name (user_satisfaction, goal_completion, ... see kBuiltinCriteria) or
//              {name, description, weight}; an object naming a built-in may leave out the
//              description (and weight) to keep the built-in ones
//   reply      {"score", "reason"}; a score above 1 is read as a 0..10 scale and divided by 10,
//              then clamped to 0..1
//   empty      a trajectory without messages scores 0.0 with no judge call
//   errors     a reply without a numeric score is an item error (the reference scores that
//              criterion 0.0; krino never turns an unreadable reply into a score)
//
// Default name `trajectory_judge`, not the reference's "Trajectory", so it never shares a result
// name with tool_trajectory and the two never merge in per-name aggregation.
// See docs/plugins/judge.md#trajectory_judge.
#ifndef KRINO_JUDGE_TRAJECTORY_JUDGE_EVALUATOR_H
#define KRINO_JUDGE_TRAJECTORY_JUDGE_EVALUATOR_H

#include "judge_call.h"

#include <krino/plugin.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace krino::judge {

struct TrajectoryCriterion {
  std::string name;
  std::string description;
  double weight = 1.0;
};

// The built-in criteria, in the order of the table in docs/plugins/judge.md.
const std::vector<TrajectoryCriterion>& builtin_trajectory_criteria();

enum class CriterionAggregation { mean, weighted_mean, min, max };

class TrajectoryJudgeEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit TrajectoryJudgeEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  const std::vector<TrajectoryCriterion>& criteria() const { return criteria_; }
  // The prompt for one criterion over a rendered conversation, as sent.
  std::string prompt(const TrajectoryCriterion& criterion, const std::string& conversation) const;

 private:
  // One pass of judge calls; evaluate() runs one per vote (voting.h).
  EvalResult evaluate_once(const TestCase& test_case, const JudgeCall& call) const;

  JudgeSettings settings_;
  std::string trajectory_key_;
  bool trajectory_key_given_ = false;  // false: "conversation" is read when "trajectory" is absent
  std::vector<TrajectoryCriterion> criteria_;
  CriterionAggregation aggregation_ = CriterionAggregation::mean;
  bool include_per_criterion_scores_ = true;
  bool include_tool_calls_ = false;
};

}  // namespace krino::judge

#endif  // KRINO_JUDGE_TRAJECTORY_JUDGE_EVALUATOR_H
