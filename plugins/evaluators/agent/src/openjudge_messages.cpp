#include "openjudge_messages.h"

#include <krino/evaluator_options.hpp>
#include "openjudge_python_repr.h"

namespace krino::agent::openjudge {

MessagesLocation::MessagesLocation(const Config& config)
    : key_(read_key_option(config, "messages_key", kDefaultKey)), falls_back_(!config.has("messages_key")) {}

const boost::json::array* MessagesLocation::find(const TestCase& test_case) const {
  const boost::json::value* found = test_case.find(Section::actual_outputs, key_);
  std::string used = key_;
  if (found != nullptr && found->is_null()) found = nullptr;
  if (found == nullptr && falls_back_) {
    found = test_case.find(Section::actual_outputs, kFallbackKey);
    used = kFallbackKey;
    if (found != nullptr && found->is_null()) found = nullptr;
  }
  if (found == nullptr) return nullptr;
  if (!found->is_array()) throw invalid_argument("actualOutputs." + used + " must be a list of messages");
  return &found->get_array();
}

std::string MessagesLocation::describe_missing() const {
  if (falls_back_)
    return std::string("no messages to judge: actualOutputs has neither '") + kDefaultKey + "' nor '" + kFallbackKey + "'";
  return "no messages to judge: actualOutputs has no '" + key_ + "'";
}

const boost::json::object& message_at(const boost::json::array& messages, std::size_t index) {
  const boost::json::value& entry = messages.at(index);
  if (!entry.is_object()) throw invalid_argument("message " + std::to_string(index) + " is not an object");
  const boost::json::object& message = entry.get_object();
  if (const auto* wrapped = message.if_contains("message"); wrapped != nullptr && wrapped->is_object())
    return wrapped->get_object();
  return message;
}

std::string role_of(const boost::json::object& message) {
  const auto* role = message.if_contains("role");
  return role != nullptr && role->is_string() ? std::string(role->get_string()) : std::string();
}

ToolCallView read_tool_call(const boost::json::object& call) {
  const boost::json::object* function = &call;
  if (const auto* f = call.if_contains("function"); f != nullptr && f->is_object()) function = &f->get_object();
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
    const boost::json::object* call = &entry.get_object();
    if (const auto* wrapped = call->if_contains("tool_call"); wrapped != nullptr && wrapped->is_object())
      call = &wrapped->get_object();
    calls.push_back(read_tool_call(*call));
  }
  return calls;
}

std::string content_text(const boost::json::object& message) {
  const auto* content = message.if_contains("content");
  if (content == nullptr || !python_truthy(*content)) return {};
  if (content->is_string()) return std::string(content->get_string());
  if (!content->is_array()) return python_str(*content);
  std::string text;
  for (const auto& part : content->get_array()) {
    const auto* part_text = part.is_object() ? part.get_object().if_contains("text") : nullptr;
    if (part_text == nullptr || !part_text->is_string()) continue;
    if (!text.empty()) text += '\n';
    text += part_text->get_string();
  }
  return text;
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
