#include "krino/core/task/task_factory.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/task/conversation_task.hpp"
#include "krino/core/task/exec_task.hpp"
#include "krino/core/task/http_task.hpp"
#include "krino/core/task/model_task.hpp"
#include "krino/core/task/replay_task.hpp"

namespace krino::core {

std::unique_ptr<Task> make_task(const TaskConfig& config, const TaskEnvironment& environment) {
  if (config.kind == "replay") return std::make_unique<ReplayTask>(config.options);
  if (config.kind == "http") return std::make_unique<HttpTask>(config, environment);
  if (config.kind == "exec") return std::make_unique<ExecTask>(config, environment);
  if (config.kind == "openai" || config.kind == "anthropic")
    return std::make_unique<ModelTask>(config, environment);
  if (config.kind == "conversation") return std::make_unique<ConversationTask>(config, environment);
  throw config_error("task: unknown kind '" + config.kind + "' (known: anthropic, conversation, exec, http, openai, replay)");
}

}  // namespace krino::core
