#include "krino/core/statistics/run_statistics.hpp"

#include <boost/json.hpp>

#include <cmath>

namespace krino::core {

void ScoreMoments::add(double x) {
  ++count;
  double delta = x - mean;
  mean += delta / static_cast<double>(count);
  m2 += delta * (x - mean);
}

void ScoreMoments::merge(const ScoreMoments& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  const double n_a = static_cast<double>(count);
  const double n_b = static_cast<double>(other.count);
  const double delta = other.mean - mean;
  const double n = n_a + n_b;
  mean += delta * n_b / n;
  m2 += other.m2 + delta * delta * n_a * n_b / n;
  count += other.count;
}

double ScoreMoments::sample_std_dev() const {
  if (count < 2) return 0.0;
  return std::sqrt(std::max(0.0, m2 / static_cast<double>(count - 1)));
}

RunStatistics::RunStatistics(const std::vector<std::string>& evaluator_names) {
  for (const auto& name : evaluator_names) evaluators_.push_back(EvaluatorRunStatistics{name, 0, 0, 0, {}});
}

EvaluatorRunStatistics* RunStatistics::find(std::string_view name) {
  for (auto& e : evaluators_) {
    if (e.name == name) return &e;
  }
  evaluators_.push_back(EvaluatorRunStatistics{std::string(name), 0, 0, 0, {}});
  return &evaluators_.back();
}

void RunStatistics::add_item(bool success, bool error, const std::vector<ScoreRecord>& results) {
  add_verdict(success, error);
  for (const auto& result : results) add_result(result.name, result.score, result.success);
}

void RunStatistics::add_item(const krino::event::ItemFinished& item) {
  add_verdict(item.success, item.error.has_value());
  for (const auto& result : item.results) add_result(result.name, result.score, result.success);
  if (item.judge) add_judge(*item.judge, item.judge_by_evaluator);
}

void RunStatistics::add_verdict(bool success, bool error) {
  ++total_;
  // An item with an error never passes, even though it has no failing result.
  if (success && !error) ++passed_;
  if (error) ++errors_;
}

void RunStatistics::add_result(std::string_view name, std::optional<double> score, bool success) {
  EvaluatorRunStatistics* stats = find(name);
  ++stats->results;
  if (success) ++stats->passed;
  if (score) stats->scores.add(*score);
  else ++stats->null_scores;
}

boost::json::object RunStatistics::summary() const {
  boost::json::object s;
  s["totalCount"] = total_;
  s["passCount"] = passed_;
  s["failCount"] = total_ - passed_;
  s["errorCount"] = errors_;
  s["passRate"] = round6(pass_rate());
  boost::json::object evaluators;
  for (const auto& e : evaluators_) {
    boost::json::object o;
    o["count"] = e.results;
    o["averageScore"] = round6(e.average());
    o["stdDev"] = round6(e.scores.sample_std_dev());
    o["passRate"] = round6(e.pass_rate());
    o["nullScores"] = e.null_scores;
    evaluators[e.name] = std::move(o);
  }
  s["evaluators"] = std::move(evaluators);
  if (!judge_.empty()) s["judge"] = judge_.to_json();
  return s;
}

}  // namespace krino::core
