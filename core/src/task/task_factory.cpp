#include "krino/core/task/task_factory.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/task/exec_task.hpp"
#include "krino/core/task/replay_task.hpp"

namespace krino::core {

std::unique_ptr<Task> make_task(const TaskConfig& config, const TaskEnvironment& environment) {
  if (config.kind == "replay") return std::make_unique<ReplayTask>(config.options);
  if (config.kind == "exec") return std::make_unique<ExecTask>(config, environment);
  throw config_error("task: unknown kind '" + config.kind + "' (known: exec, replay)");
}

}  // namespace krino::core
