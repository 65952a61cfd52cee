#pragma once
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/task/task.hpp"

#include <memory>

namespace krino::core {

// The built-in task for an experiment's `task` section. Throws a configuration error for an
// unknown kind, listing the known ones.
std::unique_ptr<Task> make_task(const TaskConfig& config);

}  // namespace krino::core
