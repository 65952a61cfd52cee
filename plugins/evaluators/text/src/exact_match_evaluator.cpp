#include "exact_match_evaluator.h"

#include "literal_matcher.h"
#include "reason_text.h"
#include "test_case_values.h"
#include "unicode_text.h"

#include <krino/json_text.hpp>

namespace krino::text {

const char* const ExactMatchEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "exact_match",
  "description": "Scores 1 when the actual output, as text, equals the expected output, else 0. A non-string value is compared as its compact JSON, so 5 and 5.0 differ.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "exact_match",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold."},
    "output_key": {"type": "string", "minLength": 1, "default": "output",
                   "description": "Key read from both actualOutputs and expectedOutputs."},
    "trim_whitespace": {"type": "boolean", "default": false,
                        "description": "Ignore white space (Unicode White_Space) at both ends of both texts."},
    "ignore_case": {"type": "boolean", "default": false,
                    "description": "Compare with Unicode simple case folding, so 'Paris' equals 'PARIS'."}
  },
  "additionalProperties": false
})json";

ExactMatchEvaluator::ExactMatchEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      output_key_(read_output_key(config)),
      trim_whitespace_(config.get_bool("trim_whitespace")),
      ignore_case_(config.get_bool("ignore_case")) {}

EvalResult ExactMatchEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const boost::json::value& expected = require_expected(test_case, output_key_);
  const boost::json::value* actual = find_actual(test_case, output_key_);
  if (actual == nullptr) return EvalResult::scored(common_.name, 0.0, common_.threshold, no_actual_reason(test_case, output_key_));

  bool match = false;
  std::string expected_text;
  std::string actual_text;
  if (actual == &expected) {
    // One value for both: the test case parses a member once when its bytes equal those of a member
    // read before, so the two texts are the same bytes and equal under every option. Most agent
    // outputs are; writing both out to compare them cost more than the rest of the evaluation.
    match = true;
  } else if (expected.is_null() || actual->is_null()) {
    // null stands for "no value"; its text "null" must not equal the string "null".
    match = expected.is_null() && actual->is_null();
  } else {
    expected_text = exact_text_form(test_case, Section::expected_outputs, output_key_, expected);
    actual_text = exact_text_form(test_case, Section::actual_outputs, output_key_, *actual);
    std::string_view e = expected_text;
    std::string_view a = actual_text;
    if (trim_whitespace_) {
      e = trim_white_space(e);
      a = trim_white_space(a);
    }
    match = ignore_case_ ? LiteralMatcher::caseless_equals(e, a) : e == a;
  }

  std::string reason;
  if (match) {
    reason = "the actual output equals the expected output";
  } else {
    // Shown as compared: a number with every digit it was written with.
    const auto show = [](const boost::json::value& value, const std::string& text) {
      if (text.empty() || value.is_string()) return shown(value);
      return shown_json(text);
    };
    reason = "expected " + show(expected, expected_text) + ", got " + show(*actual, actual_text);
  }
  if (trim_whitespace_ || ignore_case_) {
    reason += trim_whitespace_ && ignore_case_ ? " (ignoring case and surrounding white space)"
              : trim_whitespace_            ? " (ignoring surrounding white space)"
                                            : " (ignoring case)";
  }
  return EvalResult::scored(common_.name, match ? 1.0 : 0.0, common_.threshold, std::move(reason));
}

}  // namespace krino::text
