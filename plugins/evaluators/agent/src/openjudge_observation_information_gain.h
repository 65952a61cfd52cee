// observation_information_gain: OpenJudge's ObservationInformationGainGrader. Rewards tool
// results that tell the agent something new and penalises ones that repeat earlier results.
#ifndef KRINO_AGENT_OPENJUDGE_OBSERVATION_INFORMATION_GAIN_H
#define KRINO_AGENT_OPENJUDGE_OBSERVATION_INFORMATION_GAIN_H

#include <krino/evaluator_options.hpp>
#include "openjudge_messages.h"

#include <krino/plugin.hpp>

namespace krino::agent::openjudge {

// For each answered tool call in order, its observation (skipped when shorter than 10 characters
// after trimming) is compared with every earlier kept observation: s = the highest word-set
// similarity (0 for the first), reward = (1 - s) * exp(-2 * max(0, s - similarity_threshold)).
// Score = mean reward clamped to 0..1; 0 when no observation is long enough, and 0 (with
// metadata evaluable: false) when no tool call was answered at all.
class ObservationInformationGainEvaluator {
 public:
  static const char* const kConfigSchema;

  explicit ObservationInformationGainEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  MessagesLocation messages_;
  double similarity_threshold_;
};

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_OBSERVATION_INFORMATION_GAIN_H
