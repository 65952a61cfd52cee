// What the markdown summary needs from an experiment, collected event by event in bounded memory:
// the experiment's progress and the first failed and errored items (the rest only counted).
#ifndef KRINO_MARKDOWN_EXPERIMENT_RECORD_HPP
#define KRINO_MARKDOWN_EXPERIMENT_RECORD_HPP

#include <krino/report/events.hpp>
#include <krino/report/experiment_progress.hpp>

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

  void on_run_started(const report::RunStarted& run) { progress_.on_run_started(run); }
  void on_item(const report::ItemFinished& item);
  void on_run_finished(const report::Finished& run) { progress_.on_run_finished(run); }
  void on_experiment_finished(const report::Finished& experiment) { progress_.on_experiment_finished(experiment); }

  const report::ExperimentProgress& progress() const { return progress_; }
  const std::vector<ListedItem>& failed() const { return failed_; }
  const std::vector<ListedItem>& errored() const { return errored_; }
  uint64_t failed_count() const { return progress_.items(report::ItemStatus::failed); }
  uint64_t errored_count() const { return progress_.items(report::ItemStatus::errored); }

 private:
  std::size_t max_listed_;
  std::size_t max_text_chars_;
  report::ExperimentProgress progress_;
  std::vector<ListedItem> failed_;
  std::vector<ListedItem> errored_;
};

}  // namespace krino::markdown

#endif  // KRINO_MARKDOWN_EXPERIMENT_RECORD_HPP
