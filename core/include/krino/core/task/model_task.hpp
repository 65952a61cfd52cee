#pragma once
// The `openai` and `anthropic` tasks: call a model with the example's input (and, for function
// calling, the tools in its metadata) and record the reply and the tool calls it made
// (docs/tasks/model.md). The call goes through an LLM client of its own on the run's I/O service,
// so a system under test gets exactly what judges get: the HTTP client, retries on 429 and 5xx with
// backoff and Retry-After, requests- and tokens-per-minute limits, the adaptive concurrency window,
// cost from the experiment's prices, and (when asked for) the reply cache.
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/task/request_template.hpp"
#include "krino/core/task/task.hpp"
#include "krino/core/task/task_factory.hpp"

#include <boost/json/array.hpp>

#include <memory>
#include <optional>
#include <string>

namespace krino::core {

class LlmClient;
class Cancellation;

class ModelTask final : public Task {
 public:
  // `config.kind` is "openai" or "anthropic". Throws a configuration error naming the option.
  ModelTask(const TaskConfig& config, const TaskEnvironment& environment,
            const EnvironmentLookup& variables = process_environment());
  ~ModelTask() override;

  TaskResult run(const ExampleView& example, const krino_call_context& ctx) const override;
  bool calls_out() const override { return true; }
  const char* kind() const override { return kind_.c_str(); }

  // The krino.judgerequest/1 document for one example (exposed for tests). Throws
  // TemplateValueMissing or krino::Error (a malformed message list or tool list in the example).
  boost::json::object build_request(const ExampleView& example, std::uint64_t index) const;

 private:
  enum class ToolSource { none, metadata, inline_list };

  std::string kind_;
  std::string model_;
  std::optional<RequestTemplate> system_;
  RequestTemplate input_;
  std::string messages_key_;  // an inputs key holding a whole message list; used when present
  ToolSource tools_ = ToolSource::metadata;
  std::string tools_key_ = "tools";  // metadata key, for ToolSource::metadata
  boost::json::array inline_tools_;
  std::string tool_choice_;
  std::unique_ptr<LlmClient> client_;
  const Cancellation* cancellation_ = nullptr;  // the run's: a call's waits end when it is requested
};

}  // namespace krino::core
