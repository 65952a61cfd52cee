// The krino.html reporter: one self-contained HTML page (docs/plugins/html.md).
//
// Memory stays flat: histograms and counts are accumulated as items arrive, and each item's table
// data goes to one of two spool files (failed and errored items, the others) until the cap is
// reached. When the experiment ends, the page is assembled summary first, then the spooled items,
// under a temporary name renamed over the target.
#ifndef KRINO_HTML_HTML_REPORTER_HPP
#define KRINO_HTML_HTML_REPORTER_HPP

#include "html_options.hpp"
#include "score_histogram.hpp"

#include <krino/plugin.hpp>
#include <krino/report/dispatch.hpp>
#include <krino/report/events.hpp>
#include <krino/report/experiment_progress.hpp>
#include <krino/report/output.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace krino::html {

class HtmlReporter : public report::DocumentReporter<HtmlReporter> {
 public:
  // Checks the path at once, so a bad one fails the experiment before it starts.
  explicit HtmlReporter(const krino::Config& config) : HtmlReporter(HtmlOptions::from_config(config)) {}
  explicit HtmlReporter(const HtmlOptions& options);
  // An experiment that never finished (krino stopped on an error) still gets its page, saying so.
  ~HtmlReporter();

  // The events, typed (DocumentReporter hands them out).
  void on_run_started(const report::RunStarted& run);
  void on_item(const report::ItemFinished& item);
  void on_run_finished(const report::Finished& finished) { progress_.on_run_finished(finished); }
  void on_experiment_finished(const report::Finished& finished);

 private:
  void write_page(const std::string& status);

  HtmlOptions options_;
  report::ReportTarget target_;
  report::ExperimentProgress progress_;
  std::vector<report::EvaluatorInfo> evaluators_;  // the first run's
  std::vector<std::string> evaluator_names_;
  std::vector<ScoreHistogram> histograms_;
  report::Spool problems_;  // failed and errored items' data
  report::Spool others_;    // passing and skipped items' data
  uint64_t problems_kept_ = 0;
  uint64_t others_kept_ = 0;
  // Where each kept passing item's data ends in `others_`, so the page can take the first ones.
  std::vector<uint64_t> other_ends_;
  bool finished_ = false;
  std::string scratch_;
};

}  // namespace krino::html

#endif  // KRINO_HTML_HTML_REPORTER_HPP
