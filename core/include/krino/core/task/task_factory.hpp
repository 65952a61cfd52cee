#pragma once
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/task/task.hpp"

#include <memory>

namespace krino::core {

class HostServices;

// What a task may use from the host beyond its own options: the judge service (a simulated user is
// played by a judge), logging and cancellation. It outlives every task made with it.
struct TaskEnvironment {
  const HostServices& host;
};

// The built-in task for an experiment's `task` section. Throws a configuration error for an
// unknown kind, listing the known ones.
std::unique_ptr<Task> make_task(const TaskConfig& config, const TaskEnvironment& environment);

}  // namespace krino::core
