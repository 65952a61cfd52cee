#include "krino/core/gate/regression_gate.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/gate/baseline_file.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

namespace krino::core {

bool is_truthy(const char* value) {
  if (value == nullptr) return false;
  std::string v(value);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return v == "true" || v == "1" || v == "yes";
}

GateEnvironment GateEnvironment::from_process() {
  GateEnvironment e;
  e.ci = is_truthy(std::getenv("CI")) || is_truthy(std::getenv("GITHUB_ACTIONS"));
  e.update_requested = is_truthy(std::getenv("KRINO_UPDATE_BASELINE"));
  return e;
}

namespace {

// The pairing a comparison uses: what was asked for, made to fit the baseline's keys.
Pairing resolve_pairing(Pairing requested, const Baseline& baseline, const RunProjection& candidate, std::vector<std::string>& warnings) {
  if (requested != Pairing::automatic) return requested;
  if (baseline.pairing == Pairing::positional) return Pairing::positional;
  if (candidate.every_item_has_id()) return Pairing::dataset_item_id;
  warnings.push_back("the baseline is keyed by id but not every item of this run has one: pairing by position");
  return Pairing::positional;
}

GateVerdict written_verdict(GateStatus status, const GateConfig& config, std::string message) {
  GateVerdict v;
  v.status = status;
  v.baseline = std::filesystem::absolute(config.baseline).lexically_normal();
  v.baseline_written = true;
  v.message = std::move(message);
  v.alpha = config.comparison.alpha;
  v.severity_margin = config.comparison.severity_margin;
  return v;
}

}  // namespace

GateVerdict run_regression_gate(const RunProjection& candidate, const GateConfig& config, const GateEnvironment& environment,
                                const std::string& rebaseline_command) {
  const std::filesystem::path absolute = std::filesystem::absolute(config.baseline).lexically_normal();
  GateVerdict verdict;
  if (config.update_baseline || environment.update_requested) {
    write_baseline(make_baseline(candidate, config.pairing, default_provenance()), config.baseline);
    verdict = written_verdict(GateStatus::updated, config, "Baseline updated at " + absolute.string() +
                                                               " from this run (nothing compared). Review and commit it.");
  } else if (!std::filesystem::exists(config.baseline)) {
    if (environment.ci) {
      verdict.status = GateStatus::no_baseline;
      verdict.baseline = absolute;
      verdict.message = "No baseline at " + absolute.string() +
                        ": the gate is measuring nothing. Create it locally (run once without CI set) and commit it.";
      verdict.warnings.push_back("no baseline on CI: nothing was compared and nothing was written");
    } else {
      // Checked before writing: a run that cannot be baselined must not leave a file behind.
      Baseline baseline = make_baseline(candidate, config.pairing, default_provenance());
      write_baseline(baseline, config.baseline);
      if (config.bootstrap_passes) {
        verdict = written_verdict(GateStatus::no_baseline, config, "Baseline created at " + absolute.string() +
                                                                       ". Commit it so the gate compares against it from now on.");
      } else {
        verdict = written_verdict(GateStatus::no_baseline, config, "Baseline created at " + absolute.string() +
                                                                       ". Review and commit it, then re-run.");
        verdict.fails_build = true;
        verdict.reasons.push_back("no baseline existed (bootstrap_passes: false)");
      }
    }
  } else {
    const Baseline baseline = read_baseline(config.baseline);
    std::vector<std::string> warnings;
    const Pairing pairing = resolve_pairing(config.pairing, baseline, candidate, warnings);
    auto comparison = std::make_shared<const Comparison>(
        compare_sides(side_from_baseline(baseline, pairing), side_from_run(candidate, pairing), config.comparison));
    verdict = decide_verdict(std::move(comparison), config, pairing_name(pairing), rebaseline_command);
    verdict.warnings.insert(verdict.warnings.begin(), warnings.begin(), warnings.end());
  }
  write_verdict(verdict, config.verdict_dir);
  return verdict;
}

}  // namespace krino::core
