// per_turn: runs one deterministic tool evaluator on every assistant turn of a conversation and
// aggregates the turn scores.
//
// Turn i is the i-th assistant message of actualOutputs[conversation_key] (its calls are
// Conversation::tool_calls_by_turn()[i]), counted from 0. The expected calls of turn i come from
// expectedOutputs[expected_key]: a list of per-turn lists of calls, or a conversation whose i-th
// assistant message carries them. The number of turns is the larger of the two counts; the side
// that runs out contributes an empty list. Each turn becomes a test case
//   actualOutputs.toolCalls = actual turn i, expectedOutputs.toolCalls = expected turn i,
//   metadata.tools = metadata[tools_key]
// scored in process by the inner evaluator, which is created once, with `options`.
//
//   mean      score = mean of the turn scores
//   min       score = the lowest turn score
//   all_pass  score = 1 when every turn succeeded under the inner threshold, else 0
// No turns at all scores 1.0. A turn whose evaluation fails fails the whole evaluation, with the
// turn in the message; a turn the inner evaluator could not score (score null) makes the result
// unscored, because an average that silently skipped a turn would look better than it is.
#ifndef KRINO_AGENT_PER_TURN_EVALUATOR_H
#define KRINO_AGENT_PER_TURN_EVALUATOR_H

#include <krino/evaluator_options.hpp>
#include "turn_evaluator_factory.h"

#include <krino/plugin.hpp>

#include <memory>
#include <string>

namespace krino::agent {

enum class TurnAggregate { mean, min, all_pass };

class PerTurnEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit PerTurnEvaluator(Config config);
  // With `inner` run on each turn instead of the evaluator the configuration names (whose
  // `options` are then not read): for tests, and for turn evaluators built elsewhere.
  PerTurnEvaluator(Config config, std::unique_ptr<const TurnEvaluator> inner);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  std::string evaluator_;
  std::unique_ptr<const TurnEvaluator> inner_;
  TurnAggregate aggregate_;
  CommonOptions common_;
  std::string conversation_key_;
  std::string expected_key_;
  std::string tools_key_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_PER_TURN_EVALUATOR_H
