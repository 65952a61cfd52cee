#include "krino/core/task/replay_task.hpp"

#include "krino/core/common/error.hpp"

namespace krino::core {

ReplayTask::ReplayTask(const boost::json::object& options) {
  for (const auto& [key, value] : options) {
    throw config_error("task replay: unknown option '" + std::string(key) + "' (replay takes no options)");
  }
}

std::variant<TaskOutput, ItemError> ReplayTask::run(const boost::json::object& example,
                                                    const krino_call_context&) const {
  auto outputs = example.find("actualOutputs");
  if (outputs == example.end() || !outputs->value().is_object()) {
    return ItemError{"task", "replay", KRINO_FAILED_PRECONDITION,
                     "the example has no recorded outputs to replay (give it \"actualOutputs\" or \"actualOutput\")"};
  }
  TaskOutput out;
  out.actual_outputs = outputs->value().get_object();
  if (auto metrics = example.find("metrics"); metrics != example.end() && metrics->value().is_object())
    out.metrics = CallMetrics::from_json(metrics->value().get_object());
  return out;
}

}  // namespace krino::core
