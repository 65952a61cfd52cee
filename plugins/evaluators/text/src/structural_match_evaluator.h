// structural_match: the actual output has the structure and values of the expected one.
#ifndef KRINO_TEXT_STRUCTURAL_MATCH_EVALUATOR_H
#define KRINO_TEXT_STRUCTURAL_MATCH_EVALUATOR_H

#include <krino/evaluator_options.hpp>
#include "structural_matcher.h"

#include <krino/plugin.hpp>

#include <string>

namespace krino::text {

// Compares actualOutputs[output_key] with expectedOutputs[output_key] as JSON trees (a string
// operand is parsed as JSON first; see StructuralOperand) with compare_structures. The score is
// the fraction of matching leaves (strict: over the leaves of both sides; lenient: over the
// expected leaves), or with `binary` 1 when nothing differs and 0 otherwise. A missing expected
// value is an error; a missing actual value scores 0.
class StructuralMatchEvaluator {
 public:
  static const char* const kConfigSchema;

  explicit StructuralMatchEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  std::string output_key_;
  StructuralMode mode_;
  bool binary_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_STRUCTURAL_MATCH_EVALUATOR_H
