#include "junit_reporter.hpp"

#include <krino/json_text.hpp>
#include <krino/report/dispatch.hpp>
#include <krino/report/markup.hpp>
#include <krino/report/text.hpp>

#include <unistd.h>

namespace krino::junit {
namespace {

std::string host_name() {
  char buffer[256] = {};
  if (::gethostname(buffer, sizeof buffer - 1) != 0) return {};
  return buffer;
}

void append_property(std::string& out, std::string_view name, std::string_view value) {
  out += "      <property";
  report::append_attribute(out, "name", name);
  report::append_attribute(out, "value", value);
  out += "/>\n";
}

std::string number_text(double value) {
  std::string out;
  krino::json::append_double(out, value);
  return out;
}

}  // namespace

void JunitReporter::Counts::add(report::ItemStatus status) {
  ++tests;
  if (status == report::ItemStatus::failed) ++failures;
  if (status == report::ItemStatus::errored) ++errors;
  if (status == report::ItemStatus::skipped) ++skipped;
}

void JunitReporter::Counts::add(const Counts& other) {
  tests += other.tests;
  failures += other.failures;
  errors += other.errors;
  skipped += other.skipped;
}

JunitReporter::JunitReporter(const JunitOptions& options)
    : options_(options),
      target_(options.path, report::ReportTarget::Mode::replace),
      cases_(target_.spool_directory()),
      suites_(target_.spool_directory()) {
  context_.max_text_chars = options.max_text_chars;
  context_.system_out = options.system_out;
  context_.merge_failures = options.merge_failures;
}

JunitReporter::~JunitReporter() {
  if (!finished_) report::finish_from_destructor("junit", [this] { finish_interrupted(); });
}

void JunitReporter::on_run_finished(const report::Finished& finished) {
  if (run_) close_suite(finished.status, finished.duration_ms, &finished.summary);
}

void JunitReporter::on_experiment_finished(const report::Finished& finished) {
  finished_ = true;  // a failure below is reported by this event; the destructor must not rewrite
  if (run_) close_suite(finished.status, 0, nullptr);
  write_document(finished.status, finished.duration_ms);
}

void JunitReporter::on_run_started(const report::RunStarted& run) {
  if (run_) close_suite("interrupted", 0, nullptr);
  if (!any_run_) {
    experiment_name_ = run.experiment_name;
    any_run_ = true;
  }
  context_.classname = run.experiment_name.empty() ? std::string("krino") : run.experiment_name;
  context_.runs = run.runs;
  run_ = run;
  suite_ = Counts{};
  cases_.clear();
}

void JunitReporter::on_item(const report::ItemFinished& item) {
  if (!run_) return;  // an item outside a run has no suite to go to
  scratch_.clear();
  suite_.add(append_testcase(scratch_, item, context_));
  cases_.write(scratch_);
}

void JunitReporter::close_suite(const std::string& status, double duration_ms, const report::Summary* summary) {
  const report::RunStarted& run = *run_;
  const uint64_t items = suite_.tests;
  if (status != "completed") {
    scratch_.clear();
    const bool cancelled = status == "cancelled";
    const std::string message =
        cancelled ? "the run was cancelled after " + std::to_string(items) + " items; the items after them did not run"
                  : "krino stopped before the run finished (see its error output); " + std::to_string(items) +
                        " items were reported";
    append_error_case(scratch_, context_.classname, cancelled ? "krino: run cancelled" : "krino: run interrupted",
                      cancelled ? "CANCELLED" : "ABORTED", message);
    suite_.add(report::ItemStatus::errored);
    cases_.write(scratch_);
  }

  std::string head = "  <testsuite";
  std::string name = context_.classname;
  if (run.runs > 1) name += " [run " + std::to_string(run.run_index + 1) + "/" + std::to_string(run.runs) + "]";
  report::append_attribute(head, "name", name);
  report::append_attribute(head, "tests", std::to_string(suite_.tests));
  report::append_attribute(head, "failures", std::to_string(suite_.failures));
  report::append_attribute(head, "errors", std::to_string(suite_.errors));
  report::append_attribute(head, "skipped", std::to_string(suite_.skipped));
  report::append_attribute(head, "time", seconds(duration_ms));
  if (!run.timestamp.empty()) report::append_attribute(head, "timestamp", run.timestamp);
  if (const std::string host = host_name(); !host.empty()) report::append_attribute(head, "hostname", host);
  report::append_attribute(head, "id", std::to_string(suites_written_));
  head += ">\n    <properties>\n";
  append_property(head, "experiment.name", run.experiment_name);
  if (!run.experiment_description.empty()) append_property(head, "experiment.description", run.experiment_description);
  for (const auto& entry : run.experiment_metadata)
    append_property(head, "experiment.metadata." + std::string(entry.key()), krino::json::string_form(entry.value()));
  if (!run.dataset.uri.empty()) append_property(head, "dataset.uri", run.dataset.uri);
  if (!run.dataset.name.empty()) append_property(head, "dataset.name", run.dataset.name);
  append_property(head, "run", std::to_string(run.run_index + 1) + "/" + std::to_string(run.runs));
  append_property(head, "status", status);
  if (run.parallelism) append_property(head, "parallelism", std::to_string(*run.parallelism));
  for (const auto& evaluator : run.evaluators) {
    const std::string prefix = "evaluator." + evaluator.name + ".";
    if (!evaluator.component.empty()) append_property(head, prefix + "component", evaluator.component);
    if (evaluator.threshold) append_property(head, prefix + "threshold", number_text(*evaluator.threshold));
  }
  if (summary != nullptr) {
    append_property(head, "passRate", number_text(summary->pass_rate));
    for (const auto& e : summary->evaluators) {
      const std::string prefix = "evaluator." + e.name + ".";
      if (e.average_score) append_property(head, prefix + "averageScore", number_text(*e.average_score));
      if (e.std_dev) append_property(head, prefix + "stdDev", number_text(*e.std_dev));
      if (e.pass_rate) append_property(head, prefix + "passRate", number_text(*e.pass_rate));
      if (e.null_scores && *e.null_scores > 0) append_property(head, prefix + "nullScores", std::to_string(*e.null_scores));
    }
    if (const auto& judge = summary->judge) {
      append_property(head, "judge.calls", report::count(judge->calls));
      if (judge->tokens_in) append_property(head, "judge.tokensIn", report::count(*judge->tokens_in));
      if (judge->tokens_out) append_property(head, "judge.tokensOut", report::count(*judge->tokens_out));
      if (judge->cost_usd) append_property(head, "judge.costUsd", number_text(*judge->cost_usd));
      if (!judge->cost_coverage.empty()) append_property(head, "judge.costCoverage", judge->cost_coverage);
    }
  }
  head += "    </properties>\n";
  suites_.write(head);
  suites_.write(cases_);
  suites_.write("  </testsuite>\n");
  cases_.clear();
  total_.add(suite_);
  ++suites_written_;
  run_.reset();
}

void JunitReporter::write_document(const std::string& status, double duration_ms) {
  report::ReportFile file(target_);
  std::string head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  head += "<!-- krino JUnit report; experiment status: ";
  head += status == "completed" || status == "cancelled" ? status : std::string("interrupted");
  head += " -->\n<testsuites";
  report::append_attribute(head, "name", experiment_name_.empty() ? std::string("krino") : experiment_name_);
  report::append_attribute(head, "tests", std::to_string(total_.tests));
  report::append_attribute(head, "failures", std::to_string(total_.failures));
  report::append_attribute(head, "errors", std::to_string(total_.errors));
  report::append_attribute(head, "time", seconds(duration_ms));
  head += ">\n";
  file.write(head);
  file.write(suites_);
  file.write("</testsuites>\n");
  file.commit();
}

void JunitReporter::finish_interrupted() {
  if (run_) {
    close_suite("interrupted", 0, nullptr);
  } else {
    // No run in progress: the experiment stopped before a run started (or between two runs).
    std::string suite = "  <testsuite";
    const std::string classname = experiment_name_.empty() ? std::string("krino") : experiment_name_;
    report::append_attribute(suite, "name", classname + " (interrupted)");
    report::append_attribute(suite, "tests", "1");
    report::append_attribute(suite, "failures", "0");
    report::append_attribute(suite, "errors", "1");
    report::append_attribute(suite, "skipped", "0");
    report::append_attribute(suite, "time", "0.000");
    report::append_attribute(suite, "id", std::to_string(suites_written_));
    suite += ">\n";
    append_error_case(suite, classname, "krino: experiment interrupted", "ABORTED",
                      any_run_ ? "krino stopped between two runs (see its error output)"
                               : "krino stopped before the first run started (see its error output)");
    suite += "  </testsuite>\n";
    suites_.write(suite);
    Counts counts;
    counts.add(report::ItemStatus::errored);
    total_.add(counts);
    ++suites_written_;
  }
  finished_ = true;
  write_document("interrupted", 0);
}

}  // namespace krino::junit
