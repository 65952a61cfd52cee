#include "summary_printer.hpp"

#include "format.hpp"
#include "item_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace krino::console {
namespace {

bool is_cancelled(const std::string& status) { return status == "cancelled"; }

// "completed in 1.52 s", "CANCELLED after 0.80 s", or another status as given.
std::string status_phrase(const std::string& status, double duration_ms, const Style& style) {
  if (status == "completed") return style.green("completed") + " in " + duration(duration_ms);
  if (is_cancelled(status)) return style.bold(style.yellow("CANCELLED")) + " after " + duration(duration_ms);
  return style.yellow(status.empty() ? std::string("finished") : status) + " after " + duration(duration_ms);
}

// "2 passed, 2 failed, 1 error", where "failed" leaves out the errored items.
std::string tally(const Summary& s, const Style& style) {
  const double failed = std::max(0.0, s.failed - s.errors);
  const std::string passed_text = count(s.passed) + " passed";
  const std::string failed_text = count(failed) + " failed";
  const std::string errors_text = counted(s.errors, "error", "errors");
  return (s.passed > 0 ? style.green(passed_text) : passed_text) + ", " +
         (failed > 0 ? style.red(failed_text) : failed_text) + ", " +
         (s.errors > 0 ? style.yellow(errors_text) : errors_text);
}

std::string rate(const Summary& s, const Style& style) {
  const std::string text = percent(s.pass_rate);
  return s.pass_rate >= 1.0 ? style.green(text) : style.red(text);
}

// A text table: the first column left-aligned, the others right-aligned, two spaces apart.
// Cells are plain text; `paint` may colour a cell after its width is measured.
class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back(Row{std::move(header), {}}); }
  void add(std::vector<std::string> cells, std::vector<std::string> painted) {
    rows_.push_back(Row{std::move(cells), std::move(painted)});
  }
  std::string render() const {
    std::vector<std::size_t> widths(rows_.front().cells.size(), 0);
    for (const auto& row : rows_)
      for (std::size_t c = 0; c < row.cells.size() && c < widths.size(); ++c)
        widths[c] = std::max(widths[c], display_width(row.cells[c]));
    std::string out;
    for (const auto& row : rows_) {
      std::string line;
      for (std::size_t c = 0; c < widths.size(); ++c) {
        const std::string& cell = c < row.cells.size() ? row.cells[c] : empty_;
        const std::string& shown = c < row.painted.size() && !row.painted[c].empty() ? row.painted[c] : cell;
        const std::size_t pad = widths[c] - display_width(cell);
        if (c == 0) {
          line += shown;
          line.append(pad, ' ');
        } else {
          line += "  ";
          line.append(pad, ' ');
          line += shown;
        }
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line;
      out += '\n';
    }
    return out;
  }

 private:
  struct Row {
    std::vector<std::string> cells;
    std::vector<std::string> painted;
  };
  std::vector<Row> rows_;
  std::string empty_;
};

const EvaluatorSummary* find_stats(const std::vector<EvaluatorSummary>& list, const std::string& name) {
  auto it = std::find_if(list.begin(), list.end(), [&](const EvaluatorSummary& e) { return e.name == name; });
  return it == list.end() ? nullptr : &*it;
}

std::string optional_fixed(const std::optional<double>& value, int decimals) {
  return value ? fixed(*value, decimals) : std::string("-");
}

std::string evaluator_table(const ExperimentReport& report, bool several_runs, const Style& style) {
  // The experiment summary has the aggregates; without one (an older host), the last run's.
  const bool from_last_run = report.summary.summary.evaluators.empty() && !report.runs.empty();
  const std::vector<EvaluatorSummary>& rows =
      from_last_run ? report.runs.back().summary.evaluators : report.summary.summary.evaluators;
  if (rows.empty()) return "";

  uint64_t any_nulls = 0;
  std::vector<uint64_t> nulls;
  for (const auto& row : rows) {
    uint64_t sum = 0;
    for (const auto& run : report.runs)
      if (const auto* stats = find_stats(run.summary.evaluators, row.name)) sum += stats->null_scores.value_or(0);
    nulls.push_back(sum);
    any_nulls += sum;
  }

  std::vector<std::string> header{"Evaluator", "Mean", "Std dev"};
  if (several_runs) header.emplace_back("Run std dev");
  header.emplace_back("Pass rate");
  if (any_nulls > 0) header.emplace_back("Null scores");
  Table table(header);

  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    // Item-level spread: the run summary's stdDev for one run, the pooled itemStdDev over several.
    // Run-to-run spread: the experiment summary's stdDev.
    std::optional<double> item_std_dev = row.item_std_dev;
    std::optional<double> run_std_dev = row.std_dev;
    if (from_last_run) {
      item_std_dev = row.std_dev;
      run_std_dev.reset();
    } else if (report.runs.size() == 1) {
      const auto* stats = find_stats(report.runs.front().summary.evaluators, row.name);
      if (stats != nullptr && stats->std_dev) item_std_dev = stats->std_dev;
    }

    std::vector<std::string> cells{single_line(row.name, 60), optional_fixed(row.average_score, 3),
                                   optional_fixed(item_std_dev, 3)};
    if (several_runs) cells.push_back(optional_fixed(run_std_dev, 3));
    const std::string pass_rate = row.pass_rate ? percent(*row.pass_rate) : std::string("-");
    cells.push_back(pass_rate);
    if (any_nulls > 0) cells.push_back(std::to_string(nulls[i]));

    std::vector<std::string> painted(cells.size());
    if (row.pass_rate) {
      const std::size_t column = several_runs ? 4 : 3;
      painted[column] = *row.pass_rate >= 1.0 ? style.green(pass_rate) : style.red(pass_rate);
    }
    if (any_nulls > 0 && nulls[i] > 0) painted.back() = style.yellow(cells.back());
    table.add(std::move(cells), std::move(painted));
  }
  return table.render();
}

std::string item_section(const char* title, Verdict verdict, const FailureLog& log, std::size_t max_shown,
                         bool several_runs, const Style& style) {
  if (log.total() == 0) return "";
  std::string out = "\n";
  out += title;
  out += " (" + std::to_string(log.total()) + (several_runs ? ", over all runs" : "") + ")";
  if (log.kept().empty()) {
    out += ": not listed (max_failures_shown is " + std::to_string(max_shown) + ")\n";
    return out;
  }
  out += ":\n";
  for (const auto& description : log.kept()) out += "  " + tagged_line(verdict, description, style) + "\n";
  if (log.omitted() > 0) out += "  ... and " + std::to_string(log.omitted()) + " more\n";
  return out;
}

// "Judge: 30 calls (6 cached, 2 retries, 1 failed), 12,400 tokens in / 900 out, $0.0123 (5/6 items priced)"
std::string judge_line(const JudgeTotals& j) {
  auto whole = [](double v) { return std::to_string(static_cast<long long>(v + 0.5)); };
  std::string line = "Judge: " + whole(static_cast<double>(j.calls)) + (j.calls == 1 ? " call" : " calls");
  std::vector<std::string> notes;
  if (j.cached_calls > 0) notes.push_back(whole(static_cast<double>(j.cached_calls)) + " cached");
  if (j.retries > 0) notes.push_back(whole(static_cast<double>(j.retries)) + (j.retries == 1 ? " retry" : " retries"));
  if (j.failed_calls > 0) notes.push_back(whole(static_cast<double>(j.failed_calls)) + " failed");
  if (!notes.empty()) {
    line += " (";
    for (std::size_t i = 0; i < notes.size(); ++i) line += (i > 0 ? ", " : "") + notes[i];
    line += ")";
  }
  if (j.tokens_in || j.tokens_out)
    line += ", " + whole(static_cast<double>(j.tokens_in.value_or(0))) + " tokens in / " +
            whole(static_cast<double>(j.tokens_out.value_or(0))) + " out";
  if (j.cost_usd) {
    char cost[32];
    std::snprintf(cost, sizeof(cost), "$%.4f", *j.cost_usd);
    line += std::string(", ") + cost;
    if (!j.cost_coverage.empty()) line += " (" + j.cost_coverage + ")";
  }
  return line + "\n";
}

}  // namespace

std::string render_run_line(const Finished& run, uint32_t runs, const Style& style) {
  const Summary& s = run.summary;
  const uint32_t run_index = run.run_index.value_or(0);
  const uint32_t shown_runs = std::max(runs, run_index + 1);
  std::string line = "run " + std::to_string(run_index + 1) + "/" + std::to_string(shown_runs) + " " +
                     status_phrase(run.status, run.duration_ms, style) + ": " + counted(s.total, "item", "items") + ", " +
                     tally(s, style);
  if (s.total > 0) line += " (" + rate(s, style) + ")";
  return line;
}

std::string render_summary(const ExperimentReport& report, const Style& style) {
  const Finished& finished = report.summary;
  const Summary& s = finished.summary;
  const auto run_count = static_cast<uint32_t>(
      std::max<double>(std::llround(s.run_count), static_cast<double>(report.runs.size())));
  const bool several_runs = run_count > 1;

  std::string out = "Experiment";
  if (!report.name.empty()) out += " \"" + single_line(report.name, 120) + "\"";
  out += " " + status_phrase(finished.status, finished.duration_ms, style);
  if (finished.cancelled()) {
    out += " (during run " + std::to_string(std::max<uint32_t>(run_count, 1)) + " of " +
           std::to_string(std::max(report.runs_planned, run_count)) + ")\n";
    out += style.yellow("Only the items that finished before the cancellation are counted.") + "\n";
  } else if (several_runs) {
    out += " (" + std::to_string(run_count) + " runs, " + counted(s.total, "item", "items") + " each)\n";
  } else {
    out += " (1 run, " + counted(s.total, "item", "items") + ")\n";
  }

  if (s.total <= 0) {
    out += "Pass rate: n/a (no items)\n";
  } else if (several_runs) {
    out += "Pass rate: " + rate(s, style) + ", mean of " + std::to_string(run_count) + " runs";
    if (!report.runs.empty()) {
      out += " (";
      for (std::size_t i = 0; i < report.runs.size(); ++i) {
        if (i > 0) out += ", ";
        out += percent(report.runs[i].summary.pass_rate);
      }
      out += ")";
    }
    out += "\nMean per run: " + tally(s, style) + " (" + counted(s.total, "item", "items") + ")\n";
  } else {
    out += "Pass rate: " + rate(s, style) + " (" + counted(s.total, "item", "items") + ": " + tally(s, style) + ")\n";
  }

  if (s.judge) out += judge_line(*s.judge);

  const std::string table = evaluator_table(report, several_runs, style);
  if (!table.empty()) out += "\n" + table;

  if (report.failed != nullptr)
    out += item_section("Failed items", Verdict::fail, *report.failed, report.max_shown, several_runs, style);
  if (report.errored != nullptr)
    out += item_section("Errored items", Verdict::error, *report.errored, report.max_shown, several_runs, style);
  return out;
}

}  // namespace krino::console
