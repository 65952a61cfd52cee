#include "llm_matching_evaluator.h"

#include "test_case_fields.h"
#include "value_rendering.h"

#include <krino/support/bipartite_matching.hpp>
#include <krino/json_equality.hpp>
#include <krino/evaluator_options.hpp>
#include <krino/support/retrieval_operands.hpp>
#include <krino/support/retrieval_scoring.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>

namespace krino::judge {

namespace {

constexpr char kSharedOptions[] = KRINO_RETRIEVAL_KEY_OPTIONS R"json(
    )json" KRINO_JUDGE_VOTING_PROPERTIES R"json("judge": {"type": "string", "minLength": 1, "description": "Name of a judge configured in the experiment file; the default judge when absent."},
    "prompt": {"type": "string", "minLength": 1, "description": "A prompt template replacing the built-in one (one call per evaluation). Placeholders: {{retrieved}}, {{relevant}} (numbered lists of the items not already equal), {{input}}. The reply must be {\"pairs\": [[retrieved number, relevant number], ...]}."}
  },
  "additionalProperties": false
})json";

constexpr auto kPrecisionSchema = join_literals(R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "llm_precision",
  "description": "Fraction of the retrieved items that are relevant: matched pairs / retrieved items, pairing retrieved and relevant items one to one; an LLM judge decides which items mean the same thing (items equal by value pair without asking).",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "llm_precision",
             "description": "Name of the result; results are aggregated and gated by this name."},)json",
                                       kSharedOptions);

constexpr auto kRecallSchema = join_literals(R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "llm_recall",
  "description": "Fraction of the relevant items that were retrieved: matched pairs / relevant items, pairing retrieved and relevant items one to one; an LLM judge decides which items mean the same thing (items equal by value pair without asking).",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "llm_recall",
             "description": "Name of the result; results are aggregated and gated by this name."},)json",
                                    kSharedOptions);

const Variables kLlmMatchingVariables = {"retrieved", "relevant", "input"};
constexpr std::string_view kPromptName = "llm_matching";


// A 1-based item number from the reply: a JSON integer, an integral double, or a string of digits.
std::optional<std::int64_t> reply_index(const boost::json::value& value) {
  if (value.is_int64()) return value.get_int64();
  if (value.is_uint64()) {
    if (value.get_uint64() > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(value.get_uint64());
  }
  if (value.is_double()) {
    const double d = value.get_double();
    if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) > 1e15) return std::nullopt;
    return static_cast<std::int64_t>(d);
  }
  if (value.is_string()) {
    const boost::json::string& text = value.get_string();
    if (text.empty() || text.size() > 15) return std::nullopt;
    std::int64_t n = 0;
    for (const char c : text) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + (c - '0');
    }
    return n;
  }
  return std::nullopt;
}

}  // namespace

const char* const LlmPrecisionEvaluator::kConfigSchema = kPrecisionSchema.data();
const char* const LlmRecallEvaluator::kConfigSchema = kRecallSchema.data();

LlmMatchingEvaluator::LlmMatchingEvaluator(Config config, MatchingMetric metric, const char* config_schema)
    : metric_(metric),
      settings_(read_judge_settings(apply_schema(config, config_schema), kPromptName, kLlmMatchingVariables)),
      retrieved_key_(read_key_option(config, "retrieved_key")),
      expected_key_(read_key_option(config, "expected_key")) {}

std::string LlmMatchingEvaluator::prompt(const std::vector<std::string>& retrieved,
                                         const std::vector<std::string>& relevant, const std::string& input) const {
  return settings_.prompt.render(
      {{"retrieved", render_chunks(retrieved)}, {"relevant", render_chunks(relevant)}, {"input", input}});
}

EvalResult LlmMatchingEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  return run_votes(settings_.voting, settings_.common, Better::higher, ctx,
                   [&](const JudgeCall& call) { return evaluate_once(test_case, call); });
}

EvalResult LlmMatchingEvaluator::evaluate_once(const TestCase& test_case, const JudgeCall& call) const {
  const std::string_view evaluator = metric_ == MatchingMetric::precision ? "llm_precision" : "llm_recall";
  const CommonOptions& common = settings_.common;

  // Operands, as the text plugin's precision/recall read them.
  const RetrievalOperands operands = read_retrieval_operands(test_case, retrieved_key_, expected_key_);
  if (!operands.has_retrieved) return EvalResult::scored(common.name, 0.0, common.threshold, operands.missing);
  const boost::json::array& retrieved = operands.retrieved;
  const boost::json::array& relevant = operands.relevant;

  // 1. Equal pre-pass: a maximum one-to-one pairing of items equal by value.
  std::vector<MatchedPair> equal_pairs = maximum_bipartite_matching(
      retrieved.size(), relevant.size(),
      [&](std::size_t r, std::size_t e) { return json::same_value(retrieved[r], relevant[e]); });
  std::vector<bool> retrieved_paired(retrieved.size(), false);
  std::vector<bool> relevant_paired(relevant.size(), false);
  for (const MatchedPair& pair : equal_pairs) {
    retrieved_paired[pair.left] = true;
    relevant_paired[pair.right] = true;
  }
  std::vector<std::size_t> open_retrieved;  // original indexes of the items shown to the judge
  std::vector<std::size_t> open_relevant;
  for (std::size_t r = 0; r < retrieved.size(); ++r)
    if (!retrieved_paired[r]) open_retrieved.push_back(r);
  for (std::size_t e = 0; e < relevant.size(); ++e)
    if (!relevant_paired[e]) open_relevant.push_back(e);

  // 2. One judge call about the unpaired items, unless one side is exhausted (M cannot grow then).
  std::vector<MatchedPair> judge_pairs;  // original indexes
  std::size_t proposed = 0;              // distinct valid pairs the judge named
  const bool asked = !open_retrieved.empty() && !open_relevant.empty();
  if (asked) {
    std::vector<std::string> shown_retrieved;
    std::vector<std::string> shown_relevant;
    for (const std::size_t r : open_retrieved) shown_retrieved.push_back(render_value(retrieved[r]));
    for (const std::size_t e : open_relevant) shown_relevant.push_back(render_value(relevant[e]));
    const boost::json::value* input_value = test_case.find(Section::inputs, "input");
    const std::string input = input_value == nullptr || input_value->is_null() ? "" : render_value(*input_value);
    const boost::json::object reply =
        ask_judge(call, settings_, evaluator, prompt(shown_retrieved, shown_relevant, input), "pairs");

    const boost::json::value* pairs_value = reply.if_contains("pairs");
    if (pairs_value == nullptr || !pairs_value->is_array())
      throw_unusable_reply(evaluator, "has no 'pairs' list", reply);
    std::set<std::pair<std::size_t, std::size_t>> named;  // 0-based positions in the shown lists
    for (const boost::json::value& pair : pairs_value->get_array()) {
      const boost::json::array* two = pair.if_array();
      std::optional<std::int64_t> r;
      std::optional<std::int64_t> e;
      if (two != nullptr && two->size() == 2) {
        r = reply_index((*two)[0]);
        e = reply_index((*two)[1]);
      }
      if (!r || !e)
        throw_unusable_reply(evaluator, "has a pair that is not two item numbers (" + boost::json::serialize(pair) + ")",
                             reply);
      if (*r < 1 || *r > static_cast<std::int64_t>(open_retrieved.size()) || *e < 1 ||
          *e > static_cast<std::int64_t>(open_relevant.size()))
        throw_unusable_reply(evaluator,
                             "has a pair out of range (" + boost::json::serialize(pair) + "; retrieved items are 1.." +
                                 std::to_string(open_retrieved.size()) + ", relevant items 1.." +
                                 std::to_string(open_relevant.size()) + ")",
                             reply);
      named.emplace(static_cast<std::size_t>(*r - 1), static_cast<std::size_t>(*e - 1));
    }
    proposed = named.size();
    // 3. The judge's many-to-many answer, reduced to a maximum one-to-one matching.
    for (const MatchedPair& pair : maximum_bipartite_matching(
             open_retrieved.size(), open_relevant.size(),
             [&](std::size_t r, std::size_t e) { return named.count({r, e}) != 0; }))
      judge_pairs.push_back({open_retrieved[pair.left], open_relevant[pair.right]});
  }
  for (const MatchedPair& pair : judge_pairs) {
    retrieved_paired[pair.left] = true;
    relevant_paired[pair.right] = true;
  }
  const std::size_t matched = equal_pairs.size() + judge_pairs.size();

  RetrievalScore scored = retrieval_score(metric_ == MatchingMetric::precision, matched, retrieved.size(), relevant.size());
  if (scored.from_pairs)
    scored.reason += " (" + std::to_string(equal_pairs.size()) + " equal, " + std::to_string(judge_pairs.size()) +
                     " by the judge" + (asked ? "" : ", judge not asked") + ")";
  const double score = scored.score;
  std::string reason = std::move(scored.reason);

  EvalResult result = EvalResult::scored(common.name, score, common.threshold, std::move(reason));
  std::vector<std::pair<MatchedPair, const char*>> all;
  for (const MatchedPair& pair : equal_pairs) all.emplace_back(pair, "equal");
  for (const MatchedPair& pair : judge_pairs) all.emplace_back(pair, "judge");
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first.left < b.first.left; });
  boost::json::array matched_pairs;
  for (const auto& [pair, by] : all)
    matched_pairs.push_back(boost::json::object{{"retrieved", pair.left}, {"expected", pair.right}, {"by", by}});
  result.metadata["retrievedCount"] = retrieved.size();
  result.metadata["relevantCount"] = relevant.size();
  result.metadata["matchedCount"] = matched;
  result.metadata["equalCount"] = equal_pairs.size();
  result.metadata["judgeCount"] = judge_pairs.size();
  result.metadata["judgeAsked"] = asked;
  if (asked) result.metadata["judgeProposedCount"] = proposed;
  result.metadata["matchedPairs"] = std::move(matched_pairs);
  result.metadata["unmatchedRetrieved"] = unpaired_indexes(retrieved_paired);
  result.metadata["missedRelevant"] = unpaired_indexes(relevant_paired);
  return result;
}

}  // namespace krino::judge
