// precision and recall: how well a retrieved list agrees with the relevant (expected) list.
#ifndef KRINO_TEXT_RETRIEVAL_EVALUATOR_H
#define KRINO_TEXT_RETRIEVAL_EVALUATOR_H

#include <krino/evaluator_options.hpp>
#include "matching_strategy.h"

#include <krino/plugin.hpp>

#include <memory>
#include <string>

namespace krino::text {

enum class RetrievalMetric { precision, recall };

// Pairs retrieved items (actualOutputs[retrieved_key]) with relevant items
// (expectedOutputs[expected_key]) one to one, as many pairs as the matching strategy allows
// (maximum bipartite matching), so a duplicate never counts twice. With M pairs:
//   precision = M / |retrieved|,  recall = M / |relevant|.
// An empty denominator scores 1 when both lists are empty (nothing to find, nothing returned)
// and 0 otherwise. A value that is not a list counts as a list of that one item.
class RetrievalEvaluator {
 public:
  RetrievalEvaluator(Config config, RetrievalMetric metric, const char* config_schema);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  RetrievalMetric metric_;
  CommonOptions common_;
  std::string retrieved_key_;
  std::string expected_key_;
  std::unique_ptr<const MatchingStrategy> matching_;
};

class PrecisionEvaluator : public RetrievalEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit PrecisionEvaluator(Config config)
      : RetrievalEvaluator(std::move(config), RetrievalMetric::precision, kConfigSchema) {}
};

class RecallEvaluator : public RetrievalEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit RecallEvaluator(Config config) : RetrievalEvaluator(std::move(config), RetrievalMetric::recall, kConfigSchema) {}
};

}  // namespace krino::text

#endif  // KRINO_TEXT_RETRIEVAL_EVALUATOR_H
