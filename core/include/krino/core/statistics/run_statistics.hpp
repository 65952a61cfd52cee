#pragma once
// Aggregates of one run, accumulated item by item in constant memory (Welford for the spread).
#include "krino/core/common/round6.hpp"
#include "krino/core/statistics/judge_totals.hpp"

#include <krino/event/item_finished.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::core {

// Streaming mean and sample variance.
struct ScoreMoments {
  uint64_t count = 0;
  double mean = 0.0;
  double m2 = 0.0;

  void add(double x);
  void merge(const ScoreMoments& other);  // Chan et al.'s parallel combination
  double sample_std_dev() const;          // 0 with fewer than two values
};

// What the statistics need of one eval result.
struct ScoreRecord {
  std::string name;
  std::optional<double> score;  // nullopt: could not be computed
  bool success = false;
};

struct EvaluatorRunStatistics {
  std::string name;
  uint64_t results = 0;      // items that got a result from this evaluator
  uint64_t passed = 0;       // of those, successes
  uint64_t null_scores = 0;  // results whose score could not be computed
  ScoreMoments scores;       // over the non-null scores

  double average() const { return scores.count > 0 ? scores.mean : 0.0; }
  double pass_rate() const { return results > 0 ? static_cast<double>(passed) / static_cast<double>(results) : 0.0; }
};

class RunStatistics {
 public:
  explicit RunStatistics(const std::vector<std::string>& evaluator_names);

  // One finished item: whether it passed, whether it ended in an error, and its eval results
  // (empty for an item with an error).
  void add_item(bool success, bool error, const std::vector<ScoreRecord>& results);
  // One finished item as its event holds it: verdict, results and judge usage.
  void add_item(const krino::event::ItemFinished& item);

  uint64_t total() const { return total_; }
  uint64_t passed() const { return passed_; }
  uint64_t errors() const { return errors_; }
  double pass_rate() const { return total_ > 0 ? static_cast<double>(passed_) / static_cast<double>(total_) : 0.0; }
  const std::vector<EvaluatorRunStatistics>& evaluators() const { return evaluators_; }

  // The judge calls one finished item made (nothing happens for an item without any).
  void add_judge(const JudgeUsage& item, const std::vector<std::pair<std::string, JudgeUsage>>& by_evaluator) {
    judge_.add_item(item, by_evaluator);
  }
  const JudgeTotals& judge() const { return judge_; }

  // The "summary" of a run_finished event (docs/payloads.md).
  boost::json::object summary() const;

 private:
  EvaluatorRunStatistics* find(std::string_view name);
  void add_verdict(bool success, bool error);
  void add_result(std::string_view name, std::optional<double> score, bool success);

  uint64_t total_ = 0;
  uint64_t passed_ = 0;
  uint64_t errors_ = 0;
  std::vector<EvaluatorRunStatistics> evaluators_;
  JudgeTotals judge_;
};

}  // namespace krino::core
