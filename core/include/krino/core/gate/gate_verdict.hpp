#pragma once
// What the regression gate concluded, why, and whether that fails the build (docs/gate.md).
#include "krino/core/gate/comparison.hpp"
#include "krino/core/gate/gate_config.hpp"

#include <boost/json/object.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace krino::core {

enum class GateStatus {
  pass,
  fail,
  no_baseline,   // nothing to compare against (a baseline may have been written now)
  inconclusive,  // too few paired items for the significance tests to mean anything
  updated,       // the baseline was overwritten from this run on request; nothing compared
};
const char* gate_status_name(GateStatus status);  // "PASS", "FAIL", "NO_BASELINE", "INCONCLUSIVE", "UPDATED"

struct GateVerdict {
  GateStatus status = GateStatus::pass;
  bool passed = true;        // false only on FAIL
  bool fails_build = false;  // after fail_on_regression, coverage rules, fail_on_inconclusive, bootstrap_passes
  bool baseline_written = false;
  std::string message;       // one paragraph for people, saying what to do
  std::vector<std::string> reasons;   // why it failed, one line each
  std::vector<std::string> warnings;
  std::filesystem::path baseline;     // absolute
  std::string pairing = "none";       // "positional", "dataset_item_id" or "none"
  std::shared_ptr<const Comparison> comparison;  // shared: a server keeps large comparisons for their pages
  double severity_margin = 0.15;
  double alpha = 0.05;
};

// Applies both guards, the coverage rules and the sample-size check to a comparison.
// `rebaseline_command` goes into the FAIL message (how to accept the change).
GateVerdict decide_verdict(std::shared_ptr<const Comparison> comparison, const GateConfig& config, const std::string& pairing,
                           const std::string& rebaseline_command);
GateVerdict decide_verdict(const Comparison& comparison, const GateConfig& config, const std::string& pairing,
                           const std::string& rebaseline_command);

// The verdict file's document (docs/gate.md#the-verdict-file); `cases` capped at 50.
boost::json::object verdict_json(const GateVerdict& verdict);

// <verdict_dir>/<baseline stem>.json, written atomically and synced (write_file_atomically);
// returns the path.
std::filesystem::path write_verdict(const GateVerdict& verdict, const std::filesystem::path& verdict_dir);

// Several lines for a terminal: status, pass rates, evaluators that moved, cases, warnings.
std::string verdict_summary(const GateVerdict& verdict);

}  // namespace krino::core
