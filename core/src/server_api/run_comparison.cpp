#include "krino/core/server_api/run_comparison.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/round6.hpp"

#include <krino/json_text.hpp>

#include <malloc.h>

#include <algorithm>
#include <deque>
#include <mutex>

namespace krino::core::server_api {

namespace {

using store::StoreError;

// A stored run as one side of a comparison, keyed by dataset item id when `by_id` (the caller
// knows every item has one), else by position.
struct LoadedSide {
  ComparisonSide side;
  bool every_item_has_id = true;
};

LoadedSide load_side(store::Store& store, const store::Scope& scope, const std::string& run_id) {
  LoadedSide loaded;
  store.scan_items(scope, run_id, [&](const store::ScoredItem& stored) {
    SideItem item;
    item.index = static_cast<std::uint64_t>(stored.seq);
    if (stored.dataset_item_id) item.key = *stored.dataset_item_id;
    else loaded.every_item_has_id = false;
    item.pass_probability = stored.success ? 1.0 : 0.0;
    item.failed = stored.results.empty() && !stored.success;
    item.evaluators.reserve(stored.results.size());
    for (const store::NewResult& result : stored.results) {
      EvaluatorProjection evaluator;
      evaluator.name = result.name;
      if (result.score) evaluator.score = round6(*result.score);
      evaluator.pass = result.success;
      evaluator.threshold = result.threshold;
      item.evaluators.push_back(std::move(evaluator));
    }
    // Sorted by name, as the engine looks evaluators up; a name sent twice for one item keeps its first verdict.
    std::stable_sort(item.evaluators.begin(), item.evaluators.end(),
                     [](const EvaluatorProjection& a, const EvaluatorProjection& b) { return a.name < b.name; });
    item.evaluators.erase(std::unique(item.evaluators.begin(), item.evaluators.end(),
                                      [](const EvaluatorProjection& a, const EvaluatorProjection& b) { return a.name == b.name; }),
                          item.evaluators.end());
    loaded.side.items.push_back(std::move(item));
  });
  return loaded;
}

void key_by_position(ComparisonSide& side) {
  for (SideItem& item : side.items) item.key = positional_key(*item.index);
}

bool has_distinct_keys(const ComparisonSide& side) {
  std::vector<std::string_view> keys;
  keys.reserve(side.items.size());
  for (const SideItem& item : side.items) keys.push_back(item.key);
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) == keys.end();
}

store::RunDetails ended_run(store::Store& store, const store::Scope& scope, const std::string& experiment_id, const std::string& run_id) {
  auto run = store.run(scope, run_id);
  if (!run || run->experiment_id != experiment_id)
    throw StoreError(StoreError::Kind::not_found, "no run " + run_id + " in experiment " + experiment_id);
  if (!store::is_terminal(run->status))
    throw StoreError(StoreError::Kind::conflict,
                     "run " + run_id + " is still " + std::string(store::status_name(run->status)) + "; only ended runs are compared");
  return std::move(*run);
}

}  // namespace

struct RunComparisons::Kept {
  std::mutex mutex;
  std::deque<std::shared_ptr<const RunComparison>> newest_first;
  std::size_t capacity = 4;
};

RunComparisons::RunComparisons(store::Store& store, ComparisonOptions options, std::size_t kept)
    : store_(store), options_(options), kept_(std::make_unique<Kept>()) {
  kept_->capacity = std::max<std::size_t>(kept, 1);
}

RunComparisons::~RunComparisons() = default;

std::shared_ptr<const RunComparison> RunComparisons::compare(const store::Scope& scope, const std::string& experiment_id,
                                                             const std::string& baseline_run_id, const std::string& candidate_run_id) {
  store::RunDetails baseline = ended_run(store_, scope, experiment_id, baseline_run_id);
  store::RunDetails candidate = ended_run(store_, scope, experiment_id, candidate_run_id);
  {
    const std::lock_guard<std::mutex> lock(kept_->mutex);
    for (const auto& kept : kept_->newest_first)
      if (kept->baseline.id == baseline.id && kept->candidate.id == candidate.id) return kept;
  }
  // Computed outside the lock: another comparison may be asked for meanwhile.
  auto made = std::make_shared<RunComparison>();
  LoadedSide base_side = load_side(store_, scope, baseline.id);
  LoadedSide cand_side = load_side(store_, scope, candidate.id);
  // Versions of one server dataset keep their items' ids, so they pair by id too.
  const bool same_dataset = baseline.dataset_version == candidate.dataset_version ||
                            (store::dataset_lineage(baseline.dataset_version) &&
                             store::dataset_lineage(baseline.dataset_version) == store::dataset_lineage(candidate.dataset_version));
  const bool by_id = same_dataset && base_side.every_item_has_id && cand_side.every_item_has_id &&
                     !base_side.side.items.empty() && has_distinct_keys(base_side.side) && has_distinct_keys(cand_side.side);
  if (!by_id) {
    key_by_position(base_side.side);
    key_by_position(cand_side.side);
  }
  made->pairing = by_id ? Pairing::dataset_item_id : Pairing::positional;
  made->comparison = compare_sides(base_side.side, cand_side.side, options_);
  base_side = {};
  cand_side = {};
  // The sides and the engine's indexes were most of the memory; hand it back to the system now
  // rather than keeping a long run's peak for the life of the server.
  malloc_trim(0);
  for (std::uint32_t i = 0; i < made->comparison.items.size(); ++i) {
    const ChangeStatus status = made->comparison.items[i].status;
    if (status == ChangeStatus::regressed) made->regressed.push_back(i);
    if (status == ChangeStatus::improved) made->improved.push_back(i);
    if (status == ChangeStatus::regressed || status == ChangeStatus::improved) made->changed.push_back(i);
    if (status == ChangeStatus::unchanged) ++made->unchanged_count;
    if (status == ChangeStatus::added) ++made->added_count;
    if (status == ChangeStatus::removed) ++made->removed_count;
  }
  made->baseline = std::move(baseline);
  made->candidate = std::move(candidate);

  const std::lock_guard<std::mutex> lock(kept_->mutex);
  kept_->newest_first.push_front(made);
  if (kept_->newest_first.size() > kept_->capacity) kept_->newest_first.pop_back();
  return made;
}

GateOutcome RunComparisons::gate(const store::Scope& scope, const GateRequest& request) {
  if (!store_.experiment(scope, request.experiment_id))
    throw StoreError(StoreError::Kind::not_found, "no experiment " + request.experiment_id);
  const store::RunDetails candidate = ended_run(store_, scope, request.experiment_id, request.candidate_run_id);
  GateOutcome outcome;
  outcome.candidate_run_id = candidate.id;
  std::optional<std::string> baseline_id = request.baseline_run_id;
  if (!baseline_id)
    baseline_id = store_.baseline_run(scope, store::BaselineQuery{request.experiment_id, candidate.id, candidate.dataset_version,
                                                                  request.baseline_branch});
  if (!baseline_id) {
    outcome.verdict.status = GateStatus::no_baseline;
    outcome.verdict.passed = true;
    outcome.verdict.alpha = options_.alpha;
    outcome.verdict.severity_margin = options_.severity_margin;
    outcome.verdict.message = "No baseline: this experiment has no successful run before this one on the same dataset version" +
                              std::string(request.baseline_branch ? " and branch" : "") + ". A first run cannot regress.";
    store_.record_gate(request.experiment_id, candidate.id, std::nullopt, gate_status_name(outcome.verdict.status), std::nullopt);
    return outcome;
  }
  outcome.compared = compare(scope, request.experiment_id, *baseline_id, candidate.id);
  GateConfig config;
  config.comparison = options_;
  config.baseline_label = "run " + *baseline_id;
  // Aliasing: the verdict shares the kept comparison instead of copying its items.
  std::shared_ptr<const Comparison> comparison(outcome.compared, &outcome.compared->comparison);
  outcome.verdict = decide_verdict(std::move(comparison), config, pairing_name(outcome.compared->pairing),
                                   "the next successful run becomes the baseline, or name one with baselineRunId");
  // Logged for the dashboard's failing gates (the API's and the alert checks' verdicts alike).
  const store::RunDetails& baseline = outcome.compared->baseline;
  std::optional<double> delta;
  if (candidate.total_items > 0 && baseline.total_items > 0)
    delta = static_cast<double>(candidate.passed_items) / static_cast<double>(candidate.total_items) -
            static_cast<double>(baseline.passed_items) / static_cast<double>(baseline.total_items);
  store_.record_gate(request.experiment_id, candidate.id, baseline.id, gate_status_name(outcome.verdict.status), delta);
  return outcome;
}

std::string gate_outcome_json(const GateOutcome& outcome) {
  boost::json::object verdict = verdict_json(outcome.verdict);
  // A server baseline is a run, not a file.
  verdict.erase("baseline");
  verdict.erase("baselineWritten");
  verdict["candidateRunId"] = outcome.candidate_run_id;
  verdict["baselineRunId"] = outcome.compared ? boost::json::value(outcome.compared->baseline.id) : boost::json::value(nullptr);
  return krino::json::to_compact_json(verdict);
}

}  // namespace krino::core::server_api
