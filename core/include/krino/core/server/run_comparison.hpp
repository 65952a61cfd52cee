#pragma once
// The results server's comparisons of two stored runs: the gate (POST .../gate) and the diff view
// (GET .../diff), and the regression alerts that fire on what the gate would fail. All of them are
// computed by the comparison engine of `krino gate` and `krino compare` (gate/comparison.hpp:
// McNemar, the paired permutation test with its bootstrap interval, the severe-drop guard), so a
// run gated on the server and locally gets the same verdict.
//
// Terminal runs never change, so a comparison is computed once and kept (a few, most recent first)
// for the pages that follow; deleting either run drops it.
#include "krino/core/gate/comparison.hpp"
#include "krino/core/store/store.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace krino::core::server {

// Two runs compared, candidate against baseline, items paired by dataset item id when both runs
// ran on the same dataset version and every item has one, else by position.
struct RunComparison {
  std::string baseline_run_id;
  std::string candidate_run_id;
  Pairing pairing = Pairing::positional;
  Comparison comparison;  // items: the baseline's order, then the candidate's additions
  // For each entry of comparison.items, the item's seq in the candidate run (or, for a removed
  // item, in the baseline run): what a page of cases reads back from the store.
  std::vector<std::int64_t> seqs;
};

enum class GateStatus { pass, fail, no_baseline };
const char* gate_status_name(GateStatus status);  // "PASS", "FAIL", "NO_BASELINE"

struct GateRequest {
  std::string experiment_id;
  std::string candidate_run_id;
  std::optional<std::string> baseline_run_id = std::nullopt;  // none: the newest successful run before it
  std::optional<std::string> baseline_branch = std::nullopt;  // restricts that search to one git branch
};

struct GateOutcome {
  GateStatus status = GateStatus::no_baseline;
  std::shared_ptr<const RunComparison> compared;  // empty for NO_BASELINE
  // FAIL: the pass rate dropped significantly, some evaluator regressed significantly, or some
  // item's worst evaluator drop is beyond the severity margin.
  bool passed() const { return status != GateStatus::fail; }
};

class RunComparisons {
 public:
  RunComparisons(store::Store& store, ComparisonOptions options, std::size_t cached = 4);

  // Both runs must belong to `experiment_id` and be visible to `scope`: StoreError not_found
  // otherwise; conflict when either has not ended.
  std::shared_ptr<const RunComparison> compare(const store::Scope& scope, const std::string& experiment_id,
                                               const std::string& baseline_run_id, const std::string& candidate_run_id);

  // The gate's verdict on the candidate (spec: POST /experiments/{id}/gate). Throws as compare().
  GateOutcome gate(const store::Scope& scope, const GateRequest& request);

  // Forgets comparisons involving `run_id` (deleted).
  void forget(const std::string& run_id);

 private:
  struct Cache;
  store::Store& store_;
  ComparisonOptions options_;
  std::shared_ptr<Cache> cache_;
};

}  // namespace krino::core::server
