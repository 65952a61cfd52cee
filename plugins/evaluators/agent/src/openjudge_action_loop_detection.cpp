#include "openjudge_action_loop_detection.h"

#include "openjudge_action_pairing.h"
#include "openjudge_argument_text.h"
#include "openjudge_python_repr.h"
#include "openjudge_text_similarity.h"
#include "openjudge_unit_option.h"

#include <krino/json_text.hpp>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace krino::agent::openjudge {

const char* const ActionLoopDetectionEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "action_loop_detection",
  "description": "OpenJudge's action loop detection: 1 minus the share of pairs of answered tool calls whose signatures are alike (1 with fewer than two calls).",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "action_loop_detection",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold; the default fails any repeated action."},
    "messages_key": {"type": "string", "minLength": 1, "default": "conversation",
                     "description": "Key of actualOutputs holding the OpenAI-style message list. When not set, 'conversation' is read and, if absent, 'messages'."},
    "similarity_threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                             "description": "Two actions are alike when the word-set Jaccard similarity of their signatures is at least this; 1.0 means the same words."}
  },
  "additionalProperties": false
})json";

namespace {

// Arguments as OpenJudge reads them: a JSON string naming an object, or (a krino tolerance) an
// object given as is. Anything else has no argument map.
std::optional<boost::json::object> argument_map(const boost::json::value* arguments) {
  if (arguments == nullptr) return std::nullopt;
  if (arguments->is_object()) return arguments->get_object();
  if (!arguments->is_string()) return std::nullopt;
  std::optional<boost::json::value> parsed = parse_argument_text(arguments->get_string());
  if (!parsed || !parsed->is_object()) return std::nullopt;
  return std::move(parsed->get_object());
}

}  // namespace

std::string action_signature(const ToolCallView& call) {
  std::string signature = call.name;
  if (const std::optional<boost::json::object> map = argument_map(call.arguments)) {
    std::vector<std::pair<std::string, const boost::json::value*>> items;
    for (const auto& member : *map) items.emplace_back(std::string(member.key()), &member.value());
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    signature += ": ";
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) signature += ", ";
      signature += items[i].first + ": " + python_str(*items[i].second);
    }
  } else if (call.arguments != nullptr && python_truthy(*call.arguments)) {
    // Unparseable arguments still tell calls apart: their raw text joins the signature.
    signature += ": " + python_str(*call.arguments);
  }
  return signature;
}

ActionLoopDetectionEvaluator::ActionLoopDetectionEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      messages_(config),
      similarity_threshold_(read_unit_option(config, "similarity_threshold")) {}

EvalResult ActionLoopDetectionEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const boost::json::array* messages = messages_.find(test_case);
  // No conversation at all is the system under test's failure, scored like any other.
  if (messages == nullptr) return EvalResult::scored(common_.name, 0.0, common_.threshold, messages_.describe_missing());

  boost::json::array signatures;
  std::vector<std::string> texts;
  for (const ActionObservation& pair : pair_actions_with_observations(*messages)) {
    texts.push_back(action_signature(pair.action));
    signatures.emplace_back(texts.back());
  }
  std::size_t similar_count = 0;
  std::size_t pair_count = 0;
  boost::json::array similar_pairs;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    for (std::size_t j = i + 1; j < texts.size(); ++j) {
      ++pair_count;
      const double similarity = word_set_similarity(texts[i], texts[j]);
      if (similarity < similarity_threshold_) continue;
      ++similar_count;
      similar_pairs.push_back(boost::json::array{boost::json::value(texts[i]), boost::json::value(texts[j]), similarity});
    }
  }
  const double score =
      pair_count == 0 ? 1.0 : 1.0 - static_cast<double>(similar_count) / static_cast<double>(pair_count);
  std::string reason = std::to_string(similar_count) + " of " + std::to_string(pair_count) +
                       (pair_count == 1 ? " pair of the " : " pairs of the ") + std::to_string(texts.size()) +
                       (similar_count == 1 ? " answered tool calls is alike" : " answered tool calls are alike") +
                       " (similarity_threshold " +
                       json::to_compact_json(boost::json::value(similarity_threshold_)) + ")";
  if (pair_count == 0) reason = "fewer than two answered tool calls, so nothing can repeat";

  EvalResult result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  result.metadata["action_count"] = texts.size();
  result.metadata["similar_pair_count"] = similar_count;
  result.metadata["total_pair_count"] = pair_count;
  result.metadata["similar_pairs"] = std::move(similar_pairs);
  result.metadata["similarity_threshold"] = similarity_threshold_;
  result.metadata["signatures"] = std::move(signatures);
  return result;
}

}  // namespace krino::agent::openjudge
