#pragma once
// Each evaluator's distribution over a run, as the run page and the trends chart read it: summed in
// one bounded-memory pass over the run's verdicts (Store::scan_verdicts), in the run's order, so both
// backends give the same doubles; kept once the run has ended (it cannot change then), so only the
// first read of an ended run sums its verdicts.
#include "krino/core/store/store.hpp"

#include <optional>
#include <string>
#include <vector>

namespace krino::core::store {

// nullopt when the scope sees no such run.
std::optional<std::vector<EvaluatorStats>> evaluator_stats(Store& store, const Scope& scope, const std::string& run_id);

// The sums of `items`' verdicts, evaluators in the order they first appear.
class EvaluatorStatsBuilder {
 public:
  void add(const ScoredItem& item);
  std::vector<EvaluatorStats> finish();

 private:
  std::vector<EvaluatorStats> stats_;
  std::vector<std::vector<double>> scores_;  // per evaluator, for the buckets once min and max are known
};

}  // namespace krino::core::store
