#pragma once
// One experiment run inside `krino mcp` for one tool call, through the same core entry points as
// `krino run` and `krino eval` (judges from the experiment's sections, the ExperimentRunner over the
// loaded plugins), so a tool scores exactly as the command does. Each call has its own host
// services, I/O service and judges; the call's cancellation stops the run.
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/mcp/tool_services.hpp"
#include "krino/core/runner/experiment_runner.hpp"

#include <istream>
#include <vector>

namespace krino::core::mcp {

struct InProcessRun {
  const ExperimentConfig& config;
  const Cancellation& cancellation;
  ExperimentRunner::Observer* observer = nullptr;  // sees every run's start and finished item
  std::istream* test_cases = nullptr;              // `krino eval`'s input instead of dataset and task
  std::vector<NamedFile> inputs = {};              // files no report may overwrite
};

// Throws a configuration error (unknown evaluator, bad options, a missing API key variable...)
// before any item runs, as the command would.
ExperimentOutcome run_in_process(ToolServices& services, const InProcessRun& run);

}  // namespace krino::core::mcp
