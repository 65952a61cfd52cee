// exact_match: the actual output equals the expected output, compared as text.
#ifndef KRINO_TEXT_EXACT_MATCH_EVALUATOR_H
#define KRINO_TEXT_EXACT_MATCH_EVALUATOR_H

#include <krino/evaluator_options.hpp>

#include <krino/plugin.hpp>

#include <string>

namespace krino::text {

// Compares the string forms (krino/json_text.hpp) of actualOutputs[output_key] and
// expectedOutputs[output_key]: "5" and 5 match, 5 and 5.0 do not (use structural_match to compare
// numbers by value). null matches only null. Score 1 or 0.
class ExactMatchEvaluator {
 public:
  static const char* const kConfigSchema;

  explicit ExactMatchEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  std::string output_key_;
  bool trim_whitespace_;
  bool ignore_case_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_EXACT_MATCH_EVALUATOR_H
