#include "contextual_relevance_evaluator.h"

#include "test_case_fields.h"
#include "value_rendering.h"

#include <algorithm>

namespace krino::judge {

const char* const ContextualRelevanceEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "contextual_relevance",
  "description": "Mean relevance of the retrieved chunks to the input; an LLM judge scores each chunk 0..1 on its own.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "contextual_relevance",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                  "description": "The result succeeds when score >= threshold."},
    "strict_mode": {"type": "boolean", "default": false,
                    "description": "Sets the threshold to 1.0 (every chunk must be fully relevant); overrides threshold."},
    )json" KRINO_JUDGE_VOTING_PROPERTIES R"json("judge": {"type": "string", "minLength": 1, "description": "Name of a judge configured in the experiment file; the default judge when absent."},
    "prompt": {"type": "string", "minLength": 1, "description": "A prompt template replacing the built-in one, sent once per chunk. Placeholders: {{input}}, {{chunk}}."},
    "input_key": {"type": "string", "minLength": 1, "default": "input", "description": "Key of the query in inputs."},
    "retrieval_context_key": {"type": "string", "minLength": 1, "default": "retrievalContext",
                              "description": "Key of the retrieved chunks: actualOutputs first, then metadata. A list is one chunk per element."}
  },
  "additionalProperties": false
})json";

namespace {
const Variables kContextualRelevanceVariables = {"input", "chunk"};
constexpr std::string_view kContextualRelevanceName = "contextual_relevance";
}  // namespace

ContextualRelevanceEvaluator::ContextualRelevanceEvaluator(Config config)
    : settings_(read_judge_settings(apply_schema(config, kConfigSchema), kContextualRelevanceName, kContextualRelevanceVariables)),
      input_key_(read_key_option(config, "input_key")),
      retrieval_context_key_(read_key_option(config, "retrieval_context_key")) {
  if (config.get_bool("strict_mode")) settings_.common.threshold = 1.0;
}

std::string ContextualRelevanceEvaluator::prompt(const std::string& input, const std::string& chunk) const {
  return settings_.prompt.render({{"input", input}, {"chunk", chunk}});
}

EvalResult ContextualRelevanceEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  return run_votes(settings_.voting, settings_.common, Better::higher, ctx,
                   [&](const JudgeCall& call) { return evaluate_once(test_case, call); });
}

EvalResult ContextualRelevanceEvaluator::evaluate_once(const TestCase& test_case, const JudgeCall& call) const {
  const std::string input = render_value(required_member(test_case, Section::inputs, input_key_, kContextualRelevanceName));
  const std::vector<std::string> chunks =
      context_chunks(required_context(test_case, retrieval_context_key_, kContextualRelevanceName));
  if (chunks.empty()) {
    EvalResult result = EvalResult::scored(settings_.common.name, 0.0, settings_.common.threshold,
                                           "no retrieved chunks to score");
    result.metadata["contextScores"] = boost::json::array();
    return result;
  }
  boost::json::array scores;
  double sum = 0.0;
  std::size_t relevant = 0;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const boost::json::object reply = ask_judge(call, settings_, kContextualRelevanceName, prompt(input, chunks[i]));
    const std::optional<double> raw = reply_number(reply, "score");
    if (!raw) throw_unusable_reply(kContextualRelevanceName, "for chunk " + std::to_string(i) + " has no numeric 'score'", reply);
    const double score = std::clamp(*raw, 0.0, 1.0);
    sum += score;
    if (score >= 0.5) ++relevant;
    scores.push_back(boost::json::object{{"index", i}, {"score", score}, {"reason", reply_string(reply, "reason")}});
  }
  const double mean = sum / static_cast<double>(chunks.size());
  EvalResult result = EvalResult::scored(settings_.common.name, mean, settings_.common.threshold,
                                         std::to_string(relevant) + " of " + std::to_string(chunks.size()) +
                                             " retrieved chunks are relevant to the input (score >= 0.5)");
  result.metadata["contextScores"] = std::move(scores);
  return result;
}

}  // namespace krino::judge
