#pragma once
// The comparison engine shared by the regression gate and `krino compare`: pairs the
// items of two sides by key, tests the pass rate and every evaluator for a significant change, and
// classifies every item. Pure: same inputs and seed, same result.
// See docs/gate.md#how-it-decides.
#include "krino/core/gate/paired_tests.hpp"
#include "krino/core/gate/pairing.hpp"
#include "krino/core/gate/run_projection.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::core {

// One side's item, keyed for pairing. Scores are already rounded to 6 decimals.
struct SideItem {
  std::string key;
  std::optional<uint64_t> index;
  double pass_probability = 0.0;  // share of runs in which every evaluator passed
  bool failed = false;            // only errors, no results: evaluator means are absent
  std::vector<EvaluatorProjection> evaluators;  // sorted by name

  const EvaluatorProjection* evaluator(std::string_view name) const { return find_evaluator(evaluators, name); }
};

struct ComparisonSide {
  uint32_t runs = 1;
  std::vector<SideItem> items;  // in the side's own order (index, or id)
};

struct ComparisonOptions {
  double alpha = 0.05;
  uint64_t seed = 42;
  uint32_t permutation_iterations = 10000;
  uint32_t bootstrap_iterations = 10000;
  double severity_margin = 0.15;
};

enum class ChangeStatus { unchanged, improved, regressed, added, removed };
const char* change_status_name(ChangeStatus status);  // "UNCHANGED", "IMPROVED", ...

struct EvaluatorComparison {
  std::string name;
  bool in_baseline = false;
  bool in_candidate = false;
  uint64_t paired = 0;  // shared items scored on both sides
  double baseline_mean = 0.0;   // over the paired items
  double candidate_mean = 0.0;
  double delta = 0.0;           // candidate - baseline, 6 decimals
  double p_value = 1.0;
  Interval interval;            // bootstrap interval of the mean delta
  bool significant = false;
  ChangeStatus status = ChangeStatus::unchanged;  // added/removed: on one side only
};

struct EvaluatorDelta {
  std::string name;
  double baseline = 0.0;
  double candidate = 0.0;
  double delta = 0.0;
};

struct ItemComparison {
  std::string key;
  std::optional<uint64_t> index;  // the candidate's index when paired, else the side's own
  ChangeStatus status = ChangeStatus::unchanged;
  bool baseline_pass = false;   // pass probability >= 0.5
  bool candidate_pass = false;
  bool severe = false;          // guard 2: some evaluator dropped by more than the severity margin
  std::vector<EvaluatorDelta> deltas;  // every evaluator scored on both sides
};

struct Comparison {
  uint64_t baseline_items = 0;
  uint64_t candidate_items = 0;
  uint64_t shared = 0;
  double baseline_pass_rate = 0.0;  // over all items of the side
  double candidate_pass_rate = 0.0;
  double pass_rate_delta = 0.0;
  std::string pass_rate_test = "none";  // "mcnemar", "permutation", or "none" (fewer than 2 shared items)
  uint64_t pass_to_fail = 0;  // McNemar's b
  uint64_t fail_to_pass = 0;  // McNemar's c
  double pass_rate_p_value = 1.0;
  std::optional<Interval> pass_rate_interval;  // permutation only
  bool pass_rate_significant = false;
  bool pass_rate_regressed = false;
  bool pass_rate_improved = false;
  uint64_t minimum_pairs = 0;  // paired items both tests need to be able to reach significance
  std::vector<EvaluatorComparison> evaluators;  // sorted by name, both sides' union
  std::vector<ItemComparison> items;            // baseline order, then added items in candidate order
  std::vector<std::string> warnings;            // threshold changes

  uint64_t count(ChangeStatus status) const;
};

// Throws a runtime error when a side repeats a key.
Comparison compare_sides(const ComparisonSide& baseline, const ComparisonSide& candidate, const ComparisonOptions& options);

// A run as a comparison side, keyed by `pairing` (positional or dataset_item_id; an item without an id
// is then a configuration error), scores rounded to 6 decimals.
ComparisonSide side_from_run(const RunProjection& run, Pairing pairing);

}  // namespace krino::core
