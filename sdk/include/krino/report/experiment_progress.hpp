// What a report that is written at the end of an experiment needs to remember about it, in
// memory that does not grow with the number of items: the first run's description, every run's
// summary, the experiment's summary, the task's metrics totals and item counts by status.
// Header-only.
#ifndef KRINO_REPORT_EXPERIMENT_PROGRESS_HPP
#define KRINO_REPORT_EXPERIMENT_PROGRESS_HPP

#include <krino/report/events.hpp>
#include <krino/report/metrics_totals.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::report {

class ExperimentProgress {
 public:
  void on_run_started(const RunStarted& run) {
    if (!first_run_) first_run_ = run;
    ++runs_started_;
    run_open_ = true;
    open_run_items_ = 0;
  }
  // Counts the item and adds its metrics; returns its status.
  ItemStatus on_item(const ItemFinished& item) {
    ++open_run_items_;
    task_metrics_.add(item.metrics);
    const ItemStatus status = item.status();
    ++status_counts_[static_cast<std::size_t>(status)];
    return status;
  }
  void on_run_finished(const Finished& run) {
    runs_.push_back(run);
    run_open_ = false;
  }
  void on_experiment_finished(const Finished& experiment) { experiment_ = experiment; }

  const std::optional<RunStarted>& first_run() const { return first_run_; }
  // The experiment's name, or "" before a run started.
  std::string experiment_name() const { return first_run_ ? first_run_->experiment_name : std::string(); }
  uint32_t runs_planned() const { return first_run_ ? first_run_->runs : 1; }
  uint32_t runs_started() const { return runs_started_; }
  const std::vector<Finished>& runs() const { return runs_; }
  const std::optional<Finished>& experiment() const { return experiment_; }
  // The summary a report shows: the experiment's when it finished, else the last finished run's.
  std::optional<Summary> summary() const {
    if (experiment_) return experiment_->summary;
    if (!runs_.empty()) return runs_.back().summary;
    return std::nullopt;
  }
  // Several runs finished and the experiment summary averages them.
  bool several_runs() const { return experiment_.has_value() && runs_.size() > 1; }
  // Null scores of an evaluator, summed over the finished runs (the experiment summary has none).
  uint64_t null_scores(const std::string& evaluator) const {
    uint64_t n = 0;
    for (const auto& run : runs_)
      for (const auto& e : run.summary.evaluators)
        if (e.name == evaluator) n += e.null_scores.value_or(0);
    return n;
  }
  const MetricsTotals& task_metrics() const { return task_metrics_; }
  // Items seen with `status`, over all runs (including a run that did not finish).
  uint64_t items(ItemStatus status) const { return status_counts_[static_cast<std::size_t>(status)]; }
  uint64_t items() const { return status_counts_[0] + status_counts_[1] + status_counts_[2] + status_counts_[3]; }
  bool run_open() const { return run_open_; }
  uint64_t open_run_items() const { return open_run_items_; }

 private:
  std::optional<RunStarted> first_run_;
  uint32_t runs_started_ = 0;
  bool run_open_ = false;
  uint64_t open_run_items_ = 0;
  std::vector<Finished> runs_;
  std::optional<Finished> experiment_;
  MetricsTotals task_metrics_;
  std::array<uint64_t, 4> status_counts_{};
};

// The note a report puts first when the experiment did not complete; "" when it did. `status` is
// "completed", "cancelled", or "interrupted" (krino stopped before experiment_finished).
inline std::string incomplete_note(const ExperimentProgress& progress, const std::string& status) {
  if (status == "cancelled")
    return "Cancelled during run " + std::to_string(progress.runs_started()) + " of " +
           std::to_string(progress.runs_planned()) + ": only the items that finished before the cancellation are counted.";
  if (status != "interrupted") return {};
  std::string note = "Interrupted: krino stopped before the experiment finished (see its error output)";
  if (progress.run_open())
    note += "; run " + std::to_string(progress.runs_started()) + " had reported " +
            std::to_string(progress.open_run_items()) + " items";
  return note + ". The figures cover only the runs that finished.";
}

}  // namespace krino::report

#endif  // KRINO_REPORT_EXPERIMENT_PROGRESS_HPP
