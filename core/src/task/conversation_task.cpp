#include "krino/core/task/conversation_task.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/task/task_options.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/json_text.hpp>

#include <chrono>
#include <cmath>

namespace krino::core {
namespace json = boost::json;

namespace {

SimulatedUser make_user(const json::object& options) {
  const json::value* user = options.if_contains("user");
  if (user != nullptr && !user->is_null() && !user->is_object()) throw config_error("task.user: must be a map");
  return SimulatedUser(user != nullptr && user->is_object() ? user->get_object() : json::object{});
}

std::optional<std::string> string_input(const ExampleView& example, std::string_view key) {
  auto inputs = example.raw("inputs");
  if (!inputs) return std::nullopt;
  json::value parsed = krino::json::parse(*inputs);
  const json::value* value = parsed.is_object() ? parsed.get_object().if_contains(key) : nullptr;
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return std::string(value->get_string());
}

// The example the system under test gets for one turn: the original one, with the conversation so
// far as inputs.messages (and never the expected outputs).
std::string turn_example(const ExampleView& example, const json::array& messages) {
  json::object document;
  if (auto id = example.raw("id")) document["id"] = krino::json::parse(*id);
  json::value inputs = krino::json::parse(example.section("inputs"));
  inputs.as_object()["messages"] = messages;
  document["inputs"] = std::move(inputs);
  document["metadata"] = krino::json::parse(example.section("metadata"));
  return ::krino::json::to_compact_json(document);
}

int turn_count(const json::array& messages) {
  int users = 0, assistants = 0;
  for (const auto& m : messages) {
    const auto& role = m.as_object().at("role").as_string();
    users += role == "user";
    assistants += role == "assistant";
  }
  return std::min(users, assistants);
}

}  // namespace

ConversationTask::ConversationTask(const TaskConfig& config, const TaskEnvironment& environment,
                                   const EnvironmentLookup& variables)
    : environment_(environment), user_(make_user(config.options)) {
  TaskOptions options(config.options, "task");
  options.value("user");  // read above

  auto application = options.object("application");
  if (!application) options.fail("application", "is required: the task that answers each turn ({kind: openai, ...})");
  const json::value* kind = application->if_contains("kind");
  if (kind == nullptr || !kind->is_string()) options.fail("application.kind", "is required (openai, anthropic, http or exec)");
  const std::string inner_kind(kind->get_string());
  if (inner_kind == "conversation" || inner_kind == "replay")
    options.fail("application.kind", "'" + inner_kind + "' cannot answer a conversation (openai, anthropic, http or exec)");
  TaskConfig inner{inner_kind, {}, config.base_dir};
  for (const auto& [key, value] : *application)
    if (key != "kind") inner.options[key] = value;
  try {
    application_ = make_task(inner, environment);
  } catch (const KrinoError& e) {
    // The inner task names its options "task.x"; say where they are in this file.
    std::string message = e.what();
    if (message.rfind("task.", 0) == 0) message = "task.application." + message.substr(5);
    else if (message.rfind("task:", 0) == 0) message = "task.application:" + message.substr(5);
    throw config_error(message);
  }

  if (auto initial = options.optional_string("initial_message")) {
    if (initial->empty()) initial_message_disabled_ = true;
    else initial_message_ = RequestTemplate(*initial, "task.initial_message", variables);
  }
  if (auto scenario = options.optional_string("scenario")) scenario_ = RequestTemplate(*scenario, "task.scenario", variables);
  max_turns_ = static_cast<std::uint32_t>(options.integer("max_turns", 10, 1, 1000));
  if (const json::value* stop = options.value("stop_when")) {
    if (!stop->is_array()) options.fail("stop_when", "must be a list of conditions");
    std::size_t i = 0;
    for (const auto& condition : stop->get_array())
      stop_when_.push_back(StopCondition::parse(condition, options.name("stop_when") + "[" + std::to_string(i++) + "]"));
  }
  options.reject_unknown();
}

ConversationTask::~ConversationTask() = default;

TaskResult ConversationTask::run(const ExampleView& example, const krino_call_context& ctx) const {
  const auto started = std::chrono::steady_clock::now();
  TemplateContext context(example, ctx.item_index);
  std::string scenario;
  std::optional<std::string> opening;
  try {
    if (scenario_) scenario = scenario_->render(context);
    else scenario = string_input(example, "scenario").value_or("");
    if (initial_message_) opening = initial_message_->render(context);
    else if (!initial_message_disabled_) opening = string_input(example, "input");
  } catch (const TemplateValueMissing& e) {
    return ItemError{"task", "conversation", KRINO_INVALID_ARGUMENT, e.what()};
  }

  json::array messages;
  json::array all_calls;
  std::size_t fixed_used = 0;
  std::string stopped_by = "max_turns";
  CallMetrics totals;
  bool any_tokens = false, any_cost = false;

  auto stopped = [&]() -> bool {
    for (const auto& condition : stop_when_) {
      if (condition.holds(messages)) {
        stopped_by = condition.describe();
        return true;
      }
    }
    return false;
  };

  for (std::uint32_t turn = 0; turn < max_turns_; ++turn) {
    if (environment_.host.host()->is_cancelled(environment_.host.host(), &ctx) != 0)
      return ItemError{"task", "conversation", KRINO_CANCELLED, "the run was cancelled during turn " + std::to_string(turn + 1)};
    // The user's message.
    std::string user_text;
    bool user_ended = false;
    if (turn == 0 && opening && !opening->empty()) {
      user_text = *opening;
    } else {
      auto reply = user_.next(environment_.host, ctx, messages, scenario, fixed_used);
      if (auto* error = std::get_if<ItemError>(&reply)) {
        error->message = "turn " + std::to_string(turn + 1) + ": " + error->message;
        return *error;
      }
      auto& said = std::get<SimulatedUserReply>(reply);
      user_text = std::move(said.text);
      user_ended = said.ended;
    }
    if (!user_text.empty()) messages.push_back(json::object{{"role", "user"}, {"content", user_text}});
    if (user_ended) {
      stopped_by = "user_ended";
      break;
    }
    if (stopped()) break;

    // The system under test's answer.
    const std::string text = turn_example(example, messages);
    const auto view = ExampleView::from_text(text);
    auto answered = application_->run(*view, ctx);
    if (auto* error = std::get_if<ItemError>(&answered)) {
      error->message = "turn " + std::to_string(turn + 1) + " (" + error->component + "): " + error->message;
      error->component = "conversation";
      return *error;
    }
    TaskOutput& output = std::get<TaskOutput>(answered);
    json::value outputs = krino::json::parse(output.actual_outputs);
    json::object assistant{{"role", "assistant"}};
    const json::value* content = outputs.is_object() ? outputs.get_object().if_contains("output") : nullptr;
    assistant["content"] = content != nullptr && (content->is_string() || content->is_null())
                               ? *content
                               : json::value(content != nullptr ? ::krino::json::to_compact_json(*content) : std::string());
    if (const json::value* calls = outputs.is_object() ? outputs.get_object().if_contains("toolCalls") : nullptr;
        calls != nullptr && calls->is_array() && !calls->get_array().empty()) {
      assistant["toolCalls"] = *calls;
      for (const auto& call : calls->get_array()) all_calls.push_back(call);
    }
    messages.push_back(std::move(assistant));
    if (output.metrics) {
      if (output.metrics->tokens_in || output.metrics->tokens_out) any_tokens = true;
      totals.tokens_in = totals.tokens_in.value_or(0) + output.metrics->tokens_in.value_or(0);
      totals.tokens_out = totals.tokens_out.value_or(0) + output.metrics->tokens_out.value_or(0);
      if (output.metrics->cost_usd) {
        any_cost = true;
        totals.cost_usd = totals.cost_usd.value_or(0) + *output.metrics->cost_usd;
      }
    }
    if (stopped()) break;
  }

  json::object outputs;
  json::value last_answer = nullptr;
  for (auto it = messages.rbegin(); it != messages.rend(); ++it)
    if (it->as_object().at("role").as_string() == "assistant") {
      last_answer = it->as_object().at("content");
      break;
    }
  outputs["output"] = std::move(last_answer);
  outputs["toolCalls"] = std::move(all_calls);
  outputs["turnCount"] = turn_count(messages);
  outputs["stoppedBy"] = stopped_by;
  outputs["conversation"] = json::object{{"scenario", scenario}, {"messages", std::move(messages)}};

  TaskOutput output;
  output.actual_outputs = ::krino::json::to_compact_json(outputs);
  CallMetrics metrics;
  if (any_tokens) {
    metrics.tokens_in = totals.tokens_in;
    metrics.tokens_out = totals.tokens_out;
  }
  if (any_cost) metrics.cost_usd = std::round(*totals.cost_usd * 1e6) / 1e6;
  metrics.latency_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  output.metrics = metrics;
  return output;
}

}  // namespace krino::core
