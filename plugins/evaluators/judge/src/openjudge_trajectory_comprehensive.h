// trajectory_comprehensive (OpenJudge's TrajectoryComprehensiveGrader): one judge call
// scores every tool-call step of the message list (system messages left out) on four dimensions,
// each an integer 1-5: contribution, relevance, accuracy, efficiency. Each is clamped to 1..5 and
// mapped (s − 1) / 4; the score is the mean over all steps and dimensions. is_resolved = score >=
// resolution_threshold (default 0.8). A step is an assistant message with tool calls, numbered from 0.
// No message list, or no tool-call step, scores 0.0 without a judge call. A reply without a
// non-empty step list whose entries carry the four numbers is an item error (KRINO_INTERNAL).
// See docs/plugins/judge-openjudge.md#trajectory_comprehensive.
#ifndef KRINO_JUDGE_OPENJUDGE_TRAJECTORY_COMPREHENSIVE_H
#define KRINO_JUDGE_OPENJUDGE_TRAJECTORY_COMPREHENSIVE_H

#include "judge_call.h"
#include "openjudge_trajectory.h"

#include <krino/plugin.hpp>

#include <cstddef>
#include <string>

namespace krino::judge::openjudge {

class TrajectoryComprehensiveGrader {
 public:
  static const char* const kConfigSchema;
  explicit TrajectoryComprehensiveGrader(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  std::string prompt(const Trajectory& trajectory) const;

 private:
  EvalResult unjudged(std::string reason) const;
  // One judge pass (one vote) over the rendered prompt.
  EvalResult evaluate_once(const std::string& text, std::size_t step_count, const JudgeCall& call) const;

  double resolution_threshold_;
  JudgeSettings settings_;
  MessagesLocation messages_;
};

}  // namespace krino::judge::openjudge

#endif  // KRINO_JUDGE_OPENJUDGE_TRAJECTORY_COMPREHENSIVE_H
