#include "krino/core/task/model_task.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/llm/judge_request.hpp"
#include "krino/core/llm/llm_client.hpp"
#include "krino/core/llm/llm_config.hpp"
#include "krino/core/llm/reply_cache.hpp"
#include "krino/core/task/task_options.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/json_text.hpp>
#include <krino/plugin.hpp>

#include <algorithm>
#include <chrono>

namespace krino::core {
namespace json = boost::json;

namespace {

json::value parse_member(const ExampleView& example, std::string_view key) {
  auto raw = example.raw(key);
  if (!raw) return nullptr;
  return krino::json::parse(*raw);
}

// One message of an example's own message list, as the judge request wants it. Tool messages and
// tool calls in a history are not sent (see docs/tasks/model.md): the providers would require the
// matching results, which a recorded or simulated history does not always have.
std::optional<json::object> request_message(const json::value& message, std::size_t index, const std::string& key) {
  const std::string where = "inputs." + key + "[" + std::to_string(index) + "]";
  if (!message.is_object()) throw krino::invalid_argument(where + " must be an object with role and content");
  const json::object& m = message.get_object();
  const json::value* role = m.if_contains("role");
  if (role == nullptr || !role->is_string()) throw krino::invalid_argument(where + ".role must be a string");
  std::string text(role->get_string());
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (text == "tool") return std::nullopt;
  if (text != "system" && text != "user" && text != "assistant")
    throw krino::invalid_argument(where + ".role must be system, user, assistant or tool, not '" + text + "'");
  const json::value* content = m.if_contains("content");
  std::string body;
  if (content != nullptr && content->is_string()) body = content->get_string();
  else if (content != nullptr && !content->is_null()) body = ::krino::json::to_compact_json(*content);
  if (body.empty() && text == "assistant") return std::nullopt;  // a turn that only called tools
  return json::object{{"role", text}, {"content", body}};
}

// A tool call from a judge response as a canonical krino tool call: arguments always an object,
// with the model's raw text kept in metadata when it was not one.
json::object canonical_call(const json::object& call) {
  json::object out;
  out["id"] = call.contains("id") ? call.at("id") : json::value("");
  out["name"] = call.contains("name") ? call.at("name") : json::value("");
  const json::value* arguments = call.if_contains("arguments");
  if (arguments != nullptr && arguments->is_object()) {
    out["arguments"] = *arguments;
  } else {
    out["arguments"] = json::object{};
    out["metadata"] = json::object{{"argumentsError", "the model's arguments are not a JSON object"},
                                   {"rawArguments", arguments != nullptr ? *arguments : json::value(nullptr)}};
  }
  return out;
}

}  // namespace

ModelTask::ModelTask(const TaskConfig& config_in, const TaskEnvironment& environment, const EnvironmentLookup& variables)
    : kind_(config_in.kind), cancellation_(&environment.host.cancellation()) {
  TaskOptions options(config_in.options, "task");
  ProviderKind provider = ProviderKind::anthropic;
  if (kind_ == "openai")
    provider = options.choice("api", "chat", {"chat", "responses"}) == "chat" ? ProviderKind::openai : ProviderKind::openai_responses;
  // The model's own keys (docs/judges.md describes each) are the LLM client's to read.
  for (std::string_view key : kLlmConfigKeys) options.value(key);
  LlmConfigDefaults defaults;
  // The provider's usual key variable, when it is set and the experiment names none: a local
  // server (Ollama, vLLM, the fake server) needs no key at all.
  const char* usual = kind_ == "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
  if (variables(usual)) defaults.api_key_env = usual;
  // As many calls at once as items in flight, unless the experiment caps the model lower.
  defaults.max_concurrency = std::max<std::uint32_t>(1, environment.parallelism);
  LlmConfig config = parse_llm_config(config_in.options, provider, "task", variables, defaults);
  config.name = kind_;
  config.role = "task";
  model_ = config.model;

  if (auto system = options.optional_string("system")) system_ = RequestTemplate(*system, "task.system", variables);
  input_ = RequestTemplate(options.string("input", "{{inputs.input}}"), "task.input", variables);
  messages_key_ = options.string("messages_key", "messages");
  if (const json::value* tools = options.value("tools")) {
    if (tools->is_bool() && !tools->get_bool()) {
      tools_ = ToolSource::none;
    } else if (tools->is_array()) {
      tools_ = ToolSource::inline_list;
      inline_tools_ = tools->get_array();
    } else if (tools->is_string()) {
      tools_key_ = tools->get_string();  // another metadata key
    } else {
      options.fail("tools", "must be false, a metadata key, or a list of tool definitions");
    }
  }
  tool_choice_ = options.string("tool_choice", "");

  std::optional<std::filesystem::path> cache_dir;
  if (const json::value* cache = options.value("cache")) {
    if (cache->is_string()) {
      cache_dir = std::filesystem::path(std::string(cache->get_string()));
      if (cache_dir->is_relative() && !config_in.base_dir.empty()) cache_dir = config_in.base_dir / *cache_dir;
    }
    else if (cache->is_bool()) {
      if (cache->get_bool()) {
        cache_dir = ReplyCache::default_directory();
        if (!cache_dir) options.fail("cache", "no cache directory: set XDG_CACHE_HOME or HOME, or give a directory");
      }
    } else {
      options.fail("cache", "must be true, false or a directory");
    }
  }
  options.reject_unknown();

  LlmClientOptions client;
  client.models.push_back(std::move(config));
  client.cache_dir = std::move(cache_dir);
  client.prices = environment.prices;
  client_ = std::make_unique<LlmClient>(environment.io, std::move(client));

  // A request the provider would refuse for every item is a configuration error now, not N item
  // errors later: check the inline tools and the tool choice once.
  if (tools_ == ToolSource::inline_list || !tool_choice_.empty()) {
    json::object probe{{"messages", json::array{json::object{{"role", "user"}, {"content", "probe"}}}}};
    if (tools_ == ToolSource::inline_list) probe["tools"] = inline_tools_;
    if (!tool_choice_.empty() && tools_ == ToolSource::inline_list) probe["tool_choice"] = tool_choice_;
    try {
      resolve_judge_request(probe, LlmConfig{});
    } catch (const InvalidJudgeRequest& e) {
      throw config_error(std::string("task: ") + e.what());
    }
  }
}

ModelTask::~ModelTask() = default;

json::object ModelTask::build_request(const ExampleView& example, std::uint64_t index) const {
  TemplateContext context(example, index);
  json::array messages;
  if (system_) messages.push_back(json::object{{"role", "system"}, {"content", system_->render(context)}});
  const json::value inputs = parse_member(example, "inputs");
  const json::value* history = inputs.is_object() ? inputs.get_object().if_contains(messages_key_) : nullptr;
  if (history != nullptr && !history->is_null()) {
    if (!history->is_array()) throw krino::invalid_argument("inputs." + messages_key_ + " must be a list of messages");
    std::size_t i = 0;
    for (const auto& message : history->get_array())
      if (auto m = request_message(message, i++, messages_key_)) messages.push_back(std::move(*m));
    if (messages.empty() || messages.back().as_object().at("role").as_string() == "system")
      throw krino::invalid_argument("inputs." + messages_key_ + " has no user or assistant message to answer");
  } else {
    messages.push_back(json::object{{"role", "user"}, {"content", input_.render(context)}});
  }
  json::object request{{"messages", std::move(messages)}};
  if (tools_ == ToolSource::inline_list) {
    request["tools"] = inline_tools_;
  } else if (tools_ == ToolSource::metadata) {
    const json::value metadata = parse_member(example, "metadata");
    const json::value* tools = metadata.is_object() ? metadata.get_object().if_contains(tools_key_) : nullptr;
    if (tools != nullptr && !tools->is_null()) {
      if (!tools->is_array()) throw krino::invalid_argument("metadata." + tools_key_ + " must be a list of tool definitions");
      if (!tools->get_array().empty()) request["tools"] = *tools;
    }
  }
  if (!tool_choice_.empty() && request.contains("tools")) request["tool_choice"] = tool_choice_;
  return request;
}

TaskResult ModelTask::run(const ExampleView& example, const krino_call_context& ctx) const {
  json::object request;
  try {
    request = build_request(example, ctx.item_index);
  } catch (const TemplateValueMissing& e) {
    return ItemError{"task", kind_, KRINO_INVALID_ARGUMENT, e.what()};
  } catch (const krino::Error& e) {
    return ItemError{"task", kind_, e.code(), e.what()};
  }
  const auto started = std::chrono::steady_clock::now();
  LlmCallOutcome outcome = client_->call(::krino::json::to_compact_json(request), ctx.seed, cancellation_);
  const double latency_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (outcome.status != KRINO_OK) return ItemError{"task", kind_, outcome.status, outcome.text};

  const json::object reply = krino::json::parse(outcome.text).as_object();
  json::object outputs;
  const std::string content(reply.at("content").as_string());
  json::array calls;
  if (const json::value* made = reply.if_contains("toolCalls"))
    for (const auto& call : made->as_array()) calls.push_back(canonical_call(call.as_object()));
  // A turn that only called tools has no text: null says "no answer", where "" would be an answer.
  outputs["output"] = content.empty() && !calls.empty() ? json::value(nullptr) : json::value(content);
  outputs["toolCalls"] = std::move(calls);
  if (const json::value* stop = reply.if_contains("stopReason")) outputs["stopReason"] = *stop;

  TaskOutput output;
  output.actual_outputs = ::krino::json::to_compact_json(outputs);
  CallMetrics metrics;
  const json::object& usage = reply.at("usage").as_object();
  if (usage.at("tokensIn").is_int64()) metrics.tokens_in = usage.at("tokensIn").as_int64();
  if (usage.at("tokensOut").is_int64()) metrics.tokens_out = usage.at("tokensOut").as_int64();
  if (reply.at("costUsd").is_number()) metrics.cost_usd = reply.at("costUsd").to_number<double>();
  metrics.latency_ms = latency_ms;
  output.metrics = metrics;
  return output;
}

}  // namespace krino::core
