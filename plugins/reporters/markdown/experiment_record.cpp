#include "experiment_record.hpp"

#include <krino/report/text.hpp>

namespace krino::markdown {

void ExperimentRecord::on_run_started(const report::RunStarted& run) {
  if (!first_run_) first_run_ = run;
  ++runs_started_;
  run_open_ = true;
  open_run_items_ = 0;
}

void ExperimentRecord::on_item(const report::ItemFinished& item) {
  ++open_run_items_;
  task_metrics_.add(item.metrics);
  const report::ItemStatus status = item.status();
  if (status != report::ItemStatus::failed && status != report::ItemStatus::errored) return;
  const bool errored = status == report::ItemStatus::errored;
  (errored ? errored_count_ : failed_count_) += 1;
  std::vector<ListedItem>& list = errored ? errored_ : failed_;
  if (list.size() >= max_listed_) return;

  const std::size_t max = max_text_chars_;
  ListedItem listed;
  listed.label = report::short_line(item.label(), 80);
  listed.run_index = item.run_index;
  listed.input = report::short_line(report::section_text(item.inputs, "input"), max);
  listed.expected = report::short_line(report::section_text(item.expected_outputs, "output"), max);
  listed.actual = report::short_line(report::section_text(item.actual_outputs, "output"), max);
  for (const auto& r : item.results) {
    if (r.success) continue;
    report::Result check = r;
    check.reason = report::short_line(r.reason, max);
    listed.failed_checks.push_back(std::move(check));
  }
  if (item.error) {
    listed.error = *item.error;
    listed.error->message = report::short_line(item.error->message, max);
  }
  list.push_back(std::move(listed));
}

void ExperimentRecord::on_run_finished(const report::Finished& run) {
  runs_.push_back(run);
  run_open_ = false;
}

void ExperimentRecord::on_experiment_finished(const report::Finished& experiment) { experiment_ = experiment; }

}  // namespace krino::markdown
