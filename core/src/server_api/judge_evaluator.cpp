#include "krino/core/server_api/judge_evaluator.hpp"

#include <krino/json_extract.hpp>
#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>

namespace krino::core::server_api {

namespace {

struct FieldName {
  JudgeField field;
  std::string_view api;     // the reference's EvalTestCaseParam name
  std::string_view krino;   // llm_judge's evaluation_params name
  std::string_view heading;
};

constexpr FieldName kFieldNames[] = {
    {JudgeField::input, "INPUT", "input", "Input"},
    {JudgeField::expected_output, "EXPECTED_OUTPUT", "expected_output", "Expected output"},
    {JudgeField::actual_output, "ACTUAL_OUTPUT", "actual_output", "Actual output"},
    {JudgeField::context, "CONTEXT", "context", "Context"},
};

const FieldName& name_of(JudgeField field) {
  for (const FieldName& name : kFieldNames)
    if (name.field == field) return name;
  return kFieldNames[0];
}

bool blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::string number_text(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  return boost::json::serialize(boost::json::value(value));
}

// A value as the prompt shows it: a string as its text, anything else as compact JSON.
std::string shown(const boost::json::value& value) {
  if (value.is_string()) return std::string(value.get_string());
  return boost::json::serialize(value);
}

// The field's value in an item document: the section's conventional member (input / output) when
// the section has it, else the whole section. Context: actualOutputs.context, then metadata.context.
std::optional<std::string> field_text(const boost::json::object& item, JudgeField field) {
  auto section_member = [&](std::string_view section, std::string_view key) -> std::optional<std::string> {
    const boost::json::value* value = item.if_contains(section);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (const auto* object = value->if_object()) {
      if (const auto* found = object->if_contains(key)) return shown(*found);
      if (key == "context") return std::nullopt;
    }
    return shown(*value);
  };
  switch (field) {
    case JudgeField::input:
      return section_member("inputs", "input");
    case JudgeField::expected_output:
      return section_member("expectedOutputs", "output");
    case JudgeField::actual_output:
      return section_member("actualOutputs", "output");
    case JudgeField::context:
      if (auto found = section_member("actualOutputs", "context")) return found;
      return section_member("metadata", "context");
  }
  return std::nullopt;
}

}  // namespace

std::variant<JudgeEvaluator, std::string> read_judge_evaluator(std::string_view body) {
  boost::json::error_code ec;
  const boost::json::value parsed = krino::json::parse(body, ec);
  if (ec || !parsed.is_object()) return std::string("body must be one JSON object");
  const boost::json::object& object = parsed.get_object();
  JudgeEvaluator evaluator;
  const auto* name = object.if_contains("evaluatorName");
  if (name == nullptr || !name->is_string() || blank(name->get_string())) return std::string("evaluatorName is required and must not be blank");
  evaluator.name = std::string(name->get_string());
  if (evaluator.name.size() > 200) return std::string("evaluatorName is longer than 200 bytes");
  const auto* criteria = object.if_contains("criteria");
  if (criteria == nullptr || !criteria->is_string() || blank(criteria->get_string())) return std::string("criteria is required and must not be blank");
  evaluator.criteria = std::string(criteria->get_string());
  if (const auto* params = object.if_contains("evaluationParams"); params && !params->is_null()) {
    const auto* list = params->if_array();
    if (list == nullptr || list->empty()) return std::string("evaluationParams must be a non-empty list of INPUT, EXPECTED_OUTPUT, ACTUAL_OUTPUT, CONTEXT");
    evaluator.fields.clear();
    for (const boost::json::value& param : *list) {
      const FieldName* found = nullptr;
      if (param.is_string())
        for (const FieldName& candidate : kFieldNames)
          if (param.get_string() == candidate.api || param.get_string() == candidate.krino) found = &candidate;
      if (found == nullptr) return std::string("evaluationParams holds ") + boost::json::serialize(param) + ", not one of INPUT, EXPECTED_OUTPUT, ACTUAL_OUTPUT, CONTEXT";
      if (std::find(evaluator.fields.begin(), evaluator.fields.end(), found->field) != evaluator.fields.end())
        return std::string("evaluationParams names ") + std::string(found->api) + " twice";
      evaluator.fields.push_back(found->field);
    }
  }
  auto number = [&](std::string_view key, double& out) -> std::optional<std::string> {
    const auto* value = object.if_contains(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_number() || !std::isfinite(value->to_number<double>())) return std::string(key) + " must be a finite number";
    out = value->to_number<double>();
    return std::nullopt;
  };
  for (const auto& [key, out] : {std::pair<std::string_view, double*>{"minScore", &evaluator.min_score}, {"maxScore", &evaluator.max_score},
                                 {"threshold", &evaluator.threshold}})
    if (auto problem = number(key, *out)) return *problem;
  if (!(evaluator.min_score < evaluator.max_score)) return std::string("maxScore must be greater than minScore");
  if (evaluator.threshold < 0 || evaluator.threshold > 1) return std::string("threshold must be between 0 and 1 (it applies to the normalised score)");
  return evaluator;
}

std::string judge_evaluator_json(const JudgeEvaluator& evaluator) {
  boost::json::object out;
  out["evaluatorName"] = evaluator.name;
  out["criteria"] = evaluator.criteria;
  boost::json::array params;
  for (JudgeField field : evaluator.fields) params.emplace_back(name_of(field).api);
  out["evaluationParams"] = std::move(params);
  out["minScore"] = evaluator.min_score;
  out["maxScore"] = evaluator.max_score;
  out["threshold"] = evaluator.threshold;
  return boost::json::serialize(out);
}

JudgeEvaluator judge_evaluator_from_json(std::string_view stored) {
  auto read = read_judge_evaluator(stored);
  if (auto* evaluator = std::get_if<JudgeEvaluator>(&read)) return std::move(*evaluator);
  throw std::invalid_argument("stored judge settings are unusable: " + std::get<std::string>(read));
}

std::variant<std::string, std::string> judge_prompt(const JudgeEvaluator& evaluator, std::string_view item_document) {
  boost::json::error_code ec;
  const boost::json::value item = krino::json::parse(item_document, ec);
  if (ec || !item.is_object()) return std::variant<std::string, std::string>(std::in_place_index<1>, "the item's document is not a JSON object");
  std::string fields;
  for (JudgeField field : evaluator.fields) {
    const auto text = field_text(item.get_object(), field);
    if (!text)
      return std::variant<std::string, std::string>(std::in_place_index<1>,
                                                    "the item has no " + std::string(name_of(field).api) + " to show the judge");
    if (!fields.empty()) fields.append("\n\n");
    fields.append(name_of(field).heading).append(":\n").append(*text);
  }
  std::string prompt = "You are evaluating the output of an AI system against one criterion.\n\nCriterion:\n";
  prompt.append(evaluator.criteria).append("\n\n").append(fields).append("\n\n");
  const std::string low = number_text(evaluator.min_score);
  const std::string high = number_text(evaluator.max_score);
  prompt.append("Score how well the material above meets the criterion on a scale from ").append(low);
  prompt.append(" (does not meet it at all) to ").append(high).append(" (meets it fully). Values in between are allowed.\n\n");
  prompt.append("Answer with one JSON object and nothing else:\n{\"score\": <a number from ").append(low).append(" to ").append(high);
  prompt.append(">, \"reason\": \"<one or two sentences explaining the score>\"}\n");
  return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(prompt));
}

JudgeReading read_judge_reply(const JudgeEvaluator& evaluator, std::string_view reply_text) {
  const krino::json::JsonExtraction extracted = krino::json::extract_json(reply_text);
  if (!extracted.value || !extracted.value->is_object()) return JudgeReading{std::nullopt, "the judge's reply has no JSON object: " + extracted.failure};
  const boost::json::object& reply = extracted.value->get_object();
  const auto* score = reply.if_contains("score");
  if (score == nullptr || !score->is_number() || !std::isfinite(score->to_number<double>()))
    return JudgeReading{std::nullopt, "the judge's reply has no numeric 'score'"};
  const double raw = score->to_number<double>();
  JudgeReading reading;
  reading.score = std::clamp((raw - evaluator.min_score) / (evaluator.max_score - evaluator.min_score), 0.0, 1.0);
  if (const auto* reason = reply.if_contains("reason"); reason && reason->is_string() && !blank(reason->get_string()))
    reading.reason = std::string(reason->get_string());
  else
    reading.reason = "No reason provided.";
  return reading;
}

}  // namespace krino::core::server_api
