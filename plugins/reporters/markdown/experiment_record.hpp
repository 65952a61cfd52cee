// What the markdown summary needs from an experiment, collected event by event in bounded memory:
// the first run's description, every run's summary, the experiment's, the task's metrics totals, and
// the first failed and errored items (the rest only counted).
#ifndef KRINO_MARKDOWN_EXPERIMENT_RECORD_HPP
#define KRINO_MARKDOWN_EXPERIMENT_RECORD_HPP

#include <krino/report/events.hpp>
#include <krino/report/metrics_totals.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::markdown {

// A failed or errored item, with its texts already cut to what a table cell shows.
struct ListedItem {
  std::string label;  // "cap-03" or "#2"
  uint32_t run_index = 0;
  std::string input;
  std::string expected;
  std::string actual;
  std::vector<report::Result> failed_checks;  // reasons cut
  std::optional<report::ItemError> error;     // message cut
};

class ExperimentRecord {
 public:
  ExperimentRecord(std::size_t max_listed, std::size_t max_text_chars)
      : max_listed_(max_listed), max_text_chars_(max_text_chars) {}

  void on_run_started(const report::RunStarted& run);
  void on_item(const report::ItemFinished& item);
  void on_run_finished(const report::Finished& run);
  void on_experiment_finished(const report::Finished& experiment);

  const std::optional<report::RunStarted>& first_run() const { return first_run_; }
  uint32_t runs_planned() const { return first_run_ ? first_run_->runs : 1; }
  uint32_t runs_started() const { return runs_started_; }
  const std::vector<report::Finished>& runs() const { return runs_; }
  const std::optional<report::Finished>& experiment() const { return experiment_; }
  const report::MetricsTotals& task_metrics() const { return task_metrics_; }
  const std::vector<ListedItem>& failed() const { return failed_; }
  const std::vector<ListedItem>& errored() const { return errored_; }
  uint64_t failed_count() const { return failed_count_; }
  uint64_t errored_count() const { return errored_count_; }
  // Items seen in the run in progress (for a run that never finished).
  uint64_t open_run_items() const { return open_run_items_; }
  bool run_open() const { return run_open_; }

 private:
  std::size_t max_listed_;
  std::size_t max_text_chars_;
  std::optional<report::RunStarted> first_run_;
  uint32_t runs_started_ = 0;
  bool run_open_ = false;
  uint64_t open_run_items_ = 0;
  std::vector<report::Finished> runs_;
  std::optional<report::Finished> experiment_;
  report::MetricsTotals task_metrics_;
  std::vector<ListedItem> failed_;
  std::vector<ListedItem> errored_;
  uint64_t failed_count_ = 0;
  uint64_t errored_count_ = 0;
};

}  // namespace krino::markdown

#endif  // KRINO_MARKDOWN_EXPERIMENT_RECORD_HPP
