#pragma once
// The options of the regression gate: the `gate:` section of an experiment file and the flags of
// `krino gate` (docs/gate.md).
#include "krino/core/gate/comparison.hpp"
#include "krino/core/gate/pairing.hpp"

#include <boost/json/object.hpp>

#include <filesystem>
#include <string>

namespace krino::core {

enum class RemovedEvaluatorPolicy { fail, warn };

struct GateConfig {
  std::filesystem::path baseline;     // the baseline file
  std::string baseline_label;         // what messages call the baseline; empty: the file's absolute path
  std::filesystem::path verdict_dir = "krino-gate";  // one verdict file per baseline, named for its stem
  ComparisonOptions comparison;       // alpha, seed, iterations, severity margin
  Pairing pairing = Pairing::automatic;
  bool fail_on_regression = true;     // false: record the verdict, never fail the build on a regression
  bool fail_on_removed_items = false;
  RemovedEvaluatorPolicy on_removed_evaluator = RemovedEvaluatorPolicy::fail;
  bool fail_on_inconclusive = false;  // krino's own: too little data to decide fails the build
  bool bootstrap_passes = true;       // no baseline, locally: write it and pass (false: and fail once)
  bool update_baseline = false;       // overwrite the baseline from this run and pass
};

// Reads a `gate:` section. Relative paths resolve against `base_dir` (the experiment file's
// directory); the default baseline is baselines/<experiment>.json, and an experiment without a name
// needs an explicit `baseline` (two unnamed experiments would share one file). Configuration errors
// name the key.
GateConfig parse_gate_config(const boost::json::object& section, const std::filesystem::path& base_dir,
                             const std::string& experiment_name);

// Checks an option set assembled elsewhere (the CLI): ranges of alpha, margins and iterations.
void validate_gate_config(const GateConfig& config);

}  // namespace krino::core
