// regex: the actual output matches a PCRE2 pattern somewhere (or, negated, nowhere).
#ifndef KRINO_TEXT_REGEX_EVALUATOR_H
#define KRINO_TEXT_REGEX_EVALUATOR_H

#include <krino/evaluator_options.hpp>
#include <krino/support/pcre2_regex.hpp>

#include <krino/plugin.hpp>

#include <string>

namespace krino::text {

// Search semantics: the pattern may match anywhere; anchor it with ^ and $ (or \A and \z) to
// demand a full match. The pattern is compiled once; evaluate() is safe to call concurrently.
// With `negate`, the score is 1 when the pattern does not match, which is how a "must not
// contain" check is written (a threshold of 0 would pass everything, since every score is >= 0).
class RegexEvaluator {
 public:
  static const char* const kConfigSchema;

  explicit RegexEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  std::string output_key_;
  std::string pattern_;
  bool negate_;
  Pcre2Regex regex_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_REGEX_EVALUATOR_H
