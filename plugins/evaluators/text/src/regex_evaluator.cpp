#include "regex_evaluator.h"

#include "reason_text.h"
#include "test_case_values.h"

namespace krino::text {

const char* const RegexEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "regex",
  "description": "Scores 1 when a PCRE2 regular expression matches anywhere in the actual output (or, with negate, when it matches nowhere), else 0.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "regex",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold."},
    "output_key": {"type": "string", "minLength": 1, "default": "output",
                   "description": "Key of actualOutputs whose text is searched (a non-string value is searched as compact JSON)."},
    "pattern": {"type": "string", "minLength": 1,
                "description": "Required. PCRE2 pattern in UTF mode with Unicode properties (\\w, \\d, \\b understand every script). It may match anywhere: anchor with ^ and $ for a full match."},
    "ignore_case": {"type": "boolean", "default": false,
                    "description": "Match letters regardless of case (Unicode case folding)."},
    "negate": {"type": "boolean", "default": false,
               "description": "Invert the check: score 1 when the pattern matches nowhere. Use this for 'must not contain' checks."}
  },
  "required": ["pattern"],
  "additionalProperties": false
})json";

namespace {

std::string read_pattern(const Config& config) {
  std::string pattern = config.get_string("pattern");
  if (pattern.empty()) throw invalid_argument("option 'pattern' must not be empty (it would match every output)");
  return pattern;
}

}  // namespace

RegexEvaluator::RegexEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      output_key_(read_output_key(config)),
      pattern_(read_pattern(config)),
      negate_(config.get_bool("negate")),
      regex_(pattern_, Pcre2Regex::Options{config.get_bool("ignore_case"), false}) {}

EvalResult RegexEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const std::optional<std::string> text = find_actual_text(test_case, output_key_);
  if (!text) return EvalResult::scored(common_.name, 0.0, common_.threshold, no_actual_reason(test_case, output_key_));

  const std::optional<RegexMatch> match = regex_.find(*text);
  const bool passed = match.has_value() != negate_;
  std::string reason;
  if (match) {
    const std::string_view matched = std::string_view(*text).substr(match->begin, match->end - match->begin);
    reason = "the pattern matches " + quoted(matched) + " at byte " + std::to_string(match->begin);
    if (negate_) reason += ", and it must not match";
  } else {
    reason = "the pattern matches nowhere in the output";
    if (negate_) reason += ", as required";
  }
  EvalResult result = EvalResult::scored(common_.name, passed ? 1.0 : 0.0, common_.threshold, std::move(reason));
  result.metadata["matched"] = match.has_value();
  if (match) {
    result.metadata["matchStart"] = match->begin;
    result.metadata["matchEnd"] = match->end;
  }
  return result;
}

}  // namespace krino::text
