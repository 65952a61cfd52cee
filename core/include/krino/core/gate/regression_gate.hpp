#pragma once
// The regression gate's decision order: update requested -> write and pass; no
// baseline on CI -> NO_BASELINE, pass, write nothing; no baseline locally -> write it and pass (or
// fail once); else compare and decide. The verdict file is written before the caller fails.
// See docs/gate.md#the-decision-order.
#include "krino/core/gate/gate_config.hpp"
#include "krino/core/gate/gate_verdict.hpp"
#include "krino/core/gate/run_projection.hpp"

#include <functional>
#include <string>

namespace krino::core {

// true, 1 or yes, in any case.
bool is_truthy(const char* value);

struct GateEnvironment {
  bool ci = false;                // CI or GITHUB_ACTIONS is truthy
  bool update_requested = false;  // KRINO_UPDATE_BASELINE is truthy
  static GateEnvironment from_process();
};

// Runs the gate on a candidate run. `rebaseline_command` is quoted in a FAIL message. Throws a
// configuration error for an unusable baseline or pairing, a runtime error when a file cannot be written.
GateVerdict run_regression_gate(const RunProjection& candidate, const GateConfig& config, const GateEnvironment& environment,
                                const std::string& rebaseline_command);

}  // namespace krino::core
