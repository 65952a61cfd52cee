#include "tool_description_reliability_evaluator.h"

#include "blank_text.h"

#include "reliability_prompts.h"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace krino::agent {

namespace {

constexpr char kToolDescriptionReliabilityEvaluatorSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_description_reliability",
  "description": "How well each tool definition in the test case describes its parameters: every parameter described and typed, at most max_input_args parameters, at most max_optional_args optional ones. Per-tool score = passed / checks that ran; the score is the mean over the tools (1.0 for none). With llm_checks, one judge call per tool adds nine checks on the description text; otherwise they are reported as skipped.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_description_reliability",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.8,
                  "description": "The result succeeds when score >= threshold."},
    "tools_key": {"type": "string", "minLength": 1, "default": "tools",
                  "description": "Key of the tool definitions in metadata. A missing or null list is an error."},
    "max_input_args": {"type": "integer", "minimum": 0, "default": 5,
                       "description": "max_num_input_arguments passes when the tool has at most this many parameters (keys of the schema's properties)."},
    "max_optional_args": {"type": "integer", "minimum": 0, "default": 3,
                          "description": "max_optional_input_arguments passes when at most this many parameters are not listed in the schema's required."},
    "llm_checks": {"type": "boolean", "default": false,
                   "description": "Ask an LLM judge, once per tool, for general_structure, has_examples, has_usage_notes, intent_over_implementation, clarity, redundancy, input_arguments_enum, input_arguments_format and return_statement_quality. A key missing from the reply fails its check."},
    "judge": {"type": ["string", "null"], "minLength": 1, "default": null,
              "description": "Name of a judge configured in the experiment file; null or absent: the default judge. Needs llm_checks."},
    "prompt": {"type": ["string", "null"], "minLength": 1, "default": null,
               "description": "A prompt template replacing the built-in one (null or absent: the built-in one). Placeholders: {{tool_name}}, {{tool_description}}, {{parameters}}. Needs llm_checks."}
  },
  "additionalProperties": false
})json";

bool has_description(const boost::json::value* schema) {
  if (schema == nullptr || !schema->is_object()) return false;
  const boost::json::value* description = schema->get_object().if_contains("description");
  return description != nullptr && description->is_string() && !is_blank_text(description->get_string());
}

// "type" as a name or a non-empty list of names, or a union (anyOf / oneOf) whose every branch has
// a type, as generated for optional parameters ({"anyOf": [{"type": "string"}, {"type": "null"}]}).
bool has_type(const boost::json::value* schema) {
  if (schema == nullptr || !schema->is_object()) return false;
  const boost::json::object& object = schema->get_object();
  if (const boost::json::value* type = object.if_contains("type")) {
    if (type->is_string()) return !type->get_string().empty();
    if (type->is_array())
      return !type->get_array().empty() &&
             std::all_of(type->get_array().begin(), type->get_array().end(),
                         [](const boost::json::value& entry) { return entry.is_string() && !entry.get_string().empty(); });
    return false;
  }
  for (std::string_view union_key : {"anyOf", "oneOf"}) {
    const boost::json::value* branches = object.if_contains(union_key);
    if (branches == nullptr || !branches->is_array() || branches->get_array().empty()) continue;
    return std::all_of(branches->get_array().begin(), branches->get_array().end(),
                       [](const boost::json::value& branch) { return has_type(&branch); });
  }
  return false;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::size_t read_count(const Config& config, std::string_view key) {
  const std::int64_t value = config.get_int(key);
  if (value < 0)
    throw invalid_argument("option '" + std::string(key) + "' must not be negative, got " + std::to_string(value));
  return static_cast<std::size_t>(value);
}

}  // namespace

ToolChecks check_tool_description(const ToolDefinition& tool, const DescriptionRules& rules,
                                  const std::optional<DescriptionJudgeVerdicts>& verdicts) {
  ToolChecks checks;
  checks.tool = tool.name;
  const std::vector<std::string> parameters = tool.parameter_names();
  const std::vector<std::string> required = tool.required_parameters();

  std::vector<std::string> undescribed;
  std::vector<std::string> untyped;
  std::size_t optional = 0;
  for (const std::string& parameter : parameters) {
    const boost::json::value* schema = tool.parameter_schema(parameter);
    if (!has_description(schema)) undescribed.push_back(parameter);
    if (!has_type(schema)) untyped.push_back(parameter);
    if (std::find(required.begin(), required.end(), parameter) == required.end()) ++optional;
  }
  checks.add("input_arguments_clarity", undescribed.empty(), "no description: " + listed(undescribed));
  checks.add("input_arguments_types", untyped.empty(), "no type: " + listed(untyped));
  checks.add("max_num_input_arguments", parameters.size() <= rules.max_input_args,
             std::to_string(parameters.size()) + " parameters, more than " + std::to_string(rules.max_input_args));
  checks.add("max_optional_input_arguments", optional <= rules.max_optional_args,
             std::to_string(optional) + " optional parameters, more than " + std::to_string(rules.max_optional_args));

  using Verdict = bool DescriptionJudgeVerdicts::*;
  static constexpr std::pair<const char*, Verdict> kJudgeChecks[] = {
      {"general_structure", &DescriptionJudgeVerdicts::general_structure},
      {"has_examples", &DescriptionJudgeVerdicts::has_examples},
      {"has_usage_notes", &DescriptionJudgeVerdicts::has_usage_notes},
      {"intent_over_implementation", &DescriptionJudgeVerdicts::intent_over_implementation},
      {"clarity", &DescriptionJudgeVerdicts::clarity},
      {"redundancy", &DescriptionJudgeVerdicts::redundancy},
      {"input_arguments_enum", &DescriptionJudgeVerdicts::input_arguments_enum},
      {"input_arguments_format", &DescriptionJudgeVerdicts::input_arguments_format},
      {"return_statement_quality", &DescriptionJudgeVerdicts::return_statement_quality},
  };
  for (const auto& [name, verdict] : kJudgeChecks) {
    if (verdicts) checks.add(name, (*verdicts).*verdict, "the judge failed it");
    else checks.add(name, CheckOutcome::skipped);
  }
  return checks;
}

const char* const ToolDescriptionReliabilityEvaluator::kConfigSchema = kToolDescriptionReliabilityEvaluatorSchema;

ToolDescriptionReliabilityEvaluator::ToolDescriptionReliabilityEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      tools_key_(read_key_option(config, "tools_key")),
      rules_{read_count(config, "max_input_args"), read_count(config, "max_optional_args")},
      judge_(config, "tool_description_reliability", kToolDescriptionPrompt,
             {"tool_name", "tool_description", "parameters"}) {}

std::optional<DescriptionJudgeVerdicts> ToolDescriptionReliabilityEvaluator::ask_judge(const ToolDefinition& tool,
                                                                                      const CallContext& ctx) const {
  if (!judge_.enabled()) return std::nullopt;
  const std::string description = is_blank_text(tool.description) ? std::string("(none)") : tool.description;
  const std::string parameters = tool.parameters.empty() ? std::string("(none)") : boost::json::serialize(tool.parameters);
  const std::vector<bool> v = judge_.ask(
      ctx, judge_.prompt({{"tool_name", tool.name}, {"tool_description", description}, {"parameters", parameters}}),
      {"general_structure", "has_examples", "has_usage_notes", "intent_over_implementation", "clarity", "redundancy",
       "input_arguments_enum", "input_arguments_format", "return_statement_quality"},
      tool.name);
  return DescriptionJudgeVerdicts{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
}

EvalResult ToolDescriptionReliabilityEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  std::vector<ToolChecks> tools;
  for (const ToolDefinition& definition : read_required_tools(test_case, tools_key_))
    tools.push_back(check_tool_description(definition, rules_, ask_judge(definition, ctx)));
  return reliability_result(common_, tools);
}

}  // namespace krino::agent
