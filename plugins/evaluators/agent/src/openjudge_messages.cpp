#include "openjudge_messages.h"

#include "openjudge_python_repr.h"

namespace krino::agent::openjudge {

using ::krino::openjudge::call_function;
using ::krino::openjudge::joined_text_parts;
using ::krino::openjudge::unwrap_message;
using ::krino::openjudge::unwrap_tool_call;

const boost::json::object& message_at(const boost::json::array& messages, std::size_t index) {
  const boost::json::value& entry = messages.at(index);
  if (!entry.is_object()) throw invalid_argument("message " + std::to_string(index) + " is not an object");
  return unwrap_message(entry.get_object());
}

std::string role_of(const boost::json::object& message) {
  const auto* role = message.if_contains("role");
  return role != nullptr && role->is_string() ? std::string(role->get_string()) : std::string();
}

ToolCallView read_tool_call(const boost::json::object& call) {
  const boost::json::object* function = &call_function(call);
  ToolCallView view;
  if (const auto* name = function->if_contains("name"); name != nullptr && !name->is_null()) view.name = python_str(*name);
  view.arguments = function->if_contains("arguments");
  view.id = call.if_contains("id");
  return view;
}

std::vector<ToolCallView> assistant_tool_calls(const boost::json::object& message, std::size_t index) {
  std::vector<ToolCallView> calls;
  if (role_of(message) != "assistant") return calls;
  const auto* tool_calls = message.if_contains("tool_calls");
  // krino's canonical turns (what trace extractors write) spell it toolCalls.
  if (tool_calls == nullptr) tool_calls = message.if_contains("toolCalls");
  if (tool_calls == nullptr || !python_truthy(*tool_calls)) return calls;
  const std::string where = "message " + std::to_string(index);
  if (!tool_calls->is_array()) throw invalid_argument(where + ": tool_calls must be a list");
  for (const auto& entry : tool_calls->get_array()) {
    if (!entry.is_object()) throw invalid_argument(where + ": every tool call must be an object");
    calls.push_back(read_tool_call(unwrap_tool_call(entry.get_object())));
  }
  return calls;
}

std::string content_text(const boost::json::object& message) {
  const auto* content = message.if_contains("content");
  if (content == nullptr || !python_truthy(*content)) return {};
  if (content->is_string()) return std::string(content->get_string());
  if (!content->is_array()) return python_str(*content);
  return joined_text_parts(content->get_array());
}

std::vector<std::vector<ToolCallView>> tool_call_steps(const boost::json::array& messages) {
  std::vector<std::vector<ToolCallView>> steps;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    std::vector<ToolCallView> calls = assistant_tool_calls(message_at(messages, i), i);
    if (!calls.empty()) steps.push_back(std::move(calls));
  }
  return steps;
}

}  // namespace krino::agent::openjudge
