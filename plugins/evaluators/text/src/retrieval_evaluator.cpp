#include "retrieval_evaluator.h"

#include "matching_strategy_factory.h"
#include "test_case_values.h"

#include <krino/support/bipartite_matching.hpp>
#include <krino/evaluator_options.hpp>
#include <krino/support/retrieval_operands.hpp>
#include <krino/support/retrieval_scoring.hpp>

#include <array>
#include <cstddef>

namespace krino::text {

namespace {

// The options precision and recall share, after name, and the definition of a matching object
// (recursive through any_of / all_of).
constexpr char kSharedOptions[] = KRINO_RETRIEVAL_KEY_OPTIONS R"json(
    "matching": {"type": "object", "$ref": "#/definitions/matching", "default": {"strategy": "equality"},
                 "description": "How a retrieved item is matched with a relevant one. Pairs are one to one, so a duplicate never counts twice."}
  },
  "definitions": {
    "matching": {
      "type": "object",
      "properties": {
        "strategy": {"type": "string", "enum": ["equality", "case_insensitive", "field", "fields", "containment", "any_of", "all_of"],
                     "default": "equality",
                     "description": "equality: same JSON value, numbers by value. case_insensitive: strings equal ignoring case. field: objects equal in 'field'. fields: objects equal in every one of 'fields'. containment: the retrieved string contains the relevant one. any_of / all_of: combine 'strategies'."},
        "field": {"type": "string", "minLength": 1,
                  "description": "For strategy 'field' (required there): the field compared. A non-object item stands for itself, so \"doc-1\" matches {\"id\": \"doc-1\"}."},
        "fields": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1},
                   "description": "For strategy 'fields' (required there): fields that must all be present and equal."},
        "normalize": {"type": "boolean", "default": false,
                      "description": "For strategy 'containment': collapse runs of white space, trim, and ignore case before searching."},
        "strategies": {"type": "array", "minItems": 1, "items": {"$ref": "#/definitions/matching"},
                       "description": "For any_of / all_of (required there): the strategies combined."}
      },
      "additionalProperties": false,
      "allOf": [
        {"if": {"properties": {"strategy": {"const": "field"}}, "required": ["strategy"]}, "then": {"required": ["field"]}},
        {"if": {"properties": {"strategy": {"const": "fields"}}, "required": ["strategy"]}, "then": {"required": ["fields"]}},
        {"if": {"properties": {"strategy": {"enum": ["any_of", "all_of"]}}, "required": ["strategy"]}, "then": {"required": ["strategies"]}}
      ]
    }
  },
  "additionalProperties": false
})json";

constexpr auto kPrecisionSchema = join_literals(R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "precision",
  "description": "Fraction of the retrieved items that are relevant: matched pairs / retrieved items, pairing retrieved and relevant items one to one.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "precision",
             "description": "Name of the result; results are aggregated and gated by this name."},)json",
                                       kSharedOptions);

constexpr auto kRecallSchema = join_literals(R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "recall",
  "description": "Fraction of the relevant items that were retrieved: matched pairs / relevant items, pairing retrieved and relevant items one to one.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "recall",
             "description": "Name of the result; results are aggregated and gated by this name."},)json",
                                    kSharedOptions);

}  // namespace

const char* const PrecisionEvaluator::kConfigSchema = kPrecisionSchema.data();
const char* const RecallEvaluator::kConfigSchema = kRecallSchema.data();


RetrievalEvaluator::RetrievalEvaluator(Config config, RetrievalMetric metric, const char* config_schema)
    : metric_(metric),
      common_(read_common_options(apply_schema(config, config_schema))),
      retrieved_key_(read_key_option(config, "retrieved_key")),
      expected_key_(read_key_option(config, "expected_key")),
      matching_(make_matching_strategy(*config.find_or_default("matching"))) {}

EvalResult RetrievalEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  const RetrievalOperands operands = read_retrieval_operands(test_case, retrieved_key_, expected_key_);
  if (!operands.has_retrieved) return EvalResult::scored(common_.name, 0.0, common_.threshold, operands.missing);
  const boost::json::array& retrieved = operands.retrieved;
  const boost::json::array& relevant = operands.relevant;
  const MatchMatrix matrix = matching_->match_matrix(retrieved, relevant, ctx);
  const std::vector<MatchedPair> pairs =
      maximum_bipartite_matching(retrieved.size(), relevant.size(), [&](std::size_t r, std::size_t e) { return matrix[r][e]; });

  RetrievalScore scored = retrieval_score(metric_ == RetrievalMetric::precision, pairs.size(), retrieved.size(), relevant.size());
  if (scored.from_pairs) scored.reason += " (matching: " + matching_->describe() + ")";
  const double score = scored.score;
  std::string reason = std::move(scored.reason);

  EvalResult result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  std::vector<bool> retrieved_paired(retrieved.size(), false);
  std::vector<bool> relevant_paired(relevant.size(), false);
  boost::json::array matched_pairs;
  for (const MatchedPair& pair : pairs) {
    retrieved_paired[pair.left] = true;
    relevant_paired[pair.right] = true;
    matched_pairs.push_back(boost::json::array{pair.left, pair.right});
  }
  result.metadata["retrievedCount"] = retrieved.size();
  result.metadata["relevantCount"] = relevant.size();
  result.metadata["matchedCount"] = pairs.size();
  result.metadata["matching"] = matching_->describe();
  result.metadata["matchedPairs"] = std::move(matched_pairs);
  result.metadata["unmatchedRetrieved"] = unpaired_indexes(retrieved_paired);
  result.metadata["missedRelevant"] = unpaired_indexes(relevant_paired);
  return result;
}

}  // namespace krino::text
