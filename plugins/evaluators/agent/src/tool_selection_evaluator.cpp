#include "tool_selection_evaluator.h"

#include <krino/agent/tool_call.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <utility>

namespace krino::agent {

namespace {

constexpr char kToolSelectionEvaluatorSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_selection",
  "description": "Whether the agent chose the right tool for one message: 1.0 for the expected tool (or for no call when none_marker is expected), secondary_score for a secondary tool, 0.0 otherwise. The actual tool is actualOutputs.actualTool when present, else the first call in actualOutputs.toolCalls.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_selection",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                  "description": "The result succeeds when score >= threshold. The default equals the default secondary_score, so a secondary tool passes and every failing rule (0.0) fails."},
    "secondary_score": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                        "description": "Score when the agent called one of the secondary tools instead of the expected one."},
    "none_marker": {"type": "string", "minLength": 1, "default": "none",
                    "description": "Expected tool name meaning that the agent should call no tool."},
    "expected_tool_key": {"type": "string", "minLength": 1, "default": "expectedTool",
                          "description": "Key of the expected tool name in expectedOutputs (a string; required)."},
    "secondary_tools_key": {"type": "string", "minLength": 1, "default": "secondaryTools",
                            "description": "Key of the acceptable alternative tool names in expectedOutputs (a list of strings; missing or null means none)."},
    "actual_tool_key": {"type": "string", "minLength": 1, "default": "actualTool",
                        "description": "Key in actualOutputs of the tool the agent chose (a string, or null for no call). When present it is used instead of the tool calls."},
    "tool_calls_key": {"type": "string", "minLength": 1, "default": "toolCalls",
                       "description": "Key of the agent's tool calls in actualOutputs, used when actual_tool_key is absent: the first call is the choice; a missing, null or empty list means no call."}
  },
  "additionalProperties": false
})json";

std::string quoted(const std::string& name) { return "'" + name + "'"; }

double read_secondary_score(const Config& config) {
  const double value = config.get_double("secondary_score");
  if (!(value >= 0.0 && value <= 1.0))
    throw invalid_argument("option 'secondary_score' must be between 0 and 1, got " +
                           json::to_compact_json(boost::json::value(value)));
  return value;
}

std::string read_expected(const TestCase& test_case, const std::string& key) {
  const boost::json::value* value = test_case.find(Section::expected_outputs, key);
  if (value == nullptr || value->is_null())
    throw invalid_argument("expectedOutputs has no '" + key + "': give the tool the agent should call, or the no-call marker");
  if (!value->is_string() || value->get_string().empty())
    throw invalid_argument("expectedOutputs." + key + " must be a non-empty tool name");
  return std::string(value->get_string());
}

std::vector<std::string> read_secondary(const TestCase& test_case, const std::string& key) {
  std::vector<std::string> names;
  const boost::json::value* value = test_case.find(Section::expected_outputs, key);
  if (value == nullptr || value->is_null()) return names;
  if (!value->is_array()) throw invalid_argument("expectedOutputs." + key + " must be a list of tool names");
  for (const boost::json::value& entry : value->get_array()) {
    if (!entry.is_string()) throw invalid_argument("expectedOutputs." + key + " must be a list of tool names");
    names.emplace_back(entry.get_string());
  }
  return names;
}

}  // namespace

ToolSelection select_rule(const std::string& expected, const std::vector<std::string>& secondary,
                          const std::optional<std::string>& actual, const std::string& none_marker,
                          double secondary_score) {
  const bool none_expected = expected == none_marker;
  if (actual && *actual == expected) return {"expected_tool", 1.0, "called the expected tool " + quoted(*actual)};
  if (actual && std::find(secondary.begin(), secondary.end(), *actual) != secondary.end())
    return {"secondary_tool", secondary_score,
            "called " + quoted(*actual) + ", an accepted secondary tool (the expected one is " + quoted(expected) + ")"};
  if (!actual && none_expected) return {"no_call_as_expected", 1.0, "called no tool, as expected"};
  if (actual && none_expected) return {"unexpected_call", 0.0, "called " + quoted(*actual) + " where no tool call was expected"};
  if (!actual) return {"missing_call", 0.0, "called no tool; expected " + quoted(expected)};
  return {"wrong_tool", 0.0, "called " + quoted(*actual) + " instead of the expected " + quoted(expected)};
}

const char* const ToolSelectionEvaluator::kConfigSchema = kToolSelectionEvaluatorSchema;

ToolSelectionEvaluator::ToolSelectionEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      expected_tool_key_(read_key_option(config, "expected_tool_key")),
      secondary_tools_key_(read_key_option(config, "secondary_tools_key")),
      actual_tool_key_(read_key_option(config, "actual_tool_key")),
      tool_calls_key_(read_key_option(config, "tool_calls_key")),
      none_marker_(read_key_option(config, "none_marker")),
      secondary_score_(read_secondary_score(config)) {}

EvalResult ToolSelectionEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const std::string expected = read_expected(test_case, expected_tool_key_);
  const std::vector<std::string> secondary = read_secondary(test_case, secondary_tools_key_);

  std::optional<std::string> actual;
  std::string source;
  if (const boost::json::value* chosen = test_case.find(Section::actual_outputs, actual_tool_key_)) {
    source = actual_tool_key_;
    if (!chosen->is_null()) {
      if (!chosen->is_string() || chosen->get_string().empty())
        throw invalid_argument("actualOutputs." + actual_tool_key_ + " must be a non-empty tool name or null");
      actual = std::string(chosen->get_string());
    }
  } else {
    source = tool_calls_key_;
    const boost::json::value* list = test_case.find(Section::actual_outputs, tool_calls_key_);
    if (list != nullptr && !list->is_null()) {
      const std::vector<ToolCall> calls = read_tool_calls(*list, "actualOutputs." + tool_calls_key_);
      if (!calls.empty()) actual = calls.front().name;
    }
  }

  ToolSelection selection = select_rule(expected, secondary, actual, none_marker_, secondary_score_);
  EvalResult result = EvalResult::scored(common_.name, selection.score, common_.threshold, std::move(selection.reason));
  result.metadata["rule"] = selection.rule;
  result.metadata["expectedTool"] = expected;
  result.metadata["actualTool"] = actual ? boost::json::value(*actual) : boost::json::value(nullptr);
  boost::json::array secondary_json;
  for (const std::string& name : secondary) secondary_json.emplace_back(name);
  result.metadata["secondaryTools"] = std::move(secondary_json);
  result.metadata["actualSource"] = source;
  return result;
}

}  // namespace krino::agent
