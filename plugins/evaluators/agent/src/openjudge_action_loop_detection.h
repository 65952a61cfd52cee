// action_loop_detection: OpenJudge's ActionLoopDetectionGrader. Penalises an agent for repeating
// itself: the share of action pairs whose signatures are alike.
#ifndef KRINO_AGENT_OPENJUDGE_ACTION_LOOP_DETECTION_H
#define KRINO_AGENT_OPENJUDGE_ACTION_LOOP_DETECTION_H

#include <krino/evaluator_options.hpp>
#include "openjudge_messages.h"

#include <krino/plugin.hpp>

#include <string>

namespace krino::agent::openjudge {

// Every answered tool call is an action with a signature "name: k1: v1, k2: v2" (arguments sorted
// by key, values in Python str() form). Score = 1 - similar pairs / all pairs i < j, where a pair
// is similar when the word-set similarity of its signatures reaches similarity_threshold; 1 with
// fewer than two actions.
class ActionLoopDetectionEvaluator {
 public:
  static const char* const kConfigSchema;

  explicit ActionLoopDetectionEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  MessagesLocation messages_;
  double similarity_threshold_;
};

// The signature of one action, as OpenJudge builds it.
std::string action_signature(const ToolCallView& call);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_ACTION_LOOP_DETECTION_H
