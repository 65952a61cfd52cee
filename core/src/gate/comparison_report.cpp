#include "krino/core/gate/comparison_report.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>
#include <krino/json_text.hpp>

namespace krino::core {
namespace json = boost::json;

namespace {

std::string g(double v) { return fmt::format("{:.4g}", v); }
std::string signed4(double v) { return fmt::format("{:+.4f}", v); }
std::string percent(double v) { return fmt::format("{:.1f}%", v * 100.0); }
std::string ci(const Interval& i) { return fmt::format("[{:+.4f}, {:+.4f}]", i.low, i.high); }

const char* pass_rate_status(const Comparison& c) {
  return c.pass_rate_regressed ? "REGRESSED" : c.pass_rate_improved ? "IMPROVED" : "UNCHANGED";
}

std::string flip_name(const ItemComparison& item) { return item.baseline_pass ? "pass -> fail" : "fail -> pass"; }

std::string deltas_text(const ItemComparison& item) {
  std::string out;
  for (const auto& d : item.deltas) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {} -> {} ({})", d.name, g(d.baseline), g(d.candidate), signed4(d.delta));
  }
  return out;
}

}  // namespace

std::vector<const ItemComparison*> flipped_items(const Comparison& c) {
  std::vector<const ItemComparison*> out;
  for (const auto& item : c.items)
    if (item.status != ChangeStatus::added && item.status != ChangeStatus::removed && item.baseline_pass != item.candidate_pass)
      out.push_back(&item);
  return out;
}

json::object comparison_json(const Comparison& c, const ComparisonReportOptions& o) {
  json::object out;
  out["a"] = o.baseline_name;
  out["b"] = o.candidate_name;
  out["pairing"] = o.pairing;
  out["alpha"] = o.alpha;
  out["pairedItems"] = c.shared;
  out["addedCount"] = c.count(ChangeStatus::added);
  out["removedCount"] = c.count(ChangeStatus::removed);
  out["improvedCount"] = c.count(ChangeStatus::improved);
  out["regressedCount"] = c.count(ChangeStatus::regressed);
  out["passRate"] = json::object{{"a", c.baseline_pass_rate},
                                 {"b", c.candidate_pass_rate},
                                 {"delta", c.pass_rate_delta},
                                 {"test", c.pass_rate_test},
                                 {"pValue", c.pass_rate_p_value},
                                 {"passToFail", c.pass_to_fail},
                                 {"failToPass", c.fail_to_pass},
                                 {"significant", c.pass_rate_significant},
                                 {"ci", c.pass_rate_interval ? json::value(json::array{c.pass_rate_interval->low, c.pass_rate_interval->high})
                                                             : json::value(nullptr)}};
  json::array evaluators;
  for (const auto& e : c.evaluators)
    evaluators.push_back(json::object{{"name", e.name},       {"meanA", e.baseline_mean}, {"meanB", e.candidate_mean},
                                      {"delta", e.delta},     {"pValue", e.p_value},      {"ci", json::array{e.interval.low, e.interval.high}},
                                      {"pairedItems", e.paired}, {"status", change_status_name(e.status)}});
  out["evaluators"] = std::move(evaluators);
  const auto flips = flipped_items(c);
  json::array items;
  for (size_t i = 0; i < flips.size() && i < o.max_items; ++i) {
    json::array deltas;
    for (const auto& d : flips[i]->deltas)
      deltas.push_back(json::object{{"evaluator", d.name}, {"a", d.baseline}, {"b", d.candidate}, {"delta", d.delta}});
    json::object item{{"key", flips[i]->key}, {"flip", flips[i]->baseline_pass ? "pass_to_fail" : "fail_to_pass"}};
    item["index"] = flips[i]->index ? json::value(*flips[i]->index) : json::value(nullptr);
    item["deltas"] = std::move(deltas);
    items.push_back(std::move(item));
  }
  out["flippedItems"] = std::move(items);
  out["flippedCount"] = flips.size();
  json::array warnings;
  for (const auto& w : c.warnings) warnings.push_back(json::string(w));
  out["warnings"] = std::move(warnings);
  return out;
}

std::string render_comparison(const Comparison& c, const ComparisonReportOptions& o, ReportFormat format) {
  if (format == ReportFormat::json) return ::krino::json::to_pretty_json(comparison_json(c, o)) + "\n";
  const bool md = format == ReportFormat::markdown;
  const auto flips = flipped_items(c);
  std::string out;
  if (md) {
    out += fmt::format("## Comparison: `{}` → `{}`\n\n", o.baseline_name, o.candidate_name);
    out += fmt::format("{} paired items ({}), {} added, {} removed.\n\n", c.shared, o.pairing, c.count(ChangeStatus::added),
                       c.count(ChangeStatus::removed));
    out += "| | A | B | Δ | p | 95% CI | status |\n|---|---|---|---|---|---|---|\n";
    out += fmt::format("| **pass rate** | {} | {} | {:+.1f} pts | {} ({}) | {} | {} |\n", percent(c.baseline_pass_rate),
                       percent(c.candidate_pass_rate), c.pass_rate_delta * 100.0, g(c.pass_rate_p_value), c.pass_rate_test,
                       c.pass_rate_interval ? ci(*c.pass_rate_interval) : "", pass_rate_status(c));
    for (const auto& e : c.evaluators)
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", e.name, g(e.baseline_mean), g(e.candidate_mean), signed4(e.delta),
                         g(e.p_value), ci(e.interval), change_status_name(e.status));
    if (!flips.empty()) {
      out += fmt::format("\n### Items that flipped ({})\n\n| item | flip | scores |\n|---|---|---|\n", flips.size());
      for (size_t i = 0; i < flips.size() && i < o.max_items; ++i)
        out += fmt::format("| `{}` | {} | {} |\n", flips[i]->key, flip_name(*flips[i]), deltas_text(*flips[i]));
      if (flips.size() > o.max_items) out += fmt::format("\n… and {} more.\n", flips.size() - o.max_items);
    }
    for (const auto& w : c.warnings) out += "\n> warning: " + w + "\n";
    return out;
  }
  out += fmt::format("A: {}\nB: {}\n{} paired items ({}), {} added, {} removed\n\n", o.baseline_name, o.candidate_name, c.shared,
                     o.pairing, c.count(ChangeStatus::added), c.count(ChangeStatus::removed));
  out += fmt::format("{:<24} {:>9} {:>9} {:>9} {:>9}  {:<20} {}\n", "", "A", "B", "delta", "p", "95% CI", "status");
  out += fmt::format("{:<24} {:>9} {:>9} {:>9} {:>9}  {:<20} {}\n", "pass rate", percent(c.baseline_pass_rate),
                     percent(c.candidate_pass_rate), fmt::format("{:+.1f}pt", c.pass_rate_delta * 100.0), g(c.pass_rate_p_value),
                     c.pass_rate_interval ? ci(*c.pass_rate_interval) : c.pass_rate_test, pass_rate_status(c));
  for (const auto& e : c.evaluators)
    out += fmt::format("{:<24} {:>9} {:>9} {:>9} {:>9}  {:<20} {}\n", e.name, g(e.baseline_mean), g(e.candidate_mean), signed4(e.delta),
                       g(e.p_value), ci(e.interval), change_status_name(e.status));
  if (c.pass_rate_test == "mcnemar")
    out += fmt::format("\nMcNemar: {} pass -> fail, {} fail -> pass\n", c.pass_to_fail, c.fail_to_pass);
  if (!flips.empty()) {
    out += fmt::format("\nItems that flipped ({}):\n", flips.size());
    for (size_t i = 0; i < flips.size() && i < o.max_items; ++i)
      out += fmt::format("  {:<20} {}  {}\n", flips[i]->key, flip_name(*flips[i]), deltas_text(*flips[i]));
    if (flips.size() > o.max_items) out += fmt::format("  ... and {} more (--max-items)\n", flips.size() - o.max_items);
  }
  for (const auto& w : c.warnings) out += "warning: " + w + "\n";
  return out;
}

}  // namespace krino::core
