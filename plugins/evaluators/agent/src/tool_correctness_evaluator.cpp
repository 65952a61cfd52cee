#include "tool_correctness_evaluator.h"

#include "call_pairing.h"
#include "schema_join.h"
#include "tool_call_operands.h"
#include "tool_call_options.h"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace krino::agent {

namespace {

constexpr char kOwnOptions[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_correctness",
  "description": "Whether the agent called the expected tools: by name, by name and order, or by name and arguments.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_correctness",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold. The default 1.0 accepts only a perfect score."},
    "match_mode": {"type": "string", "enum": ["names_only", "names_and_order", "names_and_args"], "default": "names_only",
                   "description": "names_only: F1 of the sets of distinct tool names. names_and_order: longest common subsequence of the name sequences / the longer sequence. names_and_args: calls paired one to one by name and matching arguments, as many pairs as possible / the longer list. The argument options apply to names_and_args only."},)json";

constexpr char kClosing[] = R"json(  },
  "additionalProperties": false
})json";

constexpr auto kToolCorrectnessEvaluatorSchema = join(kOwnOptions, kBothSidesToolCallsKeyOption, kArgumentMatchingOptionsSchema, kClosing);

CorrectnessMode read_mode(const Config& config) {
  const std::string mode = read_choice(config, "match_mode", {"names_only", "names_and_order", "names_and_args"});
  if (mode == "names_and_order") return CorrectnessMode::names_and_order;
  if (mode == "names_and_args") return CorrectnessMode::names_and_args;
  return CorrectnessMode::names_only;
}

const char* mode_name(CorrectnessMode mode) {
  switch (mode) {
    case CorrectnessMode::names_only: return "names_only";
    case CorrectnessMode::names_and_order: return "names_and_order";
    case CorrectnessMode::names_and_args: return "names_and_args";
  }
  return "names_only";
}

// Distinct names in first-seen order.
std::vector<std::string> distinct(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names)
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  return out;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

boost::json::array json_names(const std::vector<std::string>& names) {
  boost::json::array out;
  for (const std::string& name : names) out.emplace_back(name);
  return out;
}

std::string bracketed(const std::vector<std::string>& names) { return "[" + join_names(names) + "]"; }

// F1 of the distinct name sets; both empty 1, exactly one empty 0.
EvalResult score_names_only(const CommonOptions& common, const std::vector<ToolCall>& actual,
                            const std::vector<ToolCall>& expected) {
  const std::vector<std::string> actual_names = distinct(tool_names(actual));
  const std::vector<std::string> expected_names = distinct(tool_names(expected));
  std::vector<std::string> correct, redundant, missing;
  for (const std::string& name : actual_names) (contains(expected_names, name) ? correct : redundant).push_back(name);
  for (const std::string& name : expected_names)
    if (!contains(actual_names, name)) missing.push_back(name);

  double score = 0.0;
  if (actual_names.empty() && expected_names.empty()) {
    score = 1.0;
  } else if (!actual_names.empty() && !expected_names.empty() && !correct.empty()) {
    const double precision = static_cast<double>(correct.size()) / static_cast<double>(actual_names.size());
    const double recall = static_cast<double>(correct.size()) / static_cast<double>(expected_names.size());
    score = 2.0 * precision * recall / (precision + recall);
  }
  EvalResult result = EvalResult::scored(common.name, score, common.threshold,
                                         "correct: " + bracketed(correct) + ", redundant: " + bracketed(redundant) +
                                             ", missing: " + bracketed(missing));
  result.metadata["correctTools"] = json_names(correct);
  result.metadata["redundantTools"] = json_names(redundant);
  result.metadata["missingTools"] = json_names(missing);
  return result;
}

// The pairing members, appended to `metadata` as objects: this evaluator edits them afterwards
// (names_only drops the pairs), where the hot trajectory evaluator writes them straight to text.
void add_pairing_metadata(boost::json::object& metadata, const std::vector<ToolCall>& actual,
                          const std::vector<ToolCall>& expected, const std::vector<MatchedPair>& pairs) {
  std::string text;
  json::CompactWriter writer(text);
  writer.begin_object();
  write_pairing_metadata(writer, actual, expected, pairs);
  writer.end_object();
  boost::json::value written = krino::json::parse(text);
  for (auto& member : written.as_object()) metadata.insert_or_assign(member.key(), std::move(member.value()));
}

double pairs_over_longer(std::size_t pairs, std::size_t actual_count, std::size_t expected_count) {
  const std::size_t longer = std::max(actual_count, expected_count);
  return longer == 0 ? 1.0 : static_cast<double>(pairs) / static_cast<double>(longer);
}

}  // namespace

const char* const ToolCorrectnessEvaluator::kConfigSchema = kToolCorrectnessEvaluatorSchema.data();

ToolCorrectnessEvaluator::ToolCorrectnessEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      mode_(read_mode(config)),
      tool_calls_key_(read_key_option(config, "tool_calls_key")),
      matcher_(read_tool_call_matcher(config)) {}

EvalResult ToolCorrectnessEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const ToolCallOperands calls = read_tool_call_operands(test_case, tool_calls_key_);
  const std::vector<ToolCall>& actual = calls.actual;
  const std::vector<ToolCall>& expected = calls.expected;

  EvalResult result;
  if (mode_ == CorrectnessMode::names_only) {
    result = score_names_only(common_, actual, expected);
    add_pairing_metadata(result.metadata, actual, expected, {});
    result.metadata.erase("matchedPairs");
    result.metadata.erase("unmatchedActual");
    result.metadata.erase("unmatchedExpected");
    result.metadata.erase("matchedCount");
  } else {
    const bool by_args = mode_ == CorrectnessMode::names_and_args;
    const CallsMatch can_match = [&](std::size_t a, std::size_t e) {
      return by_args ? matcher_.matches(expected[e], actual[a]) : actual[a].name == expected[e].name;
    };
    const std::vector<MatchedPair> pairs = by_args ? unordered_pairing(actual.size(), expected.size(), can_match)
                                                   : ordered_pairing(actual.size(), expected.size(), can_match);
    const double score = pairs_over_longer(pairs.size(), actual.size(), expected.size());
    std::string reason = std::to_string(pairs.size()) + (pairs.size() == 1 ? " call" : " calls") +
                         (by_args ? " matched by name and arguments" : " in order") +
                         " out of " + std::to_string(actual.size()) + " actual and " + std::to_string(expected.size()) +
                         " expected";
    if (by_args) reason += " (arguments: " + matcher_.default_matcher().describe() + ")";
    result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
    add_pairing_metadata(result.metadata, actual, expected, pairs);
    if (by_args) result.metadata["argumentMatching"] = describe_matcher(matcher_);
    else result.metadata["lcsLength"] = pairs.size();
  }
  result.metadata["matchMode"] = mode_name(mode_);
  return result;
}

}  // namespace krino::agent
