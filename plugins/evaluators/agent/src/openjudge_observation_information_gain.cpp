#include "openjudge_observation_information_gain.h"

#include "openjudge_action_pairing.h"
#include "openjudge_text_similarity.h"
#include "openjudge_unit_option.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace krino::agent::openjudge {

const char* const ObservationInformationGainEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "observation_information_gain",
  "description": "OpenJudge's observation information gain: the mean novelty of tool results against earlier ones, with an exponential penalty above the similarity threshold.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "observation_information_gain",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                  "description": "The result succeeds when score >= threshold."},
    "messages_key": {"type": "string", "minLength": 1, "default": "conversation",
                     "description": "Key of actualOutputs holding the OpenAI-style message list. When not set, 'conversation' is read and, if absent, 'messages'."},
    "similarity_threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                             "description": "An observation whose highest word-set similarity to an earlier one exceeds this is penalised by exp(-2 * excess)."}
  },
  "additionalProperties": false
})json";

namespace {

constexpr std::size_t kShortestScoredObservation = 10;

}  // namespace

ObservationInformationGainEvaluator::ObservationInformationGainEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      messages_(config),
      similarity_threshold_(read_unit_option(config, "similarity_threshold")) {}

EvalResult ObservationInformationGainEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const boost::json::array* messages = messages_.find(test_case);
  // No conversation at all is the system under test's failure, scored like any other.
  if (messages == nullptr) return EvalResult::scored(common_.name, 0.0, common_.threshold, messages_.describe_missing());

  const std::vector<ActionObservation> pairs = pair_actions_with_observations(*messages);
  if (pairs.empty()) {
    EvalResult result = EvalResult::scored(common_.name, 0.0, common_.threshold,
                                           "no tool call was answered, so there is no observation to judge");
    result.metadata["action_count"] = 0;
    result.metadata["evaluable"] = false;
    return result;
  }

  std::vector<std::string_view> kept;
  boost::json::array rewards;
  boost::json::array similarities;
  double reward_sum = 0.0;
  for (const ActionObservation& pair : pairs) {
    const std::string_view observation = pair.observation;
    if (python_stripped_length(observation) < kShortestScoredObservation) continue;
    double highest = 0.0;
    for (std::string_view earlier : kept) highest = std::max(highest, word_set_similarity(observation, earlier));
    const double reward = (1.0 - highest) * std::exp(-2.0 * std::max(0.0, highest - similarity_threshold_));
    similarities.push_back(highest);
    rewards.push_back(reward);
    reward_sum += reward;
    kept.push_back(observation);
  }
  const double average = rewards.empty() ? 0.0 : reward_sum / static_cast<double>(rewards.size());
  const double score = std::clamp(average, 0.0, 1.0);

  char average_text[32];
  std::snprintf(average_text, sizeof(average_text), "%.3f", average);
  std::string reason = "mean information gain " + std::string(average_text) + " over " +
                       std::to_string(rewards.size()) + " of " + std::to_string(pairs.size()) +
                       (pairs.size() == 1 ? " observation" : " observations");
  if (rewards.size() < pairs.size()) reason += " (the others are shorter than 10 characters)";

  EvalResult result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  result.metadata["evaluable"] = true;
  result.metadata["raw_average"] = average;
  result.metadata["observation_count"] = pairs.size();
  result.metadata["each_turn_rewards"] = std::move(rewards);
  result.metadata["each_turn_similarity"] = std::move(similarities);
  result.metadata["similarity_threshold"] = similarity_threshold_;
  return result;
}

}  // namespace krino::agent::openjudge
