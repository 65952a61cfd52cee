#include "structural_match_evaluator.h"

#include "reason_text.h"
#include "structural_operand.h"
#include "test_case_values.h"

#include <krino/json_text.hpp>

namespace krino::text {

const char* const StructuralMatchEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "structural_match",
  "description": "Compares the actual and expected outputs as JSON trees: numbers by value (5 == 5.0), key order and formatting ignored, a string operand parsed as JSON. Scores the fraction of matching leaves, or 1/0 with binary.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "structural_match",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold. The default 1.0 demands a perfect match; lower it to accept partial matches."},
    "output_key": {"type": "string", "minLength": 1, "default": "output",
                   "description": "Key read from both actualOutputs and expectedOutputs."},
    "match_mode": {"type": "string", "enum": ["strict", "lenient"], "default": "strict",
                   "description": "'strict': same fields, arrays in order, null differs from a missing field, extra actual fields lower the score. 'lenient': extra actual fields allowed, arrays compared as multisets, null equals a missing field, only expected leaves count."},
    "binary": {"type": "boolean", "default": false,
               "description": "Score 1 when everything matches and 0 otherwise, instead of the fraction of matching leaves."}
  },
  "additionalProperties": false
})json";

namespace {

// Differences spelled out in the reason; all of them (up to kMaxRecordedDifferences) are in
// the metadata.
constexpr std::size_t kDifferencesInReason = 10;

const char* mode_name(StructuralMode mode) { return mode == StructuralMode::strict ? "strict" : "lenient"; }

std::string describe(const StructuralComparison& comparison, StructuralMode mode) {
  const std::string counts = std::to_string(comparison.matched_leaves) + " of " +
                             std::to_string(comparison.total_leaves) + " leaves match (" + mode_name(mode) + ")";
  if (comparison.all_match()) return counts;
  std::string reason = counts + ": ";
  for (std::size_t i = 0; i < comparison.differences.size() && i < kDifferencesInReason; ++i) {
    if (i > 0) reason += "; ";
    reason += comparison.differences[i].path + ": " + comparison.differences[i].detail;
  }
  const std::size_t shown_count = std::min(comparison.differences.size(), kDifferencesInReason);
  if (comparison.difference_count > shown_count)
    reason += "; ... and " + std::to_string(comparison.difference_count - shown_count) + " more differences";
  return reason;
}

}  // namespace

StructuralMatchEvaluator::StructuralMatchEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      output_key_(read_output_key(config)),
      mode_(read_choice(config, "match_mode", {"strict", "lenient"}) == "strict" ? StructuralMode::strict
                                                                                          : StructuralMode::lenient),
      binary_(config.get_bool("binary")) {}

EvalResult StructuralMatchEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const StructuralOperand expected(require_expected(test_case, output_key_), "expected output '" + output_key_ + "'");
  const boost::json::value* actual_raw = find_actual(test_case, output_key_);

  StructuralComparison comparison;
  std::string reason;
  if (actual_raw == nullptr) {
    comparison.total_leaves = count_leaves(expected.tree());
    comparison.difference_count = 1;
    comparison.differences.push_back({"$", "missing"});
    reason = no_actual_reason(test_case, output_key_);
  } else {
    const StructuralOperand actual(*actual_raw, "actual output '" + output_key_ + "'");
    comparison = compare_structures(expected.tree(), actual.tree(), mode_);
    reason = describe(comparison, mode_);
  }

  const double score = binary_ ? (comparison.all_match() ? 1.0 : 0.0)
                               : static_cast<double>(comparison.matched_leaves) /
                                     static_cast<double>(comparison.total_leaves);
  EvalResult result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  // Written as text: this runs on every case (an object would cost an allocation per key).
  json::CompactWriter metadata(result.metadata_json);
  metadata.begin_object()
      .key("matchMode").string(mode_name(mode_))
      .key("matchedLeaves").count(comparison.matched_leaves)
      .key("totalLeaves").count(comparison.total_leaves)
      .key("mismatchedPathCount").count(comparison.difference_count)
      .key("mismatchedPaths").begin_array();
  for (const StructuralDifference& difference : comparison.differences) metadata.string(difference.path);
  metadata.end_array().end_object();
  return result;
}

}  // namespace krino::text
