#include "summary_renderer.hpp"

#include "markdown_text.hpp"

#include <krino/report/text.hpp>

namespace krino::markdown {
namespace {

using report::count;
using report::fixed;
using report::percent;

std::string run_tag(uint32_t run_index, uint32_t runs) {
  return runs > 1 ? " [run " + std::to_string(run_index + 1) + "/" + std::to_string(runs) + "]" : std::string();
}

std::string plural(double n, const char* one, const char* many) { return count(n) + " " + (n == 1 ? one : many); }

std::string optional_number(const std::optional<double>& value, int decimals) {
  return value ? fixed(*value, decimals) : std::string("-");
}

std::string check_text(const report::Result& r) {
  std::string text = "**" + inline_text(r.name) + "** ";
  if (r.score) {
    text += fixed(*r.score, 2);
    if (r.threshold) text += " (threshold " + fixed(*r.threshold, 2) + ")";
  } else {
    text += "no score";
  }
  if (!r.reason.empty()) text += ": " + inline_text(r.reason);
  return text;
}

void render_counts_line(std::string& out, const ExperimentRecord& record, const report::Summary& s, bool several) {
  if (!several) {
    if (s.total == 0) {
      out += "**Pass rate: n/a** (no items)\n\n";
      return;
    }
    out += "**Pass rate: " + percent(s.pass_rate) + "** (" + plural(s.total, "item", "items") + ": " + count(s.passed) +
           " passed, " + count(s.failed - s.errors) + " failed, " + plural(s.errors, "error", "errors") + ")\n\n";
    return;
  }
  const auto& runs = record.progress().runs();
  out += "**Pass rate: " + percent(s.pass_rate) + "**, mean of " + std::to_string(runs.size()) + " runs (";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i > 0) out += ", ";
    out += percent(runs[i].summary.pass_rate);
  }
  out += ")<br>\nMean per run: " + count(s.passed) + " passed, " + count(s.failed - s.errors) + " failed, " +
         plural(s.errors, "error", "errors") + " (" + plural(s.total, "item", "items") + ")\n\n";
}

void render_evaluator_table(std::string& out, const ExperimentRecord& record, const report::Summary& s, bool several) {
  if (s.evaluators.empty()) return;
  // Null scores are summed over runs from the run summaries (the experiment's has none).
  auto null_scores = [&](const std::string& name) { return record.progress().null_scores(name); };
  bool any_null = false;
  for (const auto& e : s.evaluators) any_null = any_null || null_scores(e.name) > 0;

  out += several ? "| Evaluator | Mean | Std dev | Run std dev | Pass rate |" : "| Evaluator | Mean | Std dev | Pass rate |";
  out += any_null ? " Null scores |\n" : "\n";
  out += several ? "|:--|--:|--:|--:|--:|" : "|:--|--:|--:|--:|";
  out += any_null ? "--:|\n" : "\n";
  for (const auto& e : s.evaluators) {
    out += "| " + inline_text(e.name) + " | " + optional_number(e.average_score, 3) + " | ";
    // The spread of item scores: pooled over runs in the experiment summary (where stdDev is the
    // run-to-run spread), the run's own in a run summary.
    out += optional_number(e.item_std_dev ? e.item_std_dev : e.std_dev, 3) + " | ";
    if (several) out += optional_number(e.std_dev, 3) + " | ";
    out += (e.pass_rate ? percent(*e.pass_rate) : std::string("-")) + " |";
    if (any_null) out += " " + std::to_string(null_scores(e.name)) + " |";
    out += "\n";
  }
  out += "\n";
}

void render_failed(std::string& out, const ExperimentRecord& record, uint32_t runs) {
  if (record.failed_count() == 0) return;
  out += "### Failed items (" + std::to_string(record.failed_count()) + (runs > 1 ? ", over all runs" : "") + ")\n\n";
  if (!record.failed().empty()) {
    out += "| Item | Input | Expected | Actual | Failing checks |\n|:--|:--|:--|:--|:--|\n";
    for (const auto& item : record.failed()) {
      out += "| " + inline_text(item.label + run_tag(item.run_index, runs)) + " | " + inline_text(item.input) + " | " +
             inline_text(item.expected) + " | " + inline_text(item.actual) + " | ";
      if (item.failed_checks.empty()) out += "the item did not pass";
      for (std::size_t i = 0; i < item.failed_checks.size(); ++i) {
        if (i > 0) out += "<br>";
        out += check_text(item.failed_checks[i]);
      }
      out += " |\n";
    }
    out += "\n";
  }
  if (record.failed_count() > record.failed().size())
    out += "… and " + std::to_string(record.failed_count() - record.failed().size()) + " more failed items.\n\n";
}

void render_errored(std::string& out, const ExperimentRecord& record, uint32_t runs) {
  if (record.errored_count() == 0) return;
  out += "### Errored items (" + std::to_string(record.errored_count()) + (runs > 1 ? ", over all runs" : "") + ")\n\n";
  if (!record.errored().empty()) {
    out += "| Item | Stage | Code | Message |\n|:--|:--|:--|:--|\n";
    for (const auto& item : record.errored()) {
      const report::ItemError& e = *item.error;
      std::string stage = e.stage;
      if (!e.component.empty() && e.stage != "dataset") stage += " " + e.component;
      out += "| " + inline_text(item.label + run_tag(item.run_index, runs)) + " | " + inline_text(stage) + " | " +
             inline_text(e.code) + " | " + inline_text(e.message) + " |\n";
    }
    out += "\n";
  }
  if (record.errored_count() > record.errored().size())
    out += "… and " + std::to_string(record.errored_count() - record.errored().size()) + " more errored items.\n\n";
}

}  // namespace

std::string render_summary(const ExperimentRecord& record, const std::string& status) {
  const report::ExperimentProgress& progress = record.progress();
  std::string out;
  const uint32_t runs = progress.runs_planned();
  const std::string name =
      progress.experiment_name().empty() ? std::string("(unnamed)") : inline_text(progress.experiment_name());
  const std::optional<report::Summary> summary = progress.summary();
  const bool several = progress.several_runs();

  const bool all_passed = summary && summary->total > 0 && summary->passed == summary->total && summary->errors == 0;
  const char* icon = status != "completed" ? "⚠️" : all_passed ? "✅" : "❌";
  out += std::string("## ") + icon + " Experiment: " + name + "\n\n";
  if (const std::string note = report::incomplete_note(progress, status); !note.empty())
    out += "> " + inline_text(note) + "\n\n";

  if (summary) render_counts_line(out, record, *summary, several);

  if (const auto& first = progress.first_run()) {
    std::string meta;
    if (!first->dataset.uri.empty()) meta += "Dataset: " + inline_text(first->dataset.uri);
    if (const auto& experiment = progress.experiment()) {
      if (!meta.empty()) meta += " · ";
      meta += std::to_string(progress.runs().size()) + (progress.runs().size() == 1 ? " run" : " runs") + " in " +
              report::duration(experiment->duration_ms);
    }
    if (!first->timestamp.empty()) {
      if (!meta.empty()) meta += " · ";
      meta += "started " + inline_text(first->timestamp);
    }
    if (!meta.empty()) out += meta + "\n\n";
    if (!first->experiment_description.empty())
      out += "**Description:** " + inline_text(first->experiment_description) + "\n\n";
  }

  if (summary) render_evaluator_table(out, record, *summary, several);

  if (summary && summary->judge) out += "**Judge:** " + inline_text(report::describe_judge(*summary->judge)) + "\n\n";
  if (const std::string task = progress.task_metrics().describe(); !task.empty())
    out += "**Task:** " + inline_text(task) + "\n\n";

  render_errored(out, record, runs);
  render_failed(out, record, runs);
  return out;
}

}  // namespace krino::markdown
