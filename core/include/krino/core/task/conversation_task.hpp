#pragma once
// The `conversation` task: a multi-turn conversation between a simulated user and the system under
// test (docs/tasks/conversation.md). Each turn the user speaks (the example's
// opening message, then scripted messages, then an LLM judge playing a persona) and the system
// under test answers through another task (openai, anthropic, http or exec) that receives the
// conversation so far as inputs.messages. The stopping conditions are checked after every
// message; max_turns bounds the rest. The whole conversation becomes the item's actual outputs.
#include "krino/core/task/request_template.hpp"
#include "krino/core/task/simulated_user.hpp"
#include "krino/core/task/stop_condition.hpp"
#include "krino/core/task/task.hpp"
#include "krino/core/task/task_factory.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace krino::core {

class ConversationTask final : public Task {
 public:
  // Throws a configuration error naming the option.
  ConversationTask(const TaskConfig& config, const TaskEnvironment& environment,
                   const EnvironmentLookup& variables = process_environment());
  ~ConversationTask() override;

  TaskResult run(const ExampleView& example, const krino_call_context& ctx) const override;
  bool calls_out() const override { return true; }
  const char* kind() const override { return "conversation"; }

 private:
  TaskEnvironment environment_;
  std::unique_ptr<Task> application_;
  SimulatedUser user_;
  std::optional<RequestTemplate> initial_message_;  // nullopt: inputs.input when the example has one
  bool initial_message_disabled_ = false;           // initial_message: "" lets the simulated user open
  std::optional<RequestTemplate> scenario_;         // nullopt: inputs.scenario when the example has one
  std::uint32_t max_turns_ = 10;
  std::vector<StopCondition> stop_when_;
};

}  // namespace krino::core
