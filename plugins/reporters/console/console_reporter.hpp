// The krino.console reporter: progress while the experiment runs, a summary when it ends.
#ifndef KRINO_CONSOLE_CONSOLE_REPORTER_HPP
#define KRINO_CONSOLE_CONSOLE_REPORTER_HPP

#include "console_options.hpp"
#include "events.hpp"
#include "failure_log.hpp"
#include "progress_bar.hpp"
#include "style.hpp"
#include "terminal.hpp"
#include "text_output.hpp"

#include <krino/plugin.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace krino::console {

class ConsoleReporter {
 public:
  // Writes to the process's stdout and stderr and reads NO_COLOR and TERM: what the plugin uses.
  explicit ConsoleReporter(const krino::Config& config);

  // Writes the summary to `summary` and progress to `progress` (they may be the same object,
  // and must outlive the reporter).
  ConsoleReporter(const ConsoleOptions& options, TextOutput& summary, TextOutput& progress,
                  const Environment& environment, SteadyClock clock);

  ~ConsoleReporter();
  ConsoleReporter(const ConsoleReporter&) = delete;
  ConsoleReporter& operator=(const ConsoleReporter&) = delete;

  void on_event(const krino::Event& event);
  // Erases the progress bar (it comes back with the next item) and flushes both streams.
  void flush();

  // The events, as report::dispatch_event hands them out.
  void on_run_started(const RunStarted& start);
  void on_item(const ItemFinished& item);
  void on_run_finished(const Finished& run);
  void on_experiment_finished(const Finished& finished);

 private:
  ConsoleReporter(const ConsoleOptions& options, std::unique_ptr<TextOutput> standard_output,
                  std::unique_ptr<TextOutput> standard_error, const Environment& environment);

  // Writes a whole line, after erasing the progress bar.
  void print_line(TextOutput& output, const std::string& line);

  std::unique_ptr<TextOutput> owned_stdout_;
  std::unique_ptr<TextOutput> owned_stderr_;
  TextOutput* summary_;
  TextOutput* progress_;
  Style summary_style_;
  Style progress_style_;
  std::optional<ProgressBar> bar_;

  std::size_t max_failures_shown_;
  ItemLines item_lines_ = ItemLines::failures;
  FailureLog failed_;
  FailureLog errored_;
  std::string experiment_name_;
  uint32_t runs_planned_ = 1;
  std::vector<Finished> runs_;
};

}  // namespace krino::console

#endif  // KRINO_CONSOLE_CONSOLE_REPORTER_HPP
