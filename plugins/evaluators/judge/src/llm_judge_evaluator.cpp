#include "llm_judge_evaluator.h"

#include "test_case_fields.h"
#include "value_rendering.h"

#include <krino/json_text.hpp>

#include <algorithm>
#include <cmath>

namespace krino::judge {

const char* const LlmJudgeEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "llm_judge",
  "description": "An LLM judge scores the selected test case fields against plain-language criteria on score_range; the score is normalised to 0..1, the threshold is not.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "llm_judge",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                  "description": "The result succeeds when the normalised score >= threshold. Always on 0..1, whatever score_range is."},
    "criteria": {"type": "string", "minLength": 1,
                 "description": "What the judge scores, in plain language."},
    "evaluation_params": {"type": "array", "minItems": 1, "uniqueItems": true,
                          "items": {"enum": ["input", "expected_output", "actual_output", "context"]},
                          "default": ["input", "actual_output"],
                          "description": "The test case fields the prompt shows. Each selected field must be present in the test case."},
    "score_range": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number"}, "default": [0, 1],
                    "description": "[min, max] of the judge's scale; max must be greater than min. The score is normalised to (raw - min) / (max - min), clamped to 0..1."},
    )json" KRINO_JUDGE_VOTING_PROPERTIES R"json("judge": {"type": "string", "minLength": 1,
              "description": "Name of a judge configured in the experiment file; the default judge when absent."},
    "prompt": {"type": "string", "minLength": 1,
               "description": "A prompt template replacing the built-in one. Placeholders: {{criteria}}, {{fields}}, {{input}}, {{expected_output}}, {{actual_output}}, {{context}}, {{score_min}}, {{score_max}}; a field placeholder needs that field in evaluation_params."},
    "input_key": {"type": "string", "minLength": 1, "default": "input", "description": "Key of the input in inputs."},
    "output_key": {"type": "string", "minLength": 1, "default": "output", "description": "Key of the actual output in actualOutputs."},
    "expected_key": {"type": "string", "minLength": 1, "default": "output", "description": "Key of the expected output in expectedOutputs."},
    "context_key": {"type": "string", "minLength": 1, "default": "context",
                    "description": "Key of the context: actualOutputs first, then metadata."}
  },
  "required": ["criteria"],
  "additionalProperties": false
})json";

namespace {

const Variables kLlmJudgeVariables = {"criteria", "fields", "input", "expected_output", "actual_output",
                              "context", "score_min", "score_max"};

std::string number_text(double value) { return json::to_compact_json(boost::json::value(value)); }

// 1 and 5, not 1.0 and 5.0, when the range is whole numbers: that is how people write scales.
std::string scale_text(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  return number_text(value);
}

}  // namespace

LlmJudgeEvaluator::LlmJudgeEvaluator(Config config)
    : settings_(read_judge_settings(apply_schema(config, kConfigSchema), "llm_judge", kLlmJudgeVariables)),
      criteria_(config.get_string("criteria")),
      input_key_(read_key_option(config, "input_key")),
      output_key_(read_key_option(config, "output_key")),
      expected_key_(read_key_option(config, "expected_key")),
      context_key_(read_key_option(config, "context_key")) {
  if (criteria_.find_first_not_of(" \t\r\n") == std::string::npos)
    throw invalid_argument("option 'criteria' must not be empty");

  const std::vector<std::string> params = config.get_strings("evaluation_params");
  if (params.empty()) throw invalid_argument("option 'evaluation_params' must name at least one field");
  for (const std::string& param : params) {
    if (param == "input") show_input_ = true;
    else if (param == "expected_output") show_expected_ = true;
    else if (param == "actual_output") show_actual_ = true;
    else if (param == "context") show_context_ = true;
    else
      throw invalid_argument("option 'evaluation_params': unknown field '" + param +
                             "' (known: input, expected_output, actual_output, context)");
  }
  const std::pair<const char*, bool> fields[] = {{"input", show_input_}, {"expected_output", show_expected_},
                                                 {"actual_output", show_actual_}, {"context", show_context_}};
  for (const auto& [field, shown] : fields) {
    if (!shown && settings_.prompt.uses(field))
      throw invalid_argument(std::string("option 'prompt' uses {{") + field + "}} but evaluation_params does not select '" +
                             field + "'");
  }

  if (const boost::json::value* range = config.find("score_range")) {
    const boost::json::array* pair = range->if_array();
    if (pair == nullptr || pair->size() != 2 || !(*pair)[0].is_number() || !(*pair)[1].is_number())
      throw invalid_argument("option 'score_range' must be [min, max], two numbers");
    min_ = (*pair)[0].to_number<double>();
    max_ = (*pair)[1].to_number<double>();
    if (!std::isfinite(min_) || !std::isfinite(max_) || max_ <= min_)
      throw invalid_argument("option 'score_range': max (" + number_text(max_) + ") must be greater than min (" +
                             number_text(min_) + ")");
  }
}

std::string LlmJudgeEvaluator::prompt(const TestCase& test_case) const {
  constexpr std::string_view kLlmJudgeName = "llm_judge";
  PromptTemplate::Values values;
  values["criteria"] = criteria_;
  values["score_min"] = scale_text(min_);
  values["score_max"] = scale_text(max_);
  std::string fields;
  auto add = [&](const char* variable, const char* heading, std::string text) {
    if (!fields.empty()) fields += "\n\n";
    fields += heading;
    fields += ":\n";
    fields += text;
    values[variable] = std::move(text);
  };
  if (show_input_) add("input", "Input", render_value(required_member(test_case, Section::inputs, input_key_, kLlmJudgeName)));
  if (show_expected_)
    add("expected_output", "Expected output",
        render_value(required_member(test_case, Section::expected_outputs, expected_key_, kLlmJudgeName)));
  if (show_actual_)
    add("actual_output", "Actual output",
        render_value(required_member(test_case, Section::actual_outputs, output_key_, kLlmJudgeName)));
  if (show_context_)
    add("context", "Context", render_chunks(context_chunks(required_context(test_case, context_key_, kLlmJudgeName))));
  values["fields"] = std::move(fields);
  return settings_.prompt.render(values);
}

EvalResult LlmJudgeEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  return run_votes(settings_.voting, settings_.common, Better::higher, ctx,
                   [&](const JudgeCall& call) { return evaluate_once(test_case, call); });
}

EvalResult LlmJudgeEvaluator::evaluate_once(const TestCase& test_case, const JudgeCall& call) const {
  const boost::json::object reply = ask_judge(call, settings_, "llm_judge", prompt(test_case));
  const std::optional<double> raw = reply_number(reply, "score");
  if (!raw) throw_unusable_reply("llm_judge", "has no numeric 'score'", reply);
  const double score = std::clamp((*raw - min_) / (max_ - min_), 0.0, 1.0);
  std::string reason = reply_string(reply, "reason");
  if (reason.find_first_not_of(" \t\r\n") == std::string::npos) reason = "No reason provided.";
  EvalResult result = EvalResult::scored(settings_.common.name, score, settings_.common.threshold, std::move(reason));
  result.metadata["rawScore"] = *raw;
  result.metadata["scoreRange"] = boost::json::array{min_, max_};
  return result;
}

}  // namespace krino::judge
