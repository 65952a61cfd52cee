#include "krino/core/task/task_factory.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/task/conversation_task.hpp"
#include "krino/core/task/exec_task.hpp"
#include "krino/core/task/http_task.hpp"
#include "krino/core/task/model_task.hpp"
#include "krino/core/task/replay_task.hpp"
#include "krino/core/task/trace_extracting_task.hpp"
#include "krino/core/task/trace_extracting_task.hpp"

namespace krino::core {
namespace {

// `raw`: the task's output is a framework's trace for an extractor to read, so the task hands over
// what it got as it is (any JSON) instead of making it actual outputs.
std::unique_ptr<Task> make_plain_task(const TaskConfig& config, const TaskEnvironment& environment, bool raw) {
  const std::string& kind = config.kind;
  if (kind == "replay")
    return std::make_unique<ReplayTask>(config.options, raw ? ReplaySource::trace : ReplaySource::actual_outputs);
  if (kind == "http") return std::make_unique<HttpTask>(config, environment, process_environment(), raw);
  if (kind == "exec") return std::make_unique<ExecTask>(config, environment, raw);
  if (kind == "openai" || kind == "anthropic") return std::make_unique<ModelTask>(config, environment);
  if (kind == "conversation") return std::make_unique<ConversationTask>(config, environment);
  throw config_error("task: unknown kind '" + kind + "' (known: anthropic, conversation, exec, http, openai, replay)");
}

}  // namespace

std::unique_ptr<Task> make_task(const TaskConfig& config, const TaskEnvironment& environment) {
  // `extractor` belongs to every kind that hands over raw output: it goes through that trace extractor.
  TaskConfig plain = config;
  const auto extractor = plain.options.find("extractor");
  if (extractor == plain.options.end()) return make_plain_task(plain, environment, false);
  const boost::json::value requested_value = extractor->value();
  plain.options.erase(extractor);
  if (requested_value.is_null()) return make_plain_task(plain, environment, false);
  if (!requested_value.is_string() || requested_value.get_string().empty())
    throw config_error("task.extractor: must be a trace extractor's name or id, or auto");
  if (plain.kind != "replay" && plain.kind != "http" && plain.kind != "exec")
    throw config_error("task.extractor: a " + plain.kind + " task records its tool calls itself; extractors read the "
                       "raw output of replay, http and exec tasks");
  const std::string requested(requested_value.get_string());
  ExtractorChoice choice(environment.registry, requested);
  return std::make_unique<TraceExtractingTask>(make_plain_task(plain, environment, true), std::move(choice),
                                               environment.prices);
}

}  // namespace krino::core
