#include "tool_trajectory_evaluator.h"

#include "call_pairing.h"
#include "schema_join.h"
#include "tool_call_operands.h"
#include "tool_call_options.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace krino::agent {

namespace {

constexpr char kOwnOptions[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_trajectory",
  "description": "Whether the agent's tool calls follow the expected trajectory: calls match when names are equal and arguments match.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_trajectory",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold. The default 1.0 accepts only a perfect score."},
    "match_mode": {"type": "string", "enum": ["strict", "in_order", "any_order", "superset", "subset", "precision", "recall"],
                   "default": "in_order",
                   "description": "strict (0 or 1): the same calls in the same order. in_order (graded): longest common subsequence / the longer list (or / expected calls, see in_order_denominator). any_order (graded): one-to-one pairs / the longer list. superset (0 or 1): every expected call was made, extras allowed. subset (0 or 1): every actual call was expected, omissions allowed. precision (graded): pairs / actual calls. recall (graded): pairs / expected calls. Unordered modes pair calls by maximum matching."},
    "in_order_denominator": {"type": "string", "enum": ["longer", "expected"], "default": "longer",
                             "description": "What in_order divides the longest common subsequence by. longer (the reference's): max(actual calls, expected calls), so extra calls cost. expected: the expected calls, so extra calls are free and an empty expected list scores 1 (nothing was required)."},)json";

constexpr char kClosing[] = R"json(  },
  "additionalProperties": false
})json";

constexpr auto kToolTrajectoryEvaluatorSchema = join(kOwnOptions, kBothSidesToolCallsKeyOption, kArgumentMatchingOptionsSchema, kClosing);

constexpr std::array<std::pair<std::string_view, TrajectoryMode>, 7> kModes{{
    {"strict", TrajectoryMode::strict},
    {"in_order", TrajectoryMode::in_order},
    {"any_order", TrajectoryMode::any_order},
    {"superset", TrajectoryMode::superset},
    {"subset", TrajectoryMode::subset},
    {"precision", TrajectoryMode::precision},
    {"recall", TrajectoryMode::recall},
}};

TrajectoryMode read_mode(const Config& config) {
  const std::string text = read_choice(config, "match_mode",
                                       {"strict", "in_order", "any_order", "superset", "subset", "precision", "recall"});
  for (const auto& [name, mode] : kModes)
    if (text == name) return mode;
  return TrajectoryMode::in_order;
}

std::string_view mode_name(TrajectoryMode mode) {
  for (const auto& [name, value] : kModes)
    if (value == mode) return name;
  return "in_order";
}

InOrderDenominator read_in_order_denominator(const Config& config) {
  return read_choice(config, "in_order_denominator", {"longer", "expected"}) == "expected" ? InOrderDenominator::expected
                                                                                           : InOrderDenominator::longer;
}

// numerator / denominator, where an empty denominator scores 1 only when the other list is empty too.
double fraction(std::size_t numerator, std::size_t denominator, std::size_t other_count) {
  if (denominator == 0) return other_count == 0 ? 1.0 : 0.0;
  return static_cast<double>(numerator) / static_cast<double>(denominator);
}

struct Scored {
  double score;
  std::string reason;
};

std::string of(std::size_t part, std::size_t whole, std::string_view kind, std::string_view verb_one,
               std::string_view verb_many) {
  return std::to_string(part) + " of " + std::to_string(whole) + " " + std::string(kind) +
         (whole == 1 ? " call " : " calls ") + std::string(part == 1 ? verb_one : verb_many);
}

std::string calls_text(std::size_t count) { return std::to_string(count) + (count == 1 ? " call" : " calls"); }

// in_order with both lists non-empty or exactly one empty (both empty is handled by the caller).
Scored score_in_order(InOrderDenominator denominator, std::size_t matched, std::size_t actual, std::size_t expected) {
  if (denominator == InOrderDenominator::expected) {
    // Nothing was required, so nothing is missing; the extra calls are what this denominator allows.
    if (expected == 0)
      return {1.0, "no calls were expected, so none is missing; the " + calls_text(actual) +
                       " made are extras, which in_order_denominator: expected allows"};
    return {fraction(matched, expected, actual), of(matched, expected, "expected", "appears in order", "appear in order")};
  }
  if (expected == 0) return {0.0, "no calls were expected but " + calls_text(actual) + (actual == 1 ? " was made" : " were made")};
  const std::size_t longer = std::max(actual, expected);
  std::string reason = std::to_string(matched) + " of " + calls_text(longer) + (matched == 1 ? " matches" : " match") +
                       " in order (" + std::to_string(actual) + " made, " + std::to_string(expected) + " expected)";
  return {fraction(matched, longer, 0), std::move(reason)};
}

Scored score_pairs(TrajectoryMode mode, InOrderDenominator denominator, std::size_t matched, std::size_t actual,
                   std::size_t expected) {
  switch (mode) {
    case TrajectoryMode::in_order:
      return score_in_order(denominator, matched, actual, expected);
    case TrajectoryMode::any_order: {
      const std::size_t longer = std::max(actual, expected);
      return {fraction(matched, longer, 0),
              std::to_string(matched) + (matched == 1 ? " call" : " calls") + " paired in any order; the longer list has " +
                  std::to_string(longer)};
    }
    case TrajectoryMode::superset:
      return {matched == expected ? 1.0 : 0.0, of(matched, expected, "expected", "was made", "were made")};
    case TrajectoryMode::subset:
      return {matched == actual ? 1.0 : 0.0, of(matched, actual, "actual", "was expected", "were expected")};
    case TrajectoryMode::precision:
      return {fraction(matched, actual, expected), of(matched, actual, "actual", "was expected", "were expected")};
    case TrajectoryMode::recall:
      return {fraction(matched, expected, actual), of(matched, expected, "expected", "was made", "were made")};
    case TrajectoryMode::strict:
      break;
  }
  return {0.0, {}};
}

}  // namespace

const char* const ToolTrajectoryEvaluator::kConfigSchema = kToolTrajectoryEvaluatorSchema.data();

ToolTrajectoryEvaluator::ToolTrajectoryEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      mode_(read_mode(config)),
      in_order_denominator_(read_in_order_denominator(config)),
      tool_calls_key_(read_key_option(config, "tool_calls_key")),
      matcher_(read_tool_call_matcher(config)),
      argument_matching_json_(json::to_compact_json(describe_matcher(matcher_))) {}

EvalResult ToolTrajectoryEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  // Views: the calls are only compared and named, so nothing is copied out of the test case.
  const ToolCallViewOperands calls = view_tool_call_operands(test_case, tool_calls_key_);
  const std::vector<ToolCallView>& actual = calls.actual;
  const std::vector<ToolCallView>& expected = calls.expected;
  const CallsMatch can_match = [&](std::size_t a, std::size_t e) { return matcher_.matches(expected[e], actual[a]); };

  std::vector<MatchedPair> pairs;
  Scored scored{0.0, {}};
  std::optional<std::size_t> first_mismatch;  // strict mode only
  if (mode_ == TrajectoryMode::strict) {
    std::size_t position = 0;
    while (position < actual.size() && position < expected.size() && can_match(position, position)) {
      pairs.push_back({position, position});
      ++position;
    }
    const bool same = actual.size() == expected.size() && position == actual.size();
    if (same) {
      scored = {1.0, actual.size() == 1 ? std::string("the 1 call matches in order")
                                        : "all " + std::to_string(actual.size()) + " calls match in order"};
    } else {
      first_mismatch = position;
      scored = {0.0, actual.size() != expected.size()
                         ? std::to_string(actual.size()) + (actual.size() == 1 ? " actual call but " : " actual calls but ") +
                               std::to_string(expected.size()) + " expected; " +
                               (position == 1 ? std::string("the first matches")
                                              : "the first " + std::to_string(position) + " match")
                         : "call " + std::to_string(position) + " does not match (expected " +
                               std::string(expected[position].name) + ", got " + std::string(actual[position].name) + ")"};
    }
  } else {
    pairs = mode_ == TrajectoryMode::in_order ? ordered_pairing(actual.size(), expected.size(), can_match)
                                              : unordered_pairing(actual.size(), expected.size(), can_match);
    scored = score_pairs(mode_, in_order_denominator_, pairs.size(), actual.size(), expected.size());
  }
  if (actual.empty() && expected.empty()) scored = {1.0, "no calls were expected and none were made"};

  EvalResult result = EvalResult::scored(
      common_.name, scored.score, common_.threshold,
      scored.reason + " (" + std::string(mode_name(mode_)) + ", arguments: " + matcher_.default_matcher().describe() + ")");
  // Written as text: this runs on every case, and building the object first cost more than the rest
  // of the result (an allocation per key).
  json::CompactWriter metadata(result.metadata_json);
  metadata.begin_object();
  metadata.key("matchMode").string(mode_name(mode_));
  if (mode_ == TrajectoryMode::in_order)
    metadata.key("inOrderDenominator").string(in_order_denominator_ == InOrderDenominator::expected ? "expected" : "longer");
  write_pairing_metadata(metadata, actual, expected, pairs);
  metadata.key("argumentMatching").raw(argument_matching_json_);
  if (first_mismatch) metadata.key("firstMismatch").count(*first_mismatch);
  metadata.end_object();
  return result;
}

}  // namespace krino::agent
