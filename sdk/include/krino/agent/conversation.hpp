// A multi-turn conversation with tool use, read from a test case (usually
// actualOutputs.conversation). Header-only, C++17.
//
// Accepted shapes: a list of messages, or {"scenario": "...", "messages": [...]}. A message is
//   {"role": "user" | "assistant" | "system" | "tool", "content": "...",
//    "toolCalls" | "tool_calls": [tool calls, see tool_call.hpp],
//    "tool_call_id" | "toolCallId": "...", "name": "..."}          (the last two on tool messages)
// which is also the OpenAI Chat Completions message form. A tool message's content becomes the
// `result` of the call it answers: the latest earlier call with the same id that has no result
// yet (or, when the message has no id, with the same name). "Latest unanswered" rather than
// "first with this id" because real traces reuse ids for different calls.
#ifndef KRINO_AGENT_CONVERSATION_HPP
#define KRINO_AGENT_CONVERSATION_HPP

#include <krino/agent/tool_call.hpp>
#include <krino/json_text.hpp>
#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace krino::agent {

struct Message {
  std::string role;  // as given, lower-cased: "user", "assistant", "system", "tool", ...
  std::string content;
  std::vector<ToolCall> tool_calls;  // the calls an assistant message made
  std::string tool_call_id;          // on a tool message: the call it answers
  std::string name;                  // on a tool message: the tool's name, when given
};

class Conversation {
 public:
  std::string scenario;
  std::vector<Message> messages;

  // Complete user/assistant exchanges: the smaller of the two message counts.
  std::size_t turn_count() const { return std::min(count("user"), count("assistant")); }

  // One list per assistant message, in order, empty for an assistant message without calls.
  // Grouped by assistant message, not by turn_count() pairs: leading or consecutive assistant
  // messages each get their own list, so entry i lines up with the i-th assistant message.
  std::vector<std::vector<ToolCall>> tool_calls_by_turn() const {
    std::vector<std::vector<ToolCall>> turns;
    for (const Message& message : messages)
      if (message.role == "assistant") turns.push_back(message.tool_calls);
    return turns;
  }

  // Every call of every message, flattened in order.
  std::vector<ToolCall> tool_calls() const {
    std::vector<ToolCall> calls;
    for (const Message& message : messages) calls.insert(calls.end(), message.tool_calls.begin(), message.tool_calls.end());
    return calls;
  }

 private:
  std::size_t count(std::string_view role) const {
    return static_cast<std::size_t>(
        std::count_if(messages.begin(), messages.end(), [&](const Message& m) { return m.role == role; }));
  }
};

namespace detail {

inline std::string lower_ascii(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

inline Message read_message(const boost::json::value& value, const std::string& where) {
  if (!value.is_object()) throw invalid_argument(where + ": a message must be a JSON object");
  const boost::json::object& object = value.get_object();
  Message message;
  message.role = lower_ascii(read_optional_string(object, "role", where));
  if (message.role.empty()) throw invalid_argument(where + ": a message needs a non-empty 'role'");
  if (const auto* content = object.if_contains("content"); content != nullptr && !content->is_null())
    message.content = json::string_form(*content);
  for (std::string_view field : {"toolCalls", "tool_calls"}) {
    const boost::json::value* calls = object.if_contains(field);
    if (calls == nullptr || calls->is_null()) continue;
    if (!calls->is_array()) throw invalid_argument(where + ": '" + std::string(field) + "' must be a list of tool calls");
    std::size_t index = 0;
    for (const boost::json::value& call : calls->get_array())
      message.tool_calls.push_back(read_tool_call(call, where + "." + std::string(field) + "[" + std::to_string(index++) + "]"));
  }
  message.tool_call_id = read_optional_string(object, object.contains("toolCallId") ? "toolCallId" : "tool_call_id", where);
  message.name = read_optional_string(object, "name", where);
  return message;
}

// Gives `result` to the latest earlier unanswered call that `tool_message` answers.
inline void attach_result(std::vector<Message>& earlier, const Message& tool_message) {
  for (auto message = earlier.rbegin(); message != earlier.rend(); ++message) {
    for (auto call = message->tool_calls.rbegin(); call != message->tool_calls.rend(); ++call) {
      if (call->result) continue;
      const bool answers = tool_message.tool_call_id.empty() ? call->name == tool_message.name
                                                             : call->id == tool_message.tool_call_id;
      if (answers) {
        call->result = tool_message.content;
        return;
      }
    }
  }
}

}  // namespace detail

// The conversation stored under `key` (used only in error messages).
inline Conversation read_conversation(const boost::json::value& value, std::string_view key) {
  Conversation conversation;
  const boost::json::value* list = &value;
  if (value.is_object()) {
    const boost::json::object& object = value.get_object();
    conversation.scenario = detail::read_optional_string(object, "scenario", "'" + std::string(key) + "'");
    list = object.if_contains("messages");
    if (list == nullptr) throw invalid_argument("'" + std::string(key) + "' has no 'messages' list");
  }
  if (!list->is_array())
    throw invalid_argument("'" + std::string(key) + "' must be a list of messages or an object with a 'messages' list");
  std::size_t index = 0;
  for (const boost::json::value& element : list->get_array()) {
    Message message = detail::read_message(element, detail::element_label(key, index++));
    if (message.role == "tool") detail::attach_result(conversation.messages, message);
    conversation.messages.push_back(std::move(message));
  }
  return conversation;
}

}  // namespace krino::agent

#endif  // KRINO_AGENT_CONVERSATION_HPP
