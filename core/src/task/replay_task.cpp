#include "krino/core/task/replay_task.hpp"

#include "krino/core/common/error.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

namespace krino::core {

ReplayTask::ReplayTask(const boost::json::object& options, ReplaySource source) : source_(source) {
  for (const auto& [key, value] : options) {
    throw config_error("task replay: unknown option '" + std::string(key) + "' (replay takes no options)");
  }
}

TaskResult ReplayTask::run(const ExampleView& example, const krino_call_context&) const {
  if (source_ == ReplaySource::trace) return run_trace(example);
  auto outputs = example.raw("actualOutputs");
  if (!outputs || !is_object_span(*outputs)) {
    return ItemError{"task", "replay", KRINO_FAILED_PRECONDITION,
                     "the example has no recorded outputs to replay (give it \"actualOutputs\" or \"actualOutput\")"};
  }
  TaskOutput out;
  out.actual_outputs.assign(*outputs);
  out.metrics = recorded_metrics(example);
  return out;
}

std::optional<CallMetrics> ReplayTask::recorded_metrics(const ExampleView& example) {
  if (auto metrics = example.raw("metrics"); metrics && is_object_span(*metrics))
    return call_metrics_from_json(krino::json::parse(*metrics).as_object());
  return std::nullopt;
}

TaskResult ReplayTask::run_trace(const ExampleView& example) {
  auto trace = example.raw("trace");
  if (!trace || *trace == "null") {
    return ItemError{"task", "replay", KRINO_FAILED_PRECONDITION,
                     "the example has no recorded trace to extract (give it \"trace\", or map one with the "
                     "dataset's fields option)"};
  }
  TaskOutput out;
  if (is_string_span(*trace)) out.actual_outputs = std::string(krino::json::parse(*trace).as_string());
  else out.actual_outputs.assign(*trace);
  out.metrics = recorded_metrics(example);
  return out;
}

}  // namespace krino::core
