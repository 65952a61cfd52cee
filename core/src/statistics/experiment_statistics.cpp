#include "krino/core/statistics/experiment_statistics.hpp"

#include <boost/json.hpp>

#include <cmath>

namespace krino::core {

ExperimentStatistics::ExperimentStatistics(std::vector<std::string> evaluator_names)
    : names_(std::move(evaluator_names)) {}

void ExperimentStatistics::add_run(const RunStatistics& run) {
  runs_.push_back(RunRecord{run.total(), run.passed(), run.errors(), run.evaluators()});
  judge_.merge(run.judge());
  for (const auto& e : run.evaluators()) {
    bool known = false;
    for (const auto& n : names_) known = known || n == e.name;
    if (!known) names_.push_back(e.name);
  }
}

const EvaluatorRunStatistics* ExperimentStatistics::find(const RunRecord& run, const std::string& name) const {
  for (const auto& e : run.evaluators) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

namespace {
template <class F>
double mean_over(size_t n, F&& value_of) {
  if (n == 0) return 0.0;
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += value_of(i);
  return sum / static_cast<double>(n);
}
}  // namespace

double ExperimentStatistics::pass_rate() const {
  return mean_over(runs_.size(), [&](size_t i) {
    return runs_[i].total > 0 ? static_cast<double>(runs_[i].passed) / static_cast<double>(runs_[i].total) : 0.0;
  });
}

double ExperimentStatistics::pass_count() const {
  return mean_over(runs_.size(), [&](size_t i) { return static_cast<double>(runs_[i].passed); });
}

uint64_t ExperimentStatistics::total_count() const { return runs_.empty() ? 0 : runs_.front().total; }

double ExperimentStatistics::error_count() const {
  return mean_over(runs_.size(), [&](size_t i) { return static_cast<double>(runs_[i].errors); });
}

double ExperimentStatistics::average_score(const std::string& name) const {
  return mean_over(runs_.size(), [&](size_t i) {
    const auto* e = find(runs_[i], name);
    return e != nullptr ? e->average() : 0.0;
  });
}

double ExperimentStatistics::score_std_dev(const std::string& name) const {
  ScoreMoments per_run;
  for (const auto& run : runs_) {
    const auto* e = find(run, name);
    per_run.add(e != nullptr ? e->average() : 0.0);
  }
  return per_run.sample_std_dev();
}

double ExperimentStatistics::evaluator_pass_rate(const std::string& name) const {
  return mean_over(runs_.size(), [&](size_t i) {
    const auto* e = find(runs_[i], name);
    return e != nullptr ? e->pass_rate() : 0.0;
  });
}

double ExperimentStatistics::item_std_dev(const std::string& name) const {
  ScoreMoments pooled;
  for (const auto& run : runs_) {
    if (const auto* e = find(run, name)) pooled.merge(e->scores);
  }
  return pooled.sample_std_dev();
}

boost::json::object ExperimentStatistics::summary() const {
  boost::json::object s;
  const double total = static_cast<double>(total_count());
  const double passed = round6(pass_count());
  s["runCount"] = runs_.size();
  s["totalCount"] = total_count();
  s["passCount"] = passed;
  s["failCount"] = round6(total - passed);
  s["errorCount"] = round6(error_count());
  s["passRate"] = round6(pass_rate());
  boost::json::object evaluators;
  for (const auto& name : names_) {
    boost::json::object o;
    o["averageScore"] = round6(average_score(name));
    o["stdDev"] = round6(score_std_dev(name));
    o["passRate"] = round6(evaluator_pass_rate(name));
    o["itemStdDev"] = round6(item_std_dev(name));
    evaluators[name] = std::move(o);
  }
  s["evaluators"] = std::move(evaluators);
  if (!judge_.empty()) s["judge"] = judge_.to_json();
  return s;
}

}  // namespace krino::core
