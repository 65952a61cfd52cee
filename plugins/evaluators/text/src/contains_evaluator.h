// contains: the actual output contains a given text, or all / any of several.
#ifndef KRINO_TEXT_CONTAINS_EVALUATOR_H
#define KRINO_TEXT_CONTAINS_EVALUATOR_H

#include <krino/evaluator_options.hpp>
#include "literal_matcher.h"

#include <krino/plugin.hpp>

#include <string>
#include <vector>

namespace krino::text {

// Plain substring search (no pattern syntax) in the text of actualOutputs[output_key]. Score 1 or
// 0; the result metadata lists which values were found and which were not.
class ContainsEvaluator {
 public:
  static const char* const kConfigSchema;

  explicit ContainsEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  std::string output_key_;
  bool require_all_;
  std::vector<LiteralMatcher> values_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_CONTAINS_EVALUATOR_H
