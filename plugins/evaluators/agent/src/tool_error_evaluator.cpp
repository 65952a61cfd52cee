#include "tool_error_evaluator.h"

#include "tool_call_operands.h"

#include "blank_text.h"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <utility>

namespace krino::agent {

namespace {

constexpr char kToolErrorEvaluatorSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_error",
  "description": "Share of the agent's tool calls that succeeded. A call failed when its metadata flags it as an error (isError), it has no result, a blank result, a JSON object result whose 'error' is neither null nor false, or when one of the configured error patterns or error pointers fires; the configured detectors add to the built-in rules.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_error",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold. The default 1.0 accepts no failed call."},
    "tool_calls_key": {"type": "string", "minLength": 1, "default": "toolCalls",
                       "description": "Key of the agent's tool calls in actualOutputs ([] for no calls; a missing or null list is an error)."},
    "error_patterns": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": [],
                       "description": "PCRE2 regular expressions searched anywhere in each non-blank result (the result text, or the compact JSON of a non-string result); a match marks the call as failed."},
    "error_pointers": {"type": "array", "items": {"type": "string", "pattern": "^/"}, "default": [],
                       "description": "JSON pointers (RFC 6901, such as /status/error) into results that are JSON; a value there that is present and neither null nor false marks the call as failed."},
    "ignore_tools": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": [],
                     "description": "Names of tools whose calls are not judged at all (neither succeeded nor failed), such as a 'think' scratchpad that returns nothing by design."}
  },
  "additionalProperties": false
})json";

// The value an error field or pointer leads to says "error" unless it is null or false.
bool signals_error(const boost::json::value& value) {
  return !value.is_null() && !(value.is_bool() && !value.get_bool());
}

std::vector<ResultPattern> read_patterns(const Config& config) {
  std::vector<ResultPattern> patterns;
  std::size_t index = 0;
  for (std::string& text : config.get_strings("error_patterns")) {
    const std::string where = "error_patterns[" + std::to_string(index++) + "]";
    if (text.empty()) throw invalid_argument(where + " must not be empty");
    patterns.emplace_back(std::move(text), where);
  }
  return patterns;
}

std::vector<std::string> read_pointers(const Config& config) {
  std::vector<std::string> pointers = config.get_strings("error_pointers");
  const boost::json::value probe = boost::json::object();
  for (std::size_t i = 0; i < pointers.size(); ++i) {
    const std::string where = "error_pointers[" + std::to_string(i) + "]";
    // "" would point at the whole result, so every JSON result would fail.
    if (pointers[i].empty() || pointers[i].front() != '/')
      throw invalid_argument(where + " must be a JSON pointer starting with '/', such as /error, got '" + pointers[i] + "'");
    boost::system::error_code ec;
    probe.find_pointer(pointers[i], ec);
    if (ec == boost::json::error::invalid_escape)
      throw invalid_argument(where + " is not a valid JSON pointer ('~' must be followed by 0 or 1): '" + pointers[i] + "'");
  }
  return pointers;
}

}  // namespace

const char* const ToolErrorEvaluator::kConfigSchema = kToolErrorEvaluatorSchema;

ToolErrorEvaluator::ToolErrorEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      tool_calls_key_(read_key_option(config, "tool_calls_key")),
      error_patterns_(read_patterns(config)),
      error_pointers_(read_pointers(config)),
      ignore_tools_(config.get_strings("ignore_tools")) {}

std::optional<ToolCallFailure> ToolErrorEvaluator::failure(const ToolCall& call) const {
  if (const boost::json::value* flag = call.metadata.if_contains("isError"); flag != nullptr && flag->is_bool() && flag->get_bool())
    return ToolCallFailure{"error_flag", {}};
  if (!call.result) return ToolCallFailure{"no_result", {}};
  const std::string& result = *call.result;
  if (is_blank_text(result)) return ToolCallFailure{"blank_result", {}};

  boost::system::error_code ec;
  const boost::json::value parsed = krino::json::parse(result, ec);
  const bool is_json = !ec;
  if (is_json && parsed.is_object()) {
    if (const boost::json::value* error = parsed.get_object().if_contains("error"); error != nullptr && signals_error(*error))
      return ToolCallFailure{"error_field", {}};
  }
  for (const ResultPattern& pattern : error_patterns_)
    if (pattern.found_in(result)) return ToolCallFailure{"error_pattern", pattern.pattern()};
  if (is_json) {
    for (const std::string& pointer : error_pointers_) {
      boost::system::error_code missing;
      const boost::json::value* value = parsed.find_pointer(pointer, missing);
      if (value != nullptr && signals_error(*value)) return ToolCallFailure{"error_pointer", pointer};
    }
  }
  return std::nullopt;
}

EvalResult ToolErrorEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  std::vector<ToolCall> calls = read_actual_tool_calls(test_case, tool_calls_key_);

  boost::json::array failed;
  std::string failed_text;
  std::size_t ignored = 0;
  for (std::size_t index = 0; index < calls.size(); ++index) {
    if (std::find(ignore_tools_.begin(), ignore_tools_.end(), calls[index].name) != ignore_tools_.end()) {
      ++ignored;
      continue;
    }
    const std::optional<ToolCallFailure> why = failure(calls[index]);
    if (!why) continue;
    boost::json::object entry{{"index", index}, {"tool", calls[index].name}, {"rule", why->rule}};
    if (why->rule == "error_pattern") entry["pattern"] = why->detail;
    if (why->rule == "error_pointer") entry["pointer"] = why->detail;
    failed.emplace_back(std::move(entry));
    if (!failed_text.empty()) failed_text += ", ";
    failed_text += "#" + std::to_string(index) + " " + calls[index].name + " (" + why->rule + ")";
  }

  const std::size_t judged = calls.size() - ignored;
  const std::size_t succeeded = judged - failed.size();
  const double score = judged == 0 ? 1.0 : static_cast<double>(succeeded) / static_cast<double>(judged);
  std::string reason = calls.empty()  ? "no tool calls were made"
                       : judged == 0  ? "every tool call was of an ignored tool"
                                      : std::to_string(succeeded) + " of " + std::to_string(judged) +
                                           (judged == 1 ? " tool call succeeded" : " tool calls succeeded");
  if (!failed_text.empty()) reason += "; failed: " + failed_text;
  if (ignored > 0 && judged > 0) reason += "; " + std::to_string(ignored) + " ignored";

  EvalResult result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  result.metadata["totalCalls"] = judged;
  if (!ignore_tools_.empty()) result.metadata["ignoredCalls"] = ignored;
  result.metadata["failedCount"] = failed.size();
  result.metadata["failedCalls"] = std::move(failed);
  return result;
}

}  // namespace krino::agent
