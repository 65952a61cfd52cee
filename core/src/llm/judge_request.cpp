#include "krino/core/llm/judge_request.hpp"

#include <boost/json.hpp>
#include <krino/agent/tool_definition.hpp>

namespace krino::core {
namespace {

namespace json = boost::json;

[[noreturn]] void invalid(const std::string& message) { throw InvalidJudgeRequest("judge request: " + message); }

const json::value* member(const json::object& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() || it->value().is_null() ? nullptr : &it->value();
}

std::optional<std::int64_t> integer(const json::object& request, std::string_view key) {
  const auto* value = member(request, key);
  if (value == nullptr) return std::nullopt;
  if (value->is_int64()) return value->get_int64();
  if (value->is_uint64() && value->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(value->get_uint64());
  invalid(std::string(key) + " must be a whole number");
}

std::vector<JudgeMessage> read_messages(const json::object& request) {
  const auto* value = member(request, "messages");
  if (value == nullptr || !value->is_array() || value->get_array().empty())
    invalid("messages must be a non-empty array");
  std::vector<JudgeMessage> messages;
  for (const auto& entry : value->get_array()) {
    std::string where = "messages[" + std::to_string(messages.size()) + "]";
    if (!entry.is_object()) invalid(where + " must be an object");
    const auto& object = entry.get_object();
    const auto* role = member(object, "role");
    const auto* content = member(object, "content");
    if (role == nullptr || !role->is_string()) invalid(where + ".role must be a string");
    if (content == nullptr || !content->is_string()) invalid(where + ".content must be a string");
    std::string role_text(role->get_string());
    if (role_text != "system" && role_text != "user" && role_text != "assistant")
      invalid(where + ".role must be system, user or assistant, not '" + role_text + "'");
    messages.push_back({std::move(role_text), std::string(content->get_string())});
  }
  return messages;
}

std::vector<JudgeTool> read_tools(const json::object& request) {
  std::vector<JudgeTool> tools;
  const auto* value = member(request, "tools");
  if (value == nullptr) return tools;
  if (!value->is_array()) invalid("tools must be an array of tool definitions");
  for (const auto& entry : value->get_array()) {
    const std::string where = "judge request: tools[" + std::to_string(tools.size()) + "]";
    krino::agent::ToolDefinitionView view;
    try {
      view = krino::agent::view_tool_definition(entry, where);
    } catch (const krino::Error& e) {
      throw InvalidJudgeRequest(e.what());
    }
    JudgeTool tool{std::string(view.name), std::string(view.description), {}};
    if (view.parameters != nullptr) tool.parameters = *view.parameters;
    else tool.parameters = json::object{{"type", "object"}, {"properties", json::object{}}};
    for (const auto& earlier : tools)
      if (earlier.name == tool.name) invalid("tools name '" + tool.name + "' twice");
    tools.push_back(std::move(tool));
  }
  return tools;
}

std::string read_tool_choice(const json::object& request, const std::vector<JudgeTool>& tools) {
  const auto* value = member(request, "tool_choice");
  if (value == nullptr) return {};
  if (!value->is_string()) invalid("tool_choice must be auto, none, required or a tool's name");
  std::string choice(value->get_string());
  if (choice == "auto" || choice == "none" || choice == "required") return choice;
  for (const auto& tool : tools)
    if (tool.name == choice) return choice;
  invalid("tool_choice '" + choice + "' is neither auto, none, required nor the name of one of the request's tools");
}

}  // namespace

JudgeRequest resolve_judge_request(const json::object& request, const LlmConfig& config) {
  JudgeRequest resolved;
  resolved.messages = read_messages(request);
  resolved.tools = read_tools(request);
  resolved.tool_choice = read_tool_choice(request, resolved.tools);

  if (const auto* format = member(request, "response_format")) {
    if (!format->is_string() || (format->get_string() != "json" && format->get_string() != "text"))
      invalid("response_format must be \"json\" or \"text\"");
    resolved.json_reply = format->get_string() == "json";
  }

  resolved.temperature = config.temperature;
  if (const auto* temperature = member(request, "temperature")) {
    if (!temperature->is_number() || temperature->to_number<double>() < 0.0)
      invalid("temperature must be a number >= 0");
    resolved.temperature = temperature->to_number<double>();
  }

  resolved.max_tokens = config.max_tokens;
  if (auto max_tokens = integer(request, "max_tokens")) {
    if (*max_tokens < 1) invalid("max_tokens must be at least 1");
    resolved.max_tokens = max_tokens;
  }

  resolved.seed = config.seed;
  if (auto seed = integer(request, "seed")) resolved.seed = seed;
  return resolved;
}

}  // namespace krino::core
