#include "html_page.hpp"

#include "item_data.hpp"
#include "page_assets.hpp"

#include <krino/json_text.hpp>
#include <krino/report/markup.hpp>
#include <krino/report/metrics_totals.hpp>
#include <krino/report/text.hpp>

namespace krino::html {
namespace {

using report::markup_text;

std::string optional_number(const std::optional<double>& value, int decimals) {
  return value ? report::fixed(*value, decimals) : std::string("-");
}

// A table cell with the value to sort by.
std::string number_cell(const std::optional<double>& value, const std::string& text, const std::string& extra_class = "") {
  std::string cell = "<td class=\"number" + extra_class + "\"";
  if (value) {
    std::string sort_value;
    krino::json::append_double(sort_value, *value);
    report::append_attribute(cell, "data-value", sort_value);
  }
  return cell + ">" + markup_text(text) + "</td>";
}

void card(std::string& out, const std::string& label, const std::string& value, const std::string& sub,
          const std::string& value_class = "") {
  out += "<div class=\"card\"><div class=\"label\">" + markup_text(label) + "</div><div class=\"value" +
         (value_class.empty() ? "" : " " + value_class) + "\">" + markup_text(value) + "</div>";
  if (!sub.empty()) out += "<div class=\"sub\">" + markup_text(sub) + "</div>";
  out += "</div>";
}

void summary_cards(std::string& out, const PageContent& content) {
  const report::ExperimentProgress& progress = *content.progress;
  const std::optional<report::Summary> summary = progress.summary();
  out += "<section id=\"summary\" class=\"cards\">";
  if (summary && summary->total > 0) {
    std::string sub;
    if (progress.several_runs()) {
      sub = "mean of " + std::to_string(progress.runs().size()) + " runs: ";
      for (std::size_t i = 0; i < progress.runs().size(); ++i)
        sub += (i > 0 ? ", " : "") + report::percent(progress.runs()[i].summary.pass_rate);
    }
    const bool all = summary->passed == summary->total && summary->errors == 0;
    card(out, "Pass rate", report::percent(summary->pass_rate), sub, all ? "pass" : "fail");
    const std::string per_run = progress.several_runs() ? "mean per run" : "";
    card(out, "Items", report::count(summary->total), progress.several_runs() ? "per run" : "");
    card(out, "Passed", report::count(summary->passed), per_run, "pass");
    card(out, "Failed", report::count(summary->failed - summary->errors), per_run,
         summary->failed - summary->errors > 0 ? "fail" : "");
    card(out, "Errors", report::count(summary->errors), per_run, summary->errors > 0 ? "error" : "");
  } else {
    card(out, "Pass rate", "n/a", "no items");
  }
  if (const auto& experiment = progress.experiment())
    card(out, "Duration", report::duration(experiment->duration_ms),
         std::to_string(progress.runs().size()) + (progress.runs().size() == 1 ? " run" : " runs"));
  if (summary && summary->judge && summary->judge->cost_usd)
    card(out, "Judge cost", "$" + report::fixed(*summary->judge->cost_usd, 4),
         report::count(summary->judge->calls) + " calls" +
             (summary->judge->cost_coverage.empty() ? "" : ", " + summary->judge->cost_coverage));
  if (const auto cost = progress.task_metrics().cost_usd())
    card(out, "Task cost", "$" + report::fixed(*cost, 4), progress.task_metrics().coverage());
  out += "</section>";
}

void evaluator_table(std::string& out, const PageContent& content) {
  const report::ExperimentProgress& progress = *content.progress;
  const std::optional<report::Summary> summary = progress.summary();
  if (!summary || summary->evaluators.empty()) return;
  const bool several = progress.several_runs();
  out += "<section id=\"evaluators\"><h2>Evaluators</h2><table class=\"stats sortable\"><thead><tr>"
         "<th>Evaluator</th><th class=\"number\">Threshold</th><th class=\"number\">Mean</th>"
         "<th class=\"number\">Std dev</th>";
  if (several) out += "<th class=\"number\">Run std dev</th>";
  out += "<th class=\"number\">Pass rate</th><th class=\"number\">Null scores</th></tr></thead><tbody>";
  for (const auto& e : summary->evaluators) {
    std::optional<double> threshold;
    for (const auto& info : content.evaluators)
      if (info.name == e.name) threshold = info.threshold;
    const std::optional<double> spread = e.item_std_dev ? e.item_std_dev : e.std_dev;
    const auto nulls = static_cast<double>(progress.null_scores(e.name));
    out += "<tr><td>" + markup_text(e.name) + "</td>";
    out += number_cell(threshold, optional_number(threshold, 2));
    out += number_cell(e.average_score, optional_number(e.average_score, 3));
    out += number_cell(spread, optional_number(spread, 3));
    if (several) out += number_cell(e.std_dev, optional_number(e.std_dev, 3));
    out += number_cell(e.pass_rate, e.pass_rate ? report::percent(*e.pass_rate) : "-",
                       e.pass_rate ? (*e.pass_rate >= 1.0 ? " pass" : " fail") : "");
    out += number_cell(nulls, report::count(nulls)) + "</tr>";
  }
  out += "</tbody></table></section>";
}

void distributions(std::string& out, const PageContent& content) {
  if (content.evaluators.empty()) return;
  out += "<section id=\"distributions\"><h2>Score distributions</h2>";
  if (content.progress->runs_planned() > 1) out += "<p class=\"note\">Scores of every run together.</p>";
  out += "<div class=\"charts\">";
  for (std::size_t k = 0; k < content.evaluators.size(); ++k) {
    const report::EvaluatorInfo& e = content.evaluators[k];
    const ScoreHistogram& histogram = (*content.histograms)[k];
    std::string caption = std::to_string(histogram.scored()) + (histogram.scored() == 1 ? " score" : " scores");
    if (histogram.nulls() > 0) caption += ", " + std::to_string(histogram.nulls()) + " null";
    if (e.threshold) caption += ", threshold " + report::fixed(*e.threshold, 2);
    out += "<figure><figcaption>" + markup_text(e.name) + "<span>" + markup_text(caption) + "</span></figcaption>";
    out += histogram.svg(e.threshold, "Score distribution of " + e.name);
    out += "</figure>";
  }
  out += "</div></section>";
}

void costs(std::string& out, const PageContent& content) {
  const std::optional<report::Summary> summary = content.progress->summary();
  const std::string task = content.progress->task_metrics().describe();
  const bool judge = summary && summary->judge;
  if (!judge && task.empty()) return;
  out += "<section id=\"costs\"><h2>Cost and usage</h2><dl class=\"meta\">";
  if (judge) out += "<dt>Judge</dt><dd>" + markup_text(report::describe_judge(*summary->judge)) + "</dd>";
  if (!task.empty()) out += "<dt>Task</dt><dd>" + markup_text(task) + "</dd>";
  out += "</dl></section>";
}

void item_table(std::string& out, const PageContent& content) {
  const report::ExperimentProgress& progress = *content.progress;
  out += "<section id=\"items\"><h2>Items</h2>";
  const uint64_t total = progress.items();
  if (content.items_in_table < total) {
    out += "<p class=\"note\" id=\"cap-note\">" +
           markup_text("The table holds " + std::to_string(content.items_in_table) + " of the " + std::to_string(total) +
                       " items (max_items: " + std::to_string(content.max_items) + "): " +
                       std::to_string(content.problems_in_table) + " of the " +
                       std::to_string(progress.items(report::ItemStatus::failed) +
                                      progress.items(report::ItemStatus::errored)) +
                       " failed and errored items, then passing and skipped items in dataset order.") +
           "</p>";
  }
  out += "<div class=\"controls\">"
         "<input id=\"filter\" type=\"search\" placeholder=\"Filter by id, input, output, reason or error\" "
         "aria-label=\"Filter items\">"
         "<label>Status <select id=\"status\"><option value=\"all\">All</option>"
         "<option value=\"problems\">Failed or errored</option><option value=\"failed\">Failed</option>"
         "<option value=\"error\">Errored</option><option value=\"skipped\">Skipped</option>"
         "<option value=\"passed\">Passed</option></select></label>"
         "<label>Run <select id=\"run\"><option value=\"all\">All runs</option></select></label>"
         "<span id=\"shown\"></span></div>";
  out += "<table id=\"item-table\"><thead><tr><th class=\"number\" data-key=\"index\">";
  out += progress.runs_planned() > 1 ? "Run / #" : "#";
  out += "</th><th data-key=\"status\">Status</th><th data-key=\"id\">Item</th><th data-key=\"input\">Input</th>";
  for (std::size_t k = 0; k < content.evaluators.size(); ++k) {
    out += "<th class=\"number\" data-key=\"score" + std::to_string(k) + "\">" + markup_text(content.evaluators[k].name) +
           "</th>";
  }
  out += "<th class=\"number\" data-key=\"ms\">Time</th></tr></thead><tbody></tbody></table>"
         "<button id=\"more\" type=\"button\" hidden>Show more</button>"
         "<noscript><p class=\"note\">The item table is built by the page's script; the summary above needs no "
         "script.</p></noscript></section>";
}

}  // namespace

std::string page_start(const PageContent& content) {
  const report::ExperimentProgress& progress = *content.progress;
  const std::string name = progress.experiment_name().empty() ? std::string("(unnamed)") : progress.experiment_name();
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      // Nothing outside the page may load: no network, even if something in it tried.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
      "<meta name=\"generator\" content=\"krino html reporter 1.0.0\">\n<title>";
  report::append_markup_text(out, name + " · krino report");
  out += "</title>\n<style>";
  out += kPageStyle;
  out += "</style>\n</head>\n<body>\n<header><h1>";
  report::append_markup_text(out, name);
  out += " <span class=\"badge " + content.status + "\">" + content.status + "</span></h1>";
  if (const auto& first = progress.first_run()) {
    if (!first->experiment_description.empty())
      out += "<p class=\"description\">" + markup_text(first->experiment_description) + "</p>";
    std::string meta;
    if (!first->dataset.uri.empty()) meta += "Dataset " + first->dataset.uri;
    meta += (meta.empty() ? "" : " · ") + std::to_string(first->runs) + (first->runs == 1 ? " run" : " runs");
    if (!first->timestamp.empty()) meta += " · started " + first->timestamp;
    for (const auto& entry : first->experiment_metadata)
      meta += " · " + std::string(entry.key()) + ": " + krino::json::string_form(entry.value());
    out += "<p class=\"meta\">" + markup_text(meta) + "</p>";
  }
  out += "</header>\n";
  if (const std::string note = report::incomplete_note(progress, content.status); !note.empty())
    out += "<div class=\"notice\" id=\"incomplete\">" + markup_text(note) + "</div>\n";
  summary_cards(out, content);
  out += "\n";
  evaluator_table(out, content);
  out += "\n";
  distributions(out, content);
  out += "\n";
  costs(out, content);
  out += "\n";
  item_table(out, content);
  out += "\n<footer>Written by krino's html reporter. Works offline: everything is in this file.</footer>\n";

  // The data: evaluators, runs, then the items (appended by the caller).
  std::string data = "{\"evaluators\":[";
  for (std::size_t k = 0; k < content.evaluators.size(); ++k) {
    if (k > 0) data += ',';
    data += "{\"name\":";
    krino::json::append_json_string(data, content.evaluators[k].name);
    data += ",\"threshold\":";
    if (content.evaluators[k].threshold) krino::json::append_double(data, *content.evaluators[k].threshold);
    else data += "null";
    data += '}';
  }
  data += "],\"runs\":" + std::to_string(progress.runs_planned()) + ",\"items\":[";
  out += "<script type=\"application/json\" id=\"krino-data\">";
  append_script_json(out, data);
  return out;
}

std::string page_end() {
  std::string out = "]}</script>\n<script>";
  out += kPageScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace krino::html
