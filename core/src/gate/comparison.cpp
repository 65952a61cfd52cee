#include "krino/core/gate/comparison.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/round6.hpp"
#include "krino/core/statistics/run_statistics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

namespace krino::core {

namespace {

std::unordered_map<std::string_view, const SideItem*> index_by_key(const ComparisonSide& side, const char* which) {
  std::unordered_map<std::string_view, const SideItem*> keyed;
  for (const auto& item : side.items) {
    if (!keyed.emplace(item.key, &item).second)
      throw runtime_error(std::string("the ") + which + " has two items keyed '" + item.key +
                          "'; keys must be unique within a run (give examples distinct ids, or pair by position)");
  }
  return keyed;
}

double pass_rate(const ComparisonSide& side) {
  if (side.items.empty()) return 0.0;
  double sum = 0.0;
  for (const auto& item : side.items) sum += item.pass_probability;
  return sum / static_cast<double>(side.items.size());
}

std::string threshold_text(const std::optional<double>& t) { return t ? fmt::format("{}", *t) : "none"; }

}  // namespace

const char* change_status_name(ChangeStatus status) {
  switch (status) {
    case ChangeStatus::improved: return "IMPROVED";
    case ChangeStatus::regressed: return "REGRESSED";
    case ChangeStatus::added: return "ADDED";
    case ChangeStatus::removed: return "REMOVED";
    case ChangeStatus::unchanged: break;
  }
  return "UNCHANGED";
}

uint64_t Comparison::count(ChangeStatus status) const {
  return static_cast<uint64_t>(
      std::count_if(items.begin(), items.end(), [&](const ItemComparison& i) { return i.status == status; }));
}

ComparisonSide side_from_run(const RunProjection& run, Pairing pairing) {
  ComparisonSide side;
  side.runs = std::max<uint32_t>(run.runs, 1);
  std::vector<const ItemProjection*> order;
  for (const auto& item : run.items) order.push_back(&item);
  if (pairing == Pairing::dataset_item_id) {
    for (const auto* item : order)
      if (!item->id)
        throw config_error("pairing by id, but item " + std::to_string(item->index) +
                           " has no id; give every example an 'id' or use pairing: positional");
    std::sort(order.begin(), order.end(), [](const ItemProjection* a, const ItemProjection* b) { return *a->id < *b->id; });
  }
  side.items.reserve(order.size());
  for (const auto* item : order) {
    SideItem s;
    s.key = pairing == Pairing::dataset_item_id ? *item->id : positional_key(item->index);
    s.index = item->index;
    s.pass_probability = item->pass_probability();
    s.failed = item->evaluators.empty() && item->failed_runs > 0;
    s.evaluators = item->evaluators;
    for (auto& e : s.evaluators)
      if (e.score) e.score = round6(*e.score);
    side.items.push_back(std::move(s));
  }
  return side;
}

Comparison compare_sides(const ComparisonSide& baseline, const ComparisonSide& candidate, const ComparisonOptions& options) {
  const auto base_keyed = index_by_key(baseline, "baseline");
  const auto cand_keyed = index_by_key(candidate, "candidate");
  Comparison result;
  result.baseline_items = baseline.items.size();
  result.candidate_items = candidate.items.size();
  result.baseline_pass_rate = round6(pass_rate(baseline));
  result.candidate_pass_rate = round6(pass_rate(candidate));
  result.pass_rate_delta = round6(result.candidate_pass_rate - result.baseline_pass_rate);

  // Shared items, in the baseline's order: the order fixes how the random stream is consumed.
  std::vector<std::pair<const SideItem*, const SideItem*>> shared;
  for (const auto& item : baseline.items)
    if (auto it = cand_keyed.find(item.key); it != cand_keyed.end()) shared.emplace_back(&item, it->second);
  result.shared = shared.size();

  GateRng rng(options.seed);
  const bool single_run = baseline.runs == 1 && candidate.runs == 1;
  if (shared.size() >= 2) {
    if (single_run) {
      result.pass_rate_test = "mcnemar";
      for (const auto& [b, c] : shared) {
        const bool base_pass = b->pass_probability >= 0.5;
        const bool cand_pass = c->pass_probability >= 0.5;
        if (base_pass && !cand_pass) ++result.pass_to_fail;
        if (!base_pass && cand_pass) ++result.fail_to_pass;
      }
      result.pass_rate_p_value = mcnemar_p_value(result.pass_to_fail, result.fail_to_pass);
    } else {
      result.pass_rate_test = "permutation";
      std::vector<double> deltas;
      for (const auto& [b, c] : shared) deltas.push_back(round6(c->pass_probability - b->pass_probability));
      result.pass_rate_p_value = sign_flip_p_value(deltas, options.permutation_iterations, rng);
      result.pass_rate_interval = bootstrap_mean_interval(deltas, options.bootstrap_iterations, rng);
    }
  }
  result.pass_rate_significant = result.pass_rate_p_value < options.alpha;
  result.pass_rate_regressed = result.pass_rate_significant && result.pass_rate_delta < -kGateEpsilon;
  result.pass_rate_improved = result.pass_rate_significant && result.pass_rate_delta > kGateEpsilon;
  const uint64_t sign_flip_minimum = sign_flip_minimum_pairs(options.alpha, options.permutation_iterations);
  const uint64_t pass_minimum = single_run ? mcnemar_minimum_pairs(options.alpha) : sign_flip_minimum;
  result.minimum_pairs = (pass_minimum == 0 || sign_flip_minimum == 0) ? 0 : std::max({pass_minimum, sign_flip_minimum, uint64_t{2}});

  // Every evaluator of either side, sorted by name, on the one random stream.
  std::set<std::string> names;
  std::set<std::string> in_base, in_cand;
  for (const auto& item : baseline.items)
    for (const auto& e : item.evaluators) in_base.insert(e.name), names.insert(e.name);
  for (const auto& item : candidate.items)
    for (const auto& e : item.evaluators) in_cand.insert(e.name), names.insert(e.name);
  std::map<std::string, std::pair<std::optional<double>, std::optional<double>>> thresholds;
  for (const auto& name : names) {
    EvaluatorComparison ev;
    ev.name = name;
    ev.in_baseline = in_base.count(name) > 0;
    ev.in_candidate = in_cand.count(name) > 0;
    if (!ev.in_candidate) ev.status = ChangeStatus::removed;
    if (!ev.in_baseline) ev.status = ChangeStatus::added;
    if (ev.in_baseline && ev.in_candidate) {
      std::vector<double> deltas;
      double base_sum = 0.0, cand_sum = 0.0;
      bool threshold_changed = false;
      std::optional<double> base_threshold, cand_threshold;
      for (const auto& [b, c] : shared) {
        const auto* be = b->evaluator(name);
        const auto* ce = c->evaluator(name);
        if (be == nullptr || ce == nullptr) continue;
        if (be->threshold != ce->threshold && !threshold_changed) {
          threshold_changed = true;
          base_threshold = be->threshold;
          cand_threshold = ce->threshold;
        }
        if (!be->score || !ce->score) continue;
        base_sum += *be->score;
        cand_sum += *ce->score;
        deltas.push_back(round6(*ce->score - *be->score));
      }
      if (threshold_changed)
        result.warnings.push_back("evaluator '" + name + "': threshold changed from " + threshold_text(base_threshold) +
                                  " to " + threshold_text(cand_threshold) +
                                  "; pass/fail is compared across different bars (re-baseline if the change is intended)");
      ev.paired = deltas.size();
      if (!deltas.empty()) {
        ev.baseline_mean = round6(base_sum / static_cast<double>(deltas.size()));
        ev.candidate_mean = round6(cand_sum / static_cast<double>(deltas.size()));
        ev.delta = round6(mean(deltas));
      }
      ev.p_value = sign_flip_p_value(deltas, options.permutation_iterations, rng);
      ev.interval = bootstrap_mean_interval(deltas, options.bootstrap_iterations, rng);
      ev.significant = ev.p_value < options.alpha;
      if (ev.significant && ev.delta < -kGateEpsilon) ev.status = ChangeStatus::regressed;
      if (ev.significant && ev.delta > kGateEpsilon) ev.status = ChangeStatus::improved;
    }
    result.evaluators.push_back(std::move(ev));
  }
  auto evaluator_status = [&](const std::string& name) {
    for (const auto& e : result.evaluators)
      if (e.name == name) return e.status;
    return ChangeStatus::unchanged;
  };

  // Items: baseline order (shared or removed), then the candidate's additions.
  for (const auto& b : baseline.items) {
    ItemComparison item;
    item.key = b.key;
    item.index = b.index;
    item.baseline_pass = b.pass_probability >= 0.5;
    auto it = cand_keyed.find(b.key);
    if (it == cand_keyed.end()) {
      item.status = ChangeStatus::removed;
      result.items.push_back(std::move(item));
      continue;
    }
    const SideItem& c = *it->second;
    if (c.index) item.index = c.index;
    item.candidate_pass = c.pass_probability >= 0.5;
    bool regressed = result.pass_rate_regressed && item.baseline_pass && !item.candidate_pass;
    bool improved = result.pass_rate_improved && !item.baseline_pass && item.candidate_pass;
    for (const auto& be : b.evaluators) {
      const auto* ce = c.evaluator(be.name);
      if (ce == nullptr || !be.score || !ce->score) continue;
      const double delta = round6(*ce->score - *be.score);
      item.deltas.push_back(EvaluatorDelta{be.name, *be.score, *ce->score, delta});
      if (delta < -options.severity_margin) item.severe = true;
      const ChangeStatus s = evaluator_status(be.name);
      if (s == ChangeStatus::regressed && delta < -kGateEpsilon) regressed = true;
      if (s == ChangeStatus::improved && delta > kGateEpsilon) improved = true;
    }
    item.status = regressed ? ChangeStatus::regressed : improved ? ChangeStatus::improved : ChangeStatus::unchanged;
    result.items.push_back(std::move(item));
  }
  for (const auto& c : candidate.items) {
    if (base_keyed.count(c.key) > 0) continue;
    ItemComparison item;
    item.key = c.key;
    item.index = c.index;
    item.candidate_pass = c.pass_probability >= 0.5;
    item.status = ChangeStatus::added;
    result.items.push_back(std::move(item));
  }
  return result;
}

}  // namespace krino::core
