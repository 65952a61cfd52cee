#include "csv_reporter.hpp"

#include "csv_field.hpp"

#include <krino/json_text.hpp>
#include <krino/report/dispatch.hpp>
#include <krino/report/text.hpp>

#include <fstream>

namespace krino::csv {
namespace {

// Columns before and after the evaluators' (docs/plugins/csv.md).
constexpr const char* kLeadingColumns[] = {"run", "index", "id", "success", "error", "input", "expected_output",
                                           "actual_output"};
constexpr const char* kTrailingColumns[] = {"duration_ms", "tokens_in", "tokens_out", "cost_usd", "latency_ms",
                                            "judge_calls", "judge_cost_usd", "location", "run_status"};

void append_number(std::string& out, const std::optional<double>& value) {
  if (value) krino::json::append_double(out, *value);
}

// Token and call counts are whole numbers; they are written without a decimal point.
void append_count(std::string& out, const std::optional<double>& value) {
  if (value) out += report::count(*value);
}

std::string error_text(const report::ItemError& e) {
  std::string text = e.stage;
  if (!e.component.empty() && e.stage != "dataset") text += " " + e.component;
  text += ": " + (e.message.empty() ? e.code : e.message);
  if (!e.code.empty()) text += " [" + e.code + "]";
  return text;
}

}  // namespace

std::string CsvReporter::header(const std::vector<std::string>& evaluators) {
  std::string out;
  for (const char* column : kLeadingColumns) {
    if (!out.empty()) out += ',';
    out += column;
  }
  for (const auto& stem : unique_slugs(evaluators)) {
    for (const char* suffix : {"_score", "_pass", "_reason"}) {
      out += ',';
      append_field(out, stem + suffix);
    }
  }
  for (const char* column : kTrailingColumns) {
    out += ',';
    out += column;
  }
  return out;
}

CsvReporter::CsvReporter(const CsvOptions& options)
    : options_(options),
      target_(options.path, options.append ? report::ReportTarget::Mode::append : report::ReportTarget::Mode::replace),
      run_rows_(target_.spool_directory()),
      rows_(target_.spool_directory()) {}

CsvReporter::~CsvReporter() {
  if (finished_) return;
  report::finish_from_destructor("csv", [this] {
    if (run_open_) close_run("interrupted");
    if (evaluators_) write_file();
  });
}

void CsvReporter::on_run_finished(const report::Finished& finished) {
  if (run_open_) close_run(finished.status);
}

void CsvReporter::on_experiment_finished(const report::Finished& finished) {
  finished_ = true;  // a failure below is reported by this event; the destructor must not rewrite
  if (run_open_) close_run(finished.status);
  if (evaluators_) write_file();
}

void CsvReporter::on_run_started(const report::RunStarted& run) {
  if (run_open_) close_run("interrupted");
  if (!evaluators_) {
    std::vector<std::string> names;
    for (const auto& e : run.evaluators) names.push_back(e.name);
    if (options_.append && !target_.is_stdout()) check_existing_header(header(names));
    evaluators_ = std::move(names);
  }
  run_open_ = true;
}

void CsvReporter::on_item(const report::ItemFinished& item) {
  if (!run_open_ || !evaluators_) return;
  const std::size_t max = options_.max_text_chars;
  auto text = [&](const std::string& value) {
    append_text_field(row_, max > 0 ? report::excerpt(value, max) : value, options_.formula_escape);
  };
  row_.clear();
  row_ += std::to_string(item.run_index + 1);
  row_ += ',';
  row_ += std::to_string(item.index);
  row_ += ',';
  if (const auto id = item.id_text()) text(*id);
  row_ += ',';
  row_ += item.success && !item.error ? "true" : "false";
  row_ += ',';
  if (item.error) text(error_text(*item.error));
  row_ += ',';
  text(report::section_text(item.inputs, "input"));
  row_ += ',';
  text(report::section_text(item.expected_outputs, "output"));
  row_ += ',';
  text(report::section_text(item.actual_outputs, "output"));
  for (const auto& name : *evaluators_) {
    const report::Result* result = nullptr;
    for (const auto& r : item.results) {
      if (r.name == name) {
        result = &r;
        break;
      }
    }
    row_ += ',';
    if (result != nullptr) append_number(row_, result->score);
    row_ += ',';
    if (result != nullptr) row_ += result->success ? "true" : "false";
    row_ += ',';
    if (result != nullptr) text(result->reason);
  }
  row_ += ',';
  append_number(row_, item.duration_ms);
  const report::CallMetrics metrics = item.metrics.value_or(report::CallMetrics{});
  row_ += ',';
  append_count(row_, metrics.tokens_in);
  row_ += ',';
  append_count(row_, metrics.tokens_out);
  row_ += ',';
  append_number(row_, metrics.cost_usd);
  row_ += ',';
  append_number(row_, metrics.latency_ms);
  row_ += ',';
  if (item.judge) append_count(row_, item.judge->calls);
  row_ += ',';
  if (item.judge) append_number(row_, item.judge->cost_usd);
  row_ += ',';
  if (item.location) text(*item.location);
  row_ += ',';  // run_status follows when the run ends
  run_rows_.add(row_);
}

void CsvReporter::close_run(const std::string& status) {
  std::string suffix;
  append_field(suffix, status);
  suffix += options_.line_ending;
  run_rows_.drain(suffix, [this](std::string_view piece) { rows_.write(piece); });
  run_open_ = false;
}

void CsvReporter::write_file() {
  finished_ = true;
  report::ReportFile file(target_);
  bool header_needed = true;
  if (options_.append && !target_.is_stdout()) {
    std::error_code ec;
    header_needed = std::filesystem::file_size(target_.path(), ec) == 0 || ec;
  }
  if (header_needed) {
    if (options_.bom) file.write("\xEF\xBB\xBF");
    file.write(header(*evaluators_) + options_.line_ending);
  }
  file.write(rows_);
  file.commit();
}

void CsvReporter::check_existing_header(const std::string& expected) const {
  std::ifstream in(target_.path(), std::ios::binary);
  std::string first;
  if (!in || !std::getline(in, first)) return;  // empty: the header will be written
  if (!first.empty() && first.back() == '\r') first.pop_back();
  if (first.rfind("\xEF\xBB\xBF", 0) == 0) first.erase(0, 3);
  if (first != expected)
    throw krino::Error(KRINO_FAILED_PRECONDITION,
                       "cannot append to '" + target_.path() + "': its columns differ from this experiment's (" +
                           report::excerpt(first, 200) + " versus " + report::excerpt(expected, 200) + ")");
}

}  // namespace krino::csv
