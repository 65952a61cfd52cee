#include "krino/core/gate/gate_verdict.hpp"

#include "krino/core/common/atomic_file.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>
#include <krino/json_text.hpp>

#include <algorithm>

namespace krino::core {
namespace json = boost::json;

namespace {

constexpr size_t kMaxCases = 50;

std::string number(double v) { return fmt::format("{:.6g}", v); }
std::string verdict_percent(double v) { return fmt::format("{:.1f}%", v * 100.0); }

json::value interval_json(const Interval& i) { return json::array{i.low, i.high}; }

// The evaluators that moved an item into the verdict's cases: significantly regressed ones that
// dropped beyond epsilon (guard 1), and any that dropped beyond the severity margin (guard 2).
std::vector<EvaluatorDelta> case_drops(const ItemComparison& item, const Comparison& c, double margin) {
  std::vector<EvaluatorDelta> drops;
  for (const auto& d : item.deltas) {
    bool regressed_evaluator = false;
    for (const auto& e : c.evaluators)
      if (e.name == d.name) regressed_evaluator = e.status == ChangeStatus::regressed;
    if ((regressed_evaluator && d.delta < -kGateEpsilon) || d.delta < -margin) drops.push_back(d);
  }
  return drops;
}

bool is_case(const ItemComparison& item) { return item.status == ChangeStatus::regressed || item.severe; }

}  // namespace

const char* gate_status_name(GateStatus status) {
  switch (status) {
    case GateStatus::fail: return "FAIL";
    case GateStatus::no_baseline: return "NO_BASELINE";
    case GateStatus::inconclusive: return "INCONCLUSIVE";
    case GateStatus::updated: return "UPDATED";
    case GateStatus::pass: break;
  }
  return "PASS";
}

GateVerdict decide_verdict(const Comparison& comparison, const GateConfig& config, const std::string& pairing,
                           const std::string& rebaseline_command) {
  return decide_verdict(std::make_shared<const Comparison>(comparison), config, pairing, rebaseline_command);
}

GateVerdict decide_verdict(std::shared_ptr<const Comparison> comparison, const GateConfig& config, const std::string& pairing,
                           const std::string& rebaseline_command) {
  const Comparison& c = *comparison;
  GateVerdict v;
  if (!config.baseline.empty()) v.baseline = std::filesystem::absolute(config.baseline).lexically_normal();
  v.pairing = pairing;
  v.severity_margin = config.comparison.severity_margin;
  v.alpha = config.comparison.alpha;
  v.warnings = c.warnings;

  // Guard 1: a significant drop of the pass rate or of an evaluator.
  std::vector<std::string> regressions;
  if (c.pass_rate_regressed)
    regressions.push_back(fmt::format("the pass rate fell from {} to {} ({} test, p = {})", verdict_percent(c.baseline_pass_rate),
                                      verdict_percent(c.candidate_pass_rate), c.pass_rate_test, number(c.pass_rate_p_value)));
  for (const auto& e : c.evaluators)
    if (e.status == ChangeStatus::regressed)
      regressions.push_back(fmt::format("'{}' fell from {} to {} on {} paired items (p = {})", e.name, number(e.baseline_mean),
                                        number(e.candidate_mean), e.paired, number(e.p_value)));
  // Guard 2: one item that dropped hard, whatever the sample size.
  const auto severe = std::count_if(c.items.begin(), c.items.end(), [](const ItemComparison& i) { return i.severe; });
  if (severe > 0) {
    const ItemComparison* worst = nullptr;
    const EvaluatorDelta* worst_drop = nullptr;
    for (const auto& item : c.items)
      for (const auto& d : item.deltas)
        if (item.severe && (worst_drop == nullptr || d.delta < worst_drop->delta)) worst = &item, worst_drop = &d;
    regressions.push_back(fmt::format("{} item(s) dropped by more than {} on one evaluator (worst: '{}', '{}' {} -> {})", severe,
                                      number(config.comparison.severity_margin), worst->key, worst_drop->name,
                                      number(worst_drop->baseline), number(worst_drop->candidate)));
  }

  // Coverage: what the candidate no longer measures.
  bool coverage_failed = false;
  for (const auto& e : c.evaluators) {
    if (!e.in_baseline || e.in_candidate) continue;
    std::string text = "evaluator '" + e.name + "' is in the baseline but not in this run";
    if (config.on_removed_evaluator == RemovedEvaluatorPolicy::fail) {
      v.reasons.push_back(text + " (on_removed_evaluator: fail)");
      coverage_failed = true;
    } else {
      v.warnings.push_back(text);
    }
  }
  if (const uint64_t removed = c.count(ChangeStatus::removed); removed > 0) {
    std::string keys;
    size_t shown = 0;
    for (const auto& item : c.items)
      if (item.status == ChangeStatus::removed && shown++ < 5) keys += (keys.empty() ? "'" : ", '") + item.key + "'";
    if (removed > 5) keys += ", ...";
    std::string text = fmt::format("{} baseline item(s) are missing from this run ({})", removed, keys);
    if (config.fail_on_removed_items) {
      v.reasons.push_back(text + " (fail_on_removed_items: true)");
      coverage_failed = true;
    } else {
      v.warnings.push_back(text + "; they are left out of the tests");
    }
  }
  for (auto& r : regressions) v.reasons.push_back(std::move(r));

  const bool regression_fired = c.pass_rate_regressed || severe > 0 ||
                                std::any_of(c.evaluators.begin(), c.evaluators.end(),
                                            [](const EvaluatorComparison& e) { return e.status == ChangeStatus::regressed; });
  const std::string baseline_name = config.baseline_label.empty() ? v.baseline.string() : config.baseline_label;
  if (regression_fired || coverage_failed) {
    v.status = GateStatus::fail;
    v.passed = false;
    v.fails_build = coverage_failed || (regression_fired && config.fail_on_regression);
    std::string list;
    for (const auto& r : v.reasons) list += "\n  - " + r;
    v.message = fmt::format("Regression gate FAILED against {}:{}", baseline_name, list);
    if (!v.fails_build) v.message += "\n(fail_on_regression is false: recorded, the build is not failed)";
    v.message += "\nIf the change is intended, accept it as the new baseline: " + rebaseline_command;
  } else if (c.minimum_pairs == 0 || c.shared < c.minimum_pairs) {
    v.status = GateStatus::inconclusive;
    v.fails_build = config.fail_on_inconclusive;
    if (c.minimum_pairs == 0)
      v.message = fmt::format("Regression gate INCONCLUSIVE against {}: with alpha {} and {} permutation iterations no "
                              "sample is large enough to be significant; raise alpha or permutation_iterations.",
                              baseline_name, number(config.comparison.alpha), config.comparison.permutation_iterations);
    else
      v.message = fmt::format("Regression gate INCONCLUSIVE against {}: need at least {} paired items to detect a "
                              "regression at alpha {}; have {}. Add items to the dataset (or pair by id if they were "
                              "re-keyed); single severe drops are still checked.",
                              baseline_name, c.minimum_pairs, number(config.comparison.alpha), c.shared);
    if (!v.fails_build) v.message += " Passing with a warning (fail_on_inconclusive: false).";
  } else {
    v.status = GateStatus::pass;
    v.message = fmt::format("Regression gate passed against {}: {} paired items, pass rate {} -> {}.", baseline_name,
                            c.shared, verdict_percent(c.baseline_pass_rate), verdict_percent(c.candidate_pass_rate));
  }
  v.comparison = std::move(comparison);
  return v;
}

json::object verdict_json(const GateVerdict& v) {
  json::object o;
  o["status"] = gate_status_name(v.status);
  o["passed"] = v.passed;
  o["failsBuild"] = v.fails_build;
  o["message"] = v.message;
  o["baseline"] = v.baseline.string();
  o["baselineWritten"] = v.baseline_written;
  o["pairing"] = v.pairing;
  json::array reasons, warnings;
  for (const auto& r : v.reasons) reasons.push_back(json::string(r));
  for (const auto& w : v.warnings) warnings.push_back(json::string(w));
  if (v.comparison) {
    const Comparison& c = *v.comparison;
    o["baselinePassRate"] = c.baseline_pass_rate;
    o["candidatePassRate"] = c.candidate_pass_rate;
    o["passRateDelta"] = c.pass_rate_delta;
    o["significant"] = c.pass_rate_significant;
    o["passRateTest"] = c.pass_rate_test;
    o["passRatePValue"] = c.pass_rate_p_value;
    o["passRateCi"] = c.pass_rate_interval ? interval_json(*c.pass_rate_interval) : json::value(nullptr);
    o["passToFail"] = c.pass_to_fail;
    o["failToPass"] = c.fail_to_pass;
    o["improvedCount"] = c.count(ChangeStatus::improved);
    o["regressedCount"] = c.count(ChangeStatus::regressed);
    o["unchangedCount"] = c.count(ChangeStatus::unchanged);
    o["addedCount"] = c.count(ChangeStatus::added);
    o["removedCount"] = c.count(ChangeStatus::removed);
    o["pairedItems"] = c.shared;
    o["minimumPairedItems"] = c.minimum_pairs;
    json::array regressed, evaluators;
    for (const auto& e : c.evaluators) {
      json::object entry{{"evaluator", e.name},          {"baselineMean", e.baseline_mean}, {"candidateMean", e.candidate_mean},
                         {"delta", e.delta},             {"pValue", e.p_value},             {"ci", interval_json(e.interval)},
                         {"pairedItems", e.paired},      {"status", change_status_name(e.status)}};
      if (e.status == ChangeStatus::regressed) regressed.push_back(entry);
      evaluators.push_back(std::move(entry));
    }
    o["regressedEvaluators"] = std::move(regressed);
    o["evaluators"] = std::move(evaluators);
    json::array cases;
    size_t total = 0;
    for (const auto& item : c.items) {
      if (!is_case(item)) continue;
      if (++total > kMaxCases) continue;
      json::array drops;
      for (const auto& d : case_drops(item, c, v.severity_margin))
        drops.push_back(json::object{{"evaluator", d.name}, {"baselineMean", d.baseline}, {"candidateMean", d.candidate}, {"delta", d.delta}});
      json::object entry{{"datasetItemId", item.key}, {"status", change_status_name(item.status)}, {"severe", item.severe}};
      entry["index"] = item.index ? json::value(*item.index) : json::value(nullptr);
      entry["evaluatorDrops"] = std::move(drops);
      cases.push_back(std::move(entry));
    }
    o["cases"] = std::move(cases);
    o["casesTruncated"] = total > kMaxCases;
  }
  o["reasons"] = std::move(reasons);
  o["warnings"] = std::move(warnings);
  o["alpha"] = v.alpha;
  o["severityMargin"] = v.severity_margin;
  return o;
}

std::filesystem::path write_verdict(const GateVerdict& verdict, const std::filesystem::path& verdict_dir) {
  const std::filesystem::path path = verdict_dir / (verdict.baseline.stem().string() + ".json");
  write_file_atomically(path, ::krino::json::to_pretty_json(verdict_json(verdict)) + "\n");
  return path;
}

std::string verdict_summary(const GateVerdict& v) {
  std::string out = fmt::format("gate: {}\n", gate_status_name(v.status));
  if (v.comparison) {
    const Comparison& c = *v.comparison;
    out += fmt::format("  pass rate {} -> {} ({:+.1f} pts; {} p = {}), {} paired, {} added, {} removed\n",
                       verdict_percent(c.baseline_pass_rate), verdict_percent(c.candidate_pass_rate), c.pass_rate_delta * 100.0,
                       c.pass_rate_test, number(c.pass_rate_p_value), c.shared, c.count(ChangeStatus::added),
                       c.count(ChangeStatus::removed));
    for (const auto& e : c.evaluators)
      if (e.in_baseline && e.in_candidate)
        out += fmt::format("  {:<24} {} -> {} ({:+.4f}, p = {}) {}\n", e.name, number(e.baseline_mean), number(e.candidate_mean),
                           e.delta, number(e.p_value), change_status_name(e.status));
  }
  out += v.message + "\n";
  for (const auto& w : v.warnings) out += "  warning: " + w + "\n";
  return out;
}

}  // namespace krino::core
