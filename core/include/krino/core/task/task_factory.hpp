#pragma once
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/task/task.hpp"

#include <cstdint>
#include <memory>

namespace krino::core {

class HostServices;
class IoService;
class PluginRegistry;
class PriceTable;

// What a task may use from the host beyond its own options. Everything here outlives every task
// made with it.
struct TaskEnvironment {
  // Logging, cancellation and the judge service (a simulated user is played by a judge).
  const HostServices& host;
  // The loaded plugins: trace extractors that turn a task's raw output into actual outputs.
  const PluginRegistry& registry;
  // Asynchronous I/O (HTTP requests, child process pipes); waits suspend the calling TBB task.
  IoService& io;
  // The experiment's `prices`: what a model call costs (docs/judges.md#cost); empty when none are configured.
  const PriceTable& prices;
  // The experiment's `parallelism`: how many items the runner lets through the task at once.
  std::uint32_t parallelism = 1;
};

// The built-in task for an experiment's `task` section. Throws a configuration error for an
// unknown kind, listing the known ones.
std::unique_ptr<Task> make_task(const TaskConfig& config, const TaskEnvironment& environment);

}  // namespace krino::core
