#include "length_evaluator.h"

#include "test_case_values.h"
#include "unicode_text.h"

namespace krino::text {

const char* const LengthEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "length",
  "description": "Scores 1 when the length of the actual output, in characters (Unicode code points) or words, is within [min, max], else 0.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "length",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold."},
    "output_key": {"type": "string", "minLength": 1, "default": "output",
                   "description": "Key of actualOutputs whose text is measured (a non-string value is measured as compact JSON)."},
    "unit": {"type": "string", "enum": ["chars", "words"], "default": "chars",
             "description": "'chars' counts Unicode code points (not bytes); 'words' counts runs of characters between white space."},
    "min": {"type": "integer", "minimum": 0, "default": 0,
            "description": "Smallest allowed length, inclusive. Set min, max or both."},
    "max": {"type": ["integer", "null"], "minimum": 0, "default": null,
            "description": "Largest allowed length, inclusive; null means no upper bound. Set min, max or both."}
  },
  "anyOf": [{"required": ["min"]}, {"required": ["max"]}],
  "additionalProperties": false
})json";

namespace {

std::uint64_t read_bound(const Config& config, std::string_view key) {
  const std::int64_t bound = config.get_int(key);
  if (bound < 0) throw invalid_argument("option '" + std::string(key) + "' must not be negative");
  return static_cast<std::uint64_t>(bound);
}

std::optional<std::uint64_t> read_max(const Config& config) {
  if (!config.has("min") && !config.has("max")) throw invalid_argument("set option 'min', 'max' or both");
  if (!config.has("max")) return std::nullopt;
  const std::uint64_t max = read_bound(config, "max");
  if (config.has("min") && read_bound(config, "min") > max)
    throw invalid_argument("option 'min' must not exceed option 'max'");
  return max;
}

}  // namespace

LengthEvaluator::LengthEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      output_key_(read_output_key(config)),
      count_words_(read_choice(config, "unit", {"chars", "words"}) == "words"),
      min_(read_bound(config, "min")),
      max_(read_max(config)) {}

EvalResult LengthEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const std::optional<std::string> text = find_actual_text(test_case, output_key_);
  if (!text) return EvalResult::scored(common_.name, 0.0, common_.threshold, no_actual_reason(test_case, output_key_));

  const std::uint64_t length = count_words_ ? count_words(*text) : count_code_points(*text);
  const std::string unit = count_words_ ? "words" : "chars";
  const std::string measured = "the output has " + std::to_string(length) + " " + unit;
  std::string reason;
  bool passed = false;
  if (length < min_) {
    reason = measured + ", fewer than the minimum of " + std::to_string(min_);
  } else if (max_ && length > *max_) {
    reason = measured + ", more than the maximum of " + std::to_string(*max_);
  } else {
    passed = true;
    reason = measured + (max_ ? ", within " + std::to_string(min_) + ".." + std::to_string(*max_)
                              : ", at least " + std::to_string(min_));
  }
  EvalResult result = EvalResult::scored(common_.name, passed ? 1.0 : 0.0, common_.threshold, std::move(reason));
  result.metadata["length"] = length;
  result.metadata["unit"] = unit;
  return result;
}

}  // namespace krino::text
