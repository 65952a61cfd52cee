#include "krino/core/task/replay_task.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>

namespace krino::core {

ReplayTask::ReplayTask(const boost::json::object& options) {
  for (const auto& [key, value] : options) {
    throw config_error("task replay: unknown option '" + std::string(key) + "' (replay takes no options)");
  }
}

std::variant<TaskOutput, ItemError> ReplayTask::run(const ExampleView& example, const krino_call_context&) const {
  auto outputs = example.raw("actualOutputs");
  if (!outputs || !is_object_span(*outputs)) {
    return ItemError{"task", "replay", KRINO_FAILED_PRECONDITION,
                     "the example has no recorded outputs to replay (give it \"actualOutputs\" or \"actualOutput\")"};
  }
  TaskOutput out;
  out.actual_outputs.assign(*outputs);
  if (auto metrics = example.raw("metrics"); metrics && is_object_span(*metrics))
    out.metrics = CallMetrics::from_json(boost::json::parse(*metrics).as_object());
  return out;
}

}  // namespace krino::core
