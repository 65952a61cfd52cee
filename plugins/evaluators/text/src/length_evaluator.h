// length: the actual output's length, in code points or words, lies within bounds.
#ifndef KRINO_TEXT_LENGTH_EVALUATOR_H
#define KRINO_TEXT_LENGTH_EVALUATOR_H

#include <krino/evaluator_options.hpp>

#include <krino/plugin.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace krino::text {

// Counts Unicode code points ("chars") or white-space separated words ("words") of the text of
// actualOutputs[output_key]. Score 1 when min <= length <= max (both inclusive), else 0.
class LengthEvaluator {
 public:
  static const char* const kConfigSchema;

  explicit LengthEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  std::string output_key_;
  bool count_words_;
  std::uint64_t min_;
  std::optional<std::uint64_t> max_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_LENGTH_EVALUATOR_H
