// The krino.csv reporter: one RFC 4180 row per item per run (docs/plugins/csv.md).
//
// Rows wait in a spool file until their run ends (the last column is the run's status), then in a
// second one until the experiment ends; the file is written then, under a temporary name renamed
// over the target (or appended to it). Memory holds one row at a time.
#ifndef KRINO_CSV_CSV_REPORTER_HPP
#define KRINO_CSV_CSV_REPORTER_HPP

#include "csv_options.hpp"
#include "row_spool.hpp"

#include <krino/plugin.hpp>
#include <krino/report/dispatch.hpp>
#include <krino/report/events.hpp>
#include <krino/report/output.hpp>

#include <optional>
#include <string>
#include <vector>

namespace krino::csv {

class CsvReporter : public report::DocumentReporter<CsvReporter> {
 public:
  // Checks the path at once, so a bad one fails the experiment before it starts.
  explicit CsvReporter(const krino::Config& config) : CsvReporter(CsvOptions::from_config(config)) {}
  explicit CsvReporter(const CsvOptions& options);
  // An experiment that never finished (krino stopped on an error) still gets its rows, marked.
  ~CsvReporter();

  // The events, typed (DocumentReporter hands them out).
  void on_run_started(const report::RunStarted& run);
  void on_item(const report::ItemFinished& item);
  void on_run_finished(const report::Finished& finished);
  void on_experiment_finished(const report::Finished& finished);

  // The header row for evaluators named `evaluators` (without the record separator).
  static std::string header(const std::vector<std::string>& evaluators);

 private:
  void close_run(const std::string& status);
  void write_file();
  void check_existing_header(const std::string& header) const;

  CsvOptions options_;
  report::ReportTarget target_;
  RowSpool run_rows_;   // the run in progress
  report::Spool rows_;  // finished runs' rows, complete
  std::optional<std::vector<std::string>> evaluators_;  // the columns, fixed by the first run
  bool run_open_ = false;
  bool finished_ = false;
  std::string row_;
};

}  // namespace krino::csv

#endif  // KRINO_CSV_CSV_REPORTER_HPP
