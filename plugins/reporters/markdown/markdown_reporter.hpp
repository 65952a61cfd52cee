// The krino.markdown reporter: a compact GitHub-flavoured Markdown summary of the experiment, for
// $GITHUB_STEP_SUMMARY and pull-request comments (docs/plugins/markdown.md).
#ifndef KRINO_MARKDOWN_MARKDOWN_REPORTER_HPP
#define KRINO_MARKDOWN_MARKDOWN_REPORTER_HPP

#include "experiment_record.hpp"
#include "markdown_options.hpp"

#include <krino/plugin.hpp>
#include <krino/report/dispatch.hpp>
#include <krino/report/output.hpp>

namespace krino::markdown {

class MarkdownReporter : public report::DocumentReporter<MarkdownReporter> {
 public:
  // Checks the path at once, so a bad one fails the experiment before it starts.
  explicit MarkdownReporter(const krino::Config& config) : MarkdownReporter(MarkdownOptions::from_config(config)) {}
  explicit MarkdownReporter(const MarkdownOptions& options);
  // An experiment that never finished (krino stopped on an error) still gets its summary, saying so.
  ~MarkdownReporter();

  // The events, typed (DocumentReporter hands them out).
  void on_run_started(const report::RunStarted& run) { record_.on_run_started(run); }
  void on_item(const report::ItemFinished& item) { record_.on_item(item); }
  void on_run_finished(const report::Finished& finished) { record_.on_run_finished(finished); }
  void on_experiment_finished(const report::Finished& finished);

 private:
  void write(const std::string& status);

  MarkdownOptions options_;
  report::ReportTarget target_;
  ExperimentRecord record_;
  bool finished_ = false;
};

}  // namespace krino::markdown

#endif  // KRINO_MARKDOWN_MARKDOWN_REPORTER_HPP
