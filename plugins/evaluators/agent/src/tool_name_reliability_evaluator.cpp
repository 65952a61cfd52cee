#include "tool_name_reliability_evaluator.h"

#include "reliability_prompts.h"

#include <krino/agent/tool_definition.hpp>

#include <cstdint>
#include <utility>

namespace krino::agent {

namespace {

constexpr char kToolNameReliabilityEvaluatorSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_name_reliability",
  "description": "How well each tool name in the test case's tool definitions states its purpose: lower snake_case, at most max_segments underscore-separated segments, and no implementation detail from the blocklist. Per-tool score = passed / checks that ran; the score is the mean over the tools (1.0 for none). With llm_checks, one judge call per tool adds clarity and name_order and joins the judge to intent_over_implementation; otherwise those judge checks are reported as skipped.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_name_reliability",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.8,
                  "description": "The result succeeds when score >= threshold."},
    "tools_key": {"type": "string", "minLength": 1, "default": "tools",
                  "description": "Key of the tool definitions in metadata. A missing or null list is an error."},
    "max_segments": {"type": "integer", "minimum": 1, "default": 7,
                     "description": "conciseness passes when the name has at most this many underscore-separated segments (underscores + 1)."},
    "blocklist": {"type": "array", "items": {"type": "string", "minLength": 1},
                  "default": ["_with_llm", "_via_api", "_from_s3", "_using_bq", "_using_sdk", "_with_gpt4"],
                  "description": "Substrings that name an implementation detail; intent_over_implementation fails when the name contains one, ignoring ASCII case. Giving this option replaces the default list."},
    "extra_blocklist": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": [],
                        "description": "Substrings added to blocklist (to the default list when blocklist is not given)."},
    "llm_checks": {"type": "boolean", "default": false,
                   "description": "Ask an LLM judge, once per tool, for clarity, name_order and the judge half of intent_over_implementation. A key missing from the reply fails its check."},
    "judge": {"type": ["string", "null"], "minLength": 1, "default": null,
              "description": "Name of a judge configured in the experiment file; null or absent: the default judge. Needs llm_checks."},
    "prompt": {"type": ["string", "null"], "minLength": 1, "default": null,
               "description": "A prompt template replacing the built-in one (null or absent: the built-in one). Placeholders: {{tool_name}}, {{tool_description}}. Needs llm_checks."}
  },
  "additionalProperties": false
})json";

char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

bool lower_letter(char c) { return c >= 'a' && c <= 'z'; }
bool lower_letter_or_digit(char c) { return lower_letter(c) || (c >= '0' && c <= '9'); }

// ^[a-z][a-z0-9]*(_[a-z0-9]+)*$ : a lower-case letter first, and every underscore between two
// non-empty runs of lower-case letters and digits.
bool is_snake_case(std::string_view name) {
  if (name.empty() || !lower_letter(name.front()) || name.back() == '_') return false;
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (name[i] == '_') {
      if (name[i - 1] == '_') return false;
    } else if (!lower_letter_or_digit(name[i])) {
      return false;
    }
  }
  return true;
}

std::size_t segment_count(std::string_view name) {
  std::size_t segments = 1;
  for (char c : name)
    if (c == '_') ++segments;
  return segments;
}

std::vector<std::string> read_blocklist(const Config& config) {
  // The user's list replaces the schema's default one; extra_blocklist adds to either.
  std::vector<std::string> list = config.get_strings("blocklist");
  for (std::string& extra : config.get_strings("extra_blocklist")) list.push_back(std::move(extra));
  for (std::string& entry : list) {
    // An empty entry is a substring of every name.
    if (entry.empty()) throw invalid_argument("options 'blocklist' and 'extra_blocklist' must not hold empty strings");
    entry = ascii_lower(entry);
  }
  return list;
}

std::size_t read_max_segments(const Config& config) {
  const std::int64_t value = config.get_int("max_segments");
  if (value < 1) throw invalid_argument("option 'max_segments' must be at least 1, got " + std::to_string(value));
  return static_cast<std::size_t>(value);
}

}  // namespace

ToolChecks check_tool_name(std::string_view name, const NameRules& rules,
                           const std::optional<NameJudgeVerdicts>& verdicts) {
  ToolChecks tool;
  tool.tool = std::string(name);
  tool.add("snakecase_format", is_snake_case(name), "not lower snake_case");

  const std::size_t segments = segment_count(name);
  tool.add("conciseness", segments <= rules.max_segments,
           std::to_string(segments) + " segments, more than " + std::to_string(rules.max_segments));

  const std::string lowered = ascii_lower(name);
  std::string blocked;
  for (const std::string& pattern : rules.blocklist) {
    if (lowered.find(pattern) != std::string::npos) {
      blocked = pattern;
      break;
    }
  }
  if (!blocked.empty()) {
    tool.add("intent_over_implementation", false, "contains '" + blocked + "'");
  } else if (verdicts) {
    tool.add("intent_over_implementation", verdicts->intent_over_implementation, "the judge found implementation detail");
  } else {
    tool.add("intent_over_implementation", true);
  }

  if (verdicts) {
    tool.add("clarity", verdicts->clarity, "the judge found the purpose unclear");
    tool.add("name_order", verdicts->name_order, "the judge found the words out of order");
  } else {
    tool.add("clarity", CheckOutcome::skipped);
    tool.add("name_order", CheckOutcome::skipped);
  }
  return tool;
}

const char* const ToolNameReliabilityEvaluator::kConfigSchema = kToolNameReliabilityEvaluatorSchema;

ToolNameReliabilityEvaluator::ToolNameReliabilityEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      tools_key_(read_key_option(config, "tools_key")),
      rules_{read_max_segments(config), read_blocklist(config)},
      judge_(config, "tool_name_reliability", kToolNamePrompt, {"tool_name", "tool_description"}) {}

std::optional<NameJudgeVerdicts> ToolNameReliabilityEvaluator::ask_judge(const ToolDefinition& tool,
                                                                        const CallContext& ctx) const {
  if (!judge_.enabled()) return std::nullopt;
  const std::vector<bool> verdicts =
      judge_.ask(ctx, judge_.prompt({{"tool_name", tool.name}, {"tool_description", tool.description}}),
                 {"clarity", "name_order", "intent_over_implementation"}, tool.name);
  return NameJudgeVerdicts{verdicts[0], verdicts[1], verdicts[2]};
}

EvalResult ToolNameReliabilityEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  std::vector<ToolChecks> tools;
  for (const ToolDefinition& definition : read_required_tools(test_case, tools_key_))
    tools.push_back(check_tool_name(definition.name, rules_, ask_judge(definition, ctx)));
  return reliability_result(common_, tools);
}

}  // namespace krino::agent
