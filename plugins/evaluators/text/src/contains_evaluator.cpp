#include "contains_evaluator.h"

#include "reason_text.h"
#include "test_case_values.h"

namespace krino::text {

const char* const ContainsEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "contains",
  "description": "Scores 1 when the actual output contains the given text (value), or all / any of several texts (values), else 0. Plain text, not a pattern.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "contains",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold."},
    "output_key": {"type": "string", "minLength": 1, "default": "output",
                   "description": "Key of actualOutputs whose text is searched (a non-string value is searched as compact JSON)."},
    "value": {"type": "string", "minLength": 1,
              "description": "The text the output must contain. Give either value or values."},
    "values": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1},
               "description": "Several texts; mode says whether the output must contain all of them or at least one. Give either value or values."},
    "mode": {"type": "string", "enum": ["all", "any"], "default": "all",
             "description": "With values: 'all' requires every text, 'any' at least one."},
    "ignore_case": {"type": "boolean", "default": false,
                    "description": "Search regardless of case (Unicode simple case folding)."}
  },
  "oneOf": [{"required": ["value"]}, {"required": ["values"]}],
  "additionalProperties": false
})json";

namespace {

std::vector<LiteralMatcher> read_values(const Config& config) {
  const bool has_value = config.has("value");
  const bool has_values = config.has("values");
  if (has_value == has_values) throw invalid_argument("give exactly one of the options 'value' and 'values'");
  const std::vector<std::string> texts = has_value ? std::vector<std::string>{config.get_string("value")}
                                                   : config.get_strings("values");
  if (texts.empty()) throw invalid_argument("option 'values' must list at least one text");
  const bool ignore_case = config.get_bool("ignore_case");
  std::vector<LiteralMatcher> matchers;
  for (const std::string& text : texts) {
    // An empty text is contained in every output; such a check would pass vacuously.
    if (text.empty()) throw invalid_argument("the texts in 'value' / 'values' must not be empty");
    matchers.emplace_back(text, ignore_case);
  }
  return matchers;
}

std::vector<std::string> quoted_all(const boost::json::array& texts) {
  std::vector<std::string> out;
  for (const auto& text : texts) out.push_back(quoted(text.get_string()));
  return out;
}

}  // namespace

ContainsEvaluator::ContainsEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      output_key_(read_output_key(config)),
      require_all_(read_choice(config, "mode", {"all", "any"}) == "all"),
      values_(read_values(config)) {}

EvalResult ContainsEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const std::optional<std::string> text = find_actual_text(test_case, output_key_);
  if (!text) return EvalResult::scored(common_.name, 0.0, common_.threshold, no_actual_reason(test_case, output_key_));

  boost::json::array found;
  boost::json::array missing;
  for (const LiteralMatcher& value : values_) (value.found_in(*text) ? found : missing).emplace_back(value.literal());
  const bool passed = require_all_ ? missing.empty() : !found.empty();

  std::string reason;
  constexpr std::size_t kListed = 10;
  if (values_.size() == 1) {
    reason = std::string(passed ? "the output contains " : "the output does not contain ") + quoted(values_[0].literal());
  } else if (require_all_) {
    reason = passed ? "the output contains all " + std::to_string(values_.size()) + " values"
                    : "the output lacks " + listed(quoted_all(missing), kListed);
  } else {
    reason = passed ? "the output contains " + listed(quoted_all(found), kListed)
                    : "the output contains none of the " + std::to_string(values_.size()) + " values";
  }
  EvalResult result = EvalResult::scored(common_.name, passed ? 1.0 : 0.0, common_.threshold, std::move(reason));
  result.metadata["found"] = std::move(found);
  result.metadata["missing"] = std::move(missing);
  return result;
}

}  // namespace krino::text
