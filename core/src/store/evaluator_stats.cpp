#include "krino/core/store/evaluator_stats.hpp"

#include <algorithm>
#include <cmath>

namespace krino::core::store {

void EvaluatorStatsBuilder::add(const ScoredItem& item) {
  for (const NewResult& result : item.results) {
    // Runs have a handful of evaluators: a linear look-up beats hashing every verdict's name.
    auto found = std::find_if(stats_.begin(), stats_.end(), [&](const EvaluatorStats& s) { return s.name == result.name; });
    if (found == stats_.end()) {
      stats_.push_back(EvaluatorStats{result.name});
      scores_.emplace_back();
      found = stats_.end() - 1;
    }
    EvaluatorStats& stats = *found;
    ++stats.count;
    if (result.success) ++stats.passed;
    if (!result.score) continue;
    const double score = *result.score;
    ++stats.scored;
    stats.score_sum += score;
    stats.score_sum_squares += score * score;
    stats.score_min = std::min(stats.score_min.value_or(score), score);
    stats.score_max = std::max(stats.score_max.value_or(score), score);
    scores_[static_cast<std::size_t>(found - stats_.begin())].push_back(score);
  }
}

std::vector<EvaluatorStats> EvaluatorStatsBuilder::finish() {
  for (std::size_t e = 0; e < stats_.size(); ++e) {
    EvaluatorStats& stats = stats_[e];
    if (!stats.score_min) continue;
    // Each score in its twentieth of [min, max] (the max in the last), all in the first when the
    // scores are equal; a range too wide for a double puts them in the first too.
    const double low = *stats.score_min;
    const double range = *stats.score_max - low;
    for (const double score : scores_[e]) {
      const double at = range > 0 && std::isfinite(range) ? (score - low) / range * kScoreBuckets : 0.0;
      const auto bucket = static_cast<std::size_t>(std::clamp(at, 0.0, static_cast<double>(kScoreBuckets - 1)));
      ++stats.buckets[bucket];
    }
  }
  scores_.clear();
  return std::move(stats_);
}

std::optional<std::vector<EvaluatorStats>> evaluator_stats(Store& store, const Scope& scope, const std::string& run_id) {
  const std::optional<RunDetails> run = store.run(scope, run_id);
  if (!run) return std::nullopt;
  const bool ended = is_terminal(run->status);
  if (ended)
    if (auto kept = store.kept_evaluator_stats(run_id)) return kept;
  EvaluatorStatsBuilder builder;
  store.scan_verdicts(scope, run_id, [&](const ScoredItem& item) { builder.add(item); });
  std::vector<EvaluatorStats> stats = builder.finish();
  // A run without verdicts keeps nothing and costs nothing to sum again.
  if (ended && !stats.empty()) store.keep_evaluator_stats(run_id, stats);
  return stats;
}

}  // namespace krino::core::store
