#include "krino/core/gate/gate_config.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/json_whole_number.hpp"

#include <boost/json.hpp>

#include <cmath>
#include <set>

namespace krino::core {
namespace json = boost::json;

namespace {

const json::value* find(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  return it == o.end() || it->value().is_null() ? nullptr : &it->value();
}

bool read_bool(const json::object& o, std::string_view key, bool fallback) {
  const auto* v = find(o, key);
  if (v == nullptr) return fallback;
  if (!v->is_bool()) throw config_error("gate." + std::string(key) + ": expected true or false");
  return v->get_bool();
}

double read_number(const json::object& o, std::string_view key, double fallback) {
  const auto* v = find(o, key);
  if (v == nullptr) return fallback;
  if (!v->is_number()) throw config_error("gate." + std::string(key) + ": expected a number");
  return v->to_number<double>();
}

uint64_t read_whole(const json::object& o, std::string_view key, uint64_t fallback) {
  const auto* v = find(o, key);
  if (v == nullptr) return fallback;
  if (const std::optional<uint64_t> whole = json_whole_number(v)) return *whole;
  throw config_error("gate." + std::string(key) + ": expected a non-negative whole number");
}

std::string read_string(const json::object& o, std::string_view key) {
  const auto* v = find(o, key);
  if (v == nullptr) return {};
  if (!v->is_string() || v->get_string().empty()) throw config_error("gate." + std::string(key) + ": expected a non-empty string");
  return std::string(v->get_string());
}

}  // namespace

void validate_gate_config(const GateConfig& c) {
  if (!(c.comparison.alpha > 0.0 && c.comparison.alpha < 1.0)) throw config_error("gate alpha: must be between 0 and 1 (exclusive)");
  if (!(c.comparison.severity_margin >= 0.0 && c.comparison.severity_margin <= 1.0))
    throw config_error("gate severity_margin: must be between 0 and 1");
  if (c.comparison.permutation_iterations < 1 || c.comparison.permutation_iterations > 10'000'000)
    throw config_error("gate permutation_iterations: must be between 1 and 10000000");
  if (c.comparison.bootstrap_iterations < 1 || c.comparison.bootstrap_iterations > 10'000'000)
    throw config_error("gate bootstrap_iterations: must be between 1 and 10000000");
}

GateConfig parse_gate_config(const json::object& section, const std::filesystem::path& base_dir,
                             const std::string& experiment_name) {
  static const std::set<std::string, std::less<>> known = {
      "baseline", "severity_margin", "pairing", "fail_on_regression", "fail_on_removed_items",
      "on_removed_evaluator", "alpha", "seed", "permutation_iterations", "bootstrap_iterations",
      "bootstrap_passes", "update_baseline", "verdict_dir", "fail_on_inconclusive"};
  for (const auto& [key, value] : section) {
    if (known.count(key) == 0) {
      std::string message = "gate: unknown key '" + std::string(key) + "'; known keys:";
      for (const auto& k : known) message += " " + k;
      throw config_error(message);
    }
  }
  GateConfig c;
  std::string baseline = read_string(section, "baseline");
  if (baseline.empty()) {
    if (experiment_name.empty() || experiment_name == "unnamed")
      throw config_error("gate: the experiment has no name, so its baseline has no default file; set `name:` or "
                         "`gate.baseline:` (two unnamed experiments would overwrite one baseline)");
    baseline = "baselines/" + experiment_name + ".json";
  }
  c.baseline = std::filesystem::path(baseline).is_relative() && !base_dir.empty() ? base_dir / baseline : std::filesystem::path(baseline);
  c.baseline = c.baseline.lexically_normal();
  // Like the baseline, verdicts sit next to the experiment file, whatever the working directory.
  std::string dir = read_string(section, "verdict_dir");
  if (dir.empty()) dir = c.verdict_dir.string();
  c.verdict_dir = std::filesystem::path(dir).is_relative() && !base_dir.empty() ? (base_dir / dir).lexically_normal()
                                                                                : std::filesystem::path(dir);
  c.comparison.severity_margin = read_number(section, "severity_margin", c.comparison.severity_margin);
  c.comparison.alpha = read_number(section, "alpha", c.comparison.alpha);
  c.comparison.seed = read_whole(section, "seed", c.comparison.seed);
  c.comparison.permutation_iterations =
      static_cast<uint32_t>(std::min<uint64_t>(read_whole(section, "permutation_iterations", 10000), 0xFFFFFFFFu));
  c.comparison.bootstrap_iterations =
      static_cast<uint32_t>(std::min<uint64_t>(read_whole(section, "bootstrap_iterations", 10000), 0xFFFFFFFFu));
  if (std::string pairing = read_string(section, "pairing"); !pairing.empty()) c.pairing = parse_pairing(pairing, "gate.pairing");
  c.fail_on_regression = read_bool(section, "fail_on_regression", true);
  c.fail_on_removed_items = read_bool(section, "fail_on_removed_items", false);
  c.fail_on_inconclusive = read_bool(section, "fail_on_inconclusive", false);
  c.bootstrap_passes = read_bool(section, "bootstrap_passes", true);
  c.update_baseline = read_bool(section, "update_baseline", false);
  if (std::string policy = read_string(section, "on_removed_evaluator"); !policy.empty()) {
    if (policy == "fail") c.on_removed_evaluator = RemovedEvaluatorPolicy::fail;
    else if (policy == "warn") c.on_removed_evaluator = RemovedEvaluatorPolicy::warn;
    else throw config_error("gate.on_removed_evaluator: expected fail or warn, got '" + policy + "'");
  }
  validate_gate_config(c);
  return c;
}

}  // namespace krino::core
