#include "console_reporter.hpp"

#include "item_line.hpp"
#include "summary_printer.hpp"

#include <krino/report/dispatch.hpp>

#include <cstdio>
#include <utility>

namespace krino::console {

ConsoleReporter::ConsoleReporter(const krino::Config& config)
    : ConsoleReporter(ConsoleOptions::from_config(config), std::make_unique<FileOutput>(stdout),
                      std::make_unique<FileOutput>(stderr), Environment::from_process()) {}

ConsoleReporter::ConsoleReporter(const ConsoleOptions& options, std::unique_ptr<TextOutput> standard_output,
                                 std::unique_ptr<TextOutput> standard_error, const Environment& environment)
    : ConsoleReporter(options, options.stream == SummaryStream::standard_error ? *standard_error : *standard_output,
                      *standard_error, environment, [] { return std::chrono::steady_clock::now(); }) {
  owned_stdout_ = std::move(standard_output);
  owned_stderr_ = std::move(standard_error);
}

ConsoleReporter::ConsoleReporter(const ConsoleOptions& options, TextOutput& summary, TextOutput& progress,
                                 const Environment& environment, SteadyClock clock)
    : summary_(&summary),
      progress_(&progress),
      summary_style_(color_enabled(options.color, summary.is_terminal(), environment)),
      progress_style_(color_enabled(options.color, progress.is_terminal(), environment)),
      max_failures_shown_(options.max_failures_shown),
      item_lines_(options.items),
      failed_(options.max_failures_shown),
      errored_(options.max_failures_shown) {
  if (progress_enabled(options.progress, progress.is_terminal()))
    bar_.emplace(progress, progress_style_, std::move(clock));
}

ConsoleReporter::~ConsoleReporter() {
  if (bar_) bar_->clear();
  summary_->flush();
  progress_->flush();
}

void ConsoleReporter::on_event(const krino::Event& event) {
  // Items are almost every event and most pass: a passing item is read up to its verdict alone,
  // unless every item is printed.
  report::dispatch_event(event, *this,
                         item_lines_ == ItemLines::all ? krino::event::ItemParts::head
                                                       : krino::event::ItemParts::head_of_failures);
}

void ConsoleReporter::flush() {
  if (bar_) bar_->clear();
  progress_->flush();
  summary_->flush();
}

void ConsoleReporter::on_run_started(const RunStarted& start) {
  if (!start.experiment_name.empty()) experiment_name_ = start.experiment_name;
  runs_planned_ = start.runs;
  if (bar_) bar_->start_run(start.run_index, start.runs, start.dataset.size_hint);
}

void ConsoleReporter::on_item(const ItemFinished& item) {
  const Verdict verdict = verdict_of(item);
  if (bar_) bar_->add(verdict);
  const bool every_item = item_lines_ == ItemLines::all;
  if (verdict == Verdict::pass) {
    if (every_item) print_line(*progress_, tagged_line(verdict, describe_item(item, runs_planned_), progress_style_));
    return;
  }

  std::string description = describe_item(item, runs_planned_);
  if (!bar_ || every_item) print_line(*progress_, tagged_line(verdict, description, progress_style_));
  (verdict == Verdict::error ? errored_ : failed_).add(std::move(description));
}

void ConsoleReporter::on_run_finished(const Finished& run) {
  print_line(*progress_, render_run_line(run, runs_planned_, progress_style_));
  runs_.push_back(run);
}

void ConsoleReporter::on_experiment_finished(const Finished& finished) {
  ExperimentReport report;
  report.name = experiment_name_;
  report.runs_planned = runs_planned_;
  report.summary = finished;
  report.runs = runs_;
  report.failed = &failed_;
  report.errored = &errored_;
  report.max_shown = max_failures_shown_;
  if (bar_) bar_->clear();
  // Whatever went to the progress stream comes first when both end up on one screen.
  progress_->flush();
  summary_->write(render_summary(report, summary_style_));
  summary_->flush();
}

void ConsoleReporter::print_line(TextOutput& output, const std::string& line) {
  if (bar_) bar_->clear();
  output.write(line);
  output.write("\n");
  output.flush();
}

}  // namespace krino::console
