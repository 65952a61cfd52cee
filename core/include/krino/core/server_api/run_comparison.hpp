#pragma once
// The results server's comparisons of two stored runs: the gate (POST .../gate), the diff view
// (GET .../diff) and the regression alerts that fire on what the gate would fail. All of them are
// computed by the engine of `krino gate` and `krino compare` (gate/comparison.hpp: McNemar, the
// paired permutation test with its bootstrap interval, the severe-drop guard) and judged by its
// decide_verdict, so a run gated on the server and locally gets the same verdict.
//
// Ended runs never change, so a comparison is computed once and kept (the few most recent) for the
// pages that follow. Every call looks both runs up in the caller's scope first, so a deleted run,
// or one the caller may not see, is never served from the cache.
#include "krino/core/gate/comparison.hpp"
#include "krino/core/gate/gate_verdict.hpp"
#include "krino/core/store/store.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace krino::core::server_api {

// Two ended runs compared, candidate against baseline. Items are paired by dataset item id when
// both runs ran on the same dataset version and every item of both has a distinct id, else by
// position. comparison.items: the baseline's order, then the candidate's additions; an item's
// `index` is its position (seq) in the candidate run, or in the baseline run for a removed one.
struct RunComparison {
  store::RunDetails baseline;
  store::RunDetails candidate;
  Pairing pairing = Pairing::positional;
  Comparison comparison;
  // Positions in comparison.items of the cases each diff filter lists, and how many items have
  // each of the other statuses (counted once, not per page).
  std::vector<std::uint32_t> regressed, improved, changed;
  std::uint64_t unchanged_count = 0, added_count = 0, removed_count = 0;
};

struct GateRequest {
  std::string experiment_id;
  std::string candidate_run_id;
  std::optional<std::string> baseline_run_id = std::nullopt;  // none: the newest successful run before it
  std::optional<std::string> baseline_branch = std::nullopt;  // restricts that search to one git branch
};

struct GateOutcome {
  GateVerdict verdict;                            // status PASS, FAIL, NO_BASELINE or INCONCLUSIVE
  std::shared_ptr<const RunComparison> compared;  // empty for NO_BASELINE
  std::string candidate_run_id;
};

class RunComparisons {
 public:
  RunComparisons(store::Store& store, ComparisonOptions options, std::size_t kept = 4);
  ~RunComparisons();

  // Both runs must belong to the experiment and be visible to `scope`: StoreError not_found
  // otherwise; conflict when either has not ended.
  std::shared_ptr<const RunComparison> compare(const store::Scope& scope, const std::string& experiment_id,
                                               const std::string& baseline_run_id, const std::string& candidate_run_id);

  // The gate's verdict on the candidate. Throws as compare().
  GateOutcome gate(const store::Scope& scope, const GateRequest& request);

 private:
  struct Kept;
  store::Store& store_;
  ComparisonOptions options_;
  std::unique_ptr<Kept> kept_;
};

// The verdict as the server's gate answers it: the flat GateResult of the Dokimos server plus
// krino's own fields (docs/server.md).
std::string gate_outcome_json(const GateOutcome& outcome);

}  // namespace krino::core::server_api
