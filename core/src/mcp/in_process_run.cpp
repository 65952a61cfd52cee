#include "krino/core/mcp/in_process_run.hpp"

#include "krino/core/common/io_service.hpp"
#include "krino/core/experiment/experiment_judges.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/llm/judge_service.hpp"

#include <cstdio>
#include <memory>

namespace krino::core::mcp {

ExperimentOutcome run_in_process(ToolServices& services, const InProcessRun& run) {
  HostServices host(run.cancellation, stderr, services.log_level());
  // Declared before the judges: the I/O service must outlive every call, and it is stopped last
  // (the order of `krino run`).
  IoService io;
  const std::unique_ptr<JudgeService> judges = make_judge_service(run.config, JudgeSetupOptions{false, process_environment(), &io});
  host.set_judge_service(judges.get());
  RunnerEnvironment environment{io, run.test_cases, run.inputs};
  ExperimentRunner runner(run.config, services.plugins(), host, run.cancellation, std::move(environment));
  runner.set_observer(run.observer);
  return runner.run();
}

}  // namespace krino::core::mcp
