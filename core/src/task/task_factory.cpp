#include "krino/core/task/task_factory.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/task/http_task.hpp"
#include "krino/core/task/model_task.hpp"
#include "krino/core/task/replay_task.hpp"
#include "krino/core/task/trace_extracting_task.hpp"

namespace krino::core {
namespace {

std::unique_ptr<Task> make_plain_task(const std::string& kind, const boost::json::object& options,
                                      const TaskEnvironment& environment, bool reads_traces) {
  if (kind == "replay")
    return std::make_unique<ReplayTask>(options, reads_traces ? ReplaySource::trace : ReplaySource::actual_outputs);
  if (kind == "http") return std::make_unique<HttpTask>(options, environment);
  if (kind == "openai" || kind == "anthropic") return std::make_unique<ModelTask>(kind, options, environment);
  throw config_error("task: unknown kind '" + kind + "' (known: anthropic, http, openai, replay)");
}

}  // namespace

std::unique_ptr<Task> make_task(const TaskConfig& config, const TaskEnvironment& environment) {
  // `extractor` belongs to every kind: the task's raw output goes through that trace extractor.
  boost::json::object options = config.options;
  const auto extractor = options.find("extractor");
  if (extractor == options.end()) return make_plain_task(config.kind, options, environment, false);
  const boost::json::value requested_value = extractor->value();
  options.erase(extractor);
  if (requested_value.is_null()) return make_plain_task(config.kind, options, environment, false);
  if (!requested_value.is_string() || requested_value.get_string().empty())
    throw config_error("task.extractor: must be a trace extractor's name or id, or auto");
  const std::string requested(requested_value.get_string());
  ExtractorChoice choice(environment.registry, requested);
  return std::make_unique<TraceExtractingTask>(make_plain_task(config.kind, options, environment, true),
                                               std::move(choice), environment.prices);
}

}  // namespace krino::core
