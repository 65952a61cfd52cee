// The krino.junit reporter: JUnit XML for CI systems (docs/plugins/junit.md).
//
// Memory stays flat whatever the run's size: test cases go to a spool file as items arrive, and
// each run's <testsuite> (whose counts are known only at its end) is assembled from it when the
// run finishes. The document is written when the experiment finishes, under a temporary name that
// is renamed over the target.
#ifndef KRINO_JUNIT_JUNIT_REPORTER_HPP
#define KRINO_JUNIT_JUNIT_REPORTER_HPP

#include "junit_options.hpp"
#include "junit_testcase.hpp"

#include <krino/plugin.hpp>
#include <krino/report/dispatch.hpp>
#include <krino/report/events.hpp>
#include <krino/report/output.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace krino::junit {

class JunitReporter : public report::DocumentReporter<JunitReporter> {
 public:
  // Checks the path at once, so a bad one fails the experiment before it starts.
  explicit JunitReporter(const krino::Config& config) : JunitReporter(JunitOptions::from_config(config)) {}
  explicit JunitReporter(const JunitOptions& options);
  // An experiment that never finished (krino stopped on an error) still gets its file, saying so.
  ~JunitReporter();

  // The events, typed (DocumentReporter hands them out).
  void on_run_started(const report::RunStarted& run);
  void on_item(const report::ItemFinished& item);
  void on_run_finished(const report::Finished& finished);
  void on_experiment_finished(const report::Finished& finished);

 private:
  struct Counts {
    uint64_t tests = 0, failures = 0, errors = 0, skipped = 0;
    void add(report::ItemStatus status);
    void add(const Counts& other);
  };

  // Closes the open suite with `status` ("completed", "cancelled", "interrupted").
  void close_suite(const std::string& status, double duration_ms, const report::Summary* summary);
  void write_document(const std::string& status, double duration_ms);
  void finish_interrupted();

  JunitOptions options_;
  report::ReportTarget target_;
  report::Spool cases_;   // the open suite's test cases
  report::Spool suites_;  // every closed suite
  std::optional<report::RunStarted> run_;  // the open suite's run
  CaseContext context_;
  std::string experiment_name_;
  bool any_run_ = false;
  Counts suite_;
  Counts total_;
  uint32_t suites_written_ = 0;
  bool finished_ = false;
  std::string scratch_;
};

}  // namespace krino::junit

#endif  // KRINO_JUNIT_JUNIT_REPORTER_HPP
