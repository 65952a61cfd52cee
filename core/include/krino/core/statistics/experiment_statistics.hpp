#pragma once
// Aggregates across runs: means of the per-run values, the sample standard deviation of
// the per-run averages, totals per run rather than multiplied by the number of runs.
// See docs/payloads.md#krinoevent1-what-a-reporter-receives.
#include "krino/core/statistics/run_statistics.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace krino::core {

class ExperimentStatistics {
 public:
  explicit ExperimentStatistics(std::vector<std::string> evaluator_names);

  void add_run(const RunStatistics& run);

  uint32_t run_count() const { return static_cast<uint32_t>(runs_.size()); }
  double pass_rate() const;            // mean of per-run pass rates
  double pass_count() const;           // mean of per-run pass counts (may be fractional)
  uint64_t total_count() const;        // items in the first run
  double error_count() const;          // mean of per-run error counts
  double average_score(const std::string& name) const;  // mean of per-run averages; 0 if unknown
  double score_std_dev(const std::string& name) const;  // sample std dev of per-run averages
  double evaluator_pass_rate(const std::string& name) const;
  double item_std_dev(const std::string& name) const;   // pooled over every item of every run

  // The "summary" of the experiment_finished event, every number rounded to 6 decimals.
  boost::json::object summary() const;

 private:
  struct RunRecord {
    uint64_t total;
    uint64_t passed;
    uint64_t errors;
    std::vector<EvaluatorRunStatistics> evaluators;
  };
  const EvaluatorRunStatistics* find(const RunRecord& run, const std::string& name) const;

  std::vector<std::string> names_;
  std::vector<RunRecord> runs_;  // one small record per run, never per item
  JudgeTotals judge_;            // summed over runs: calls and cost add up, they are not averaged
};

}  // namespace krino::core
