// OpenAI Chat Completions messages and reply bodies into a TraceBuilder. Header-only, C++17.
//
// The Chat Completions message is the lingua franca of recorded agent runs (tau-bench, LangSmith's
// OpenAI wrapper, OpenAI-compatible servers), so more than one extractor reads it:
//   {"role": "system" | "developer" | "user", "content": "..." | [{"type": "text", "text": ...}]}
//   {"role": "assistant", "content": "..." | null, "tool_calls": [{"id", "type": "function",
//    "function": {"name", "arguments": "<JSON string>"}}], "refusal"?, "reasoning_content"?}
//   {"role": "tool", "tool_call_id", "name"?, "content"}
//   legacy: an assistant "function_call": {"name", "arguments"} answered by {"role": "function", "name"}
// "developer" reads as "system" and "function" as "tool". An assistant message without content
// that refused carries its refusal text as content. Reasoning text some servers add
// ("reasoning_content", "reasoning") becomes a reasoning step.
#ifndef KRINO_SUPPORT_TRACE_OPENAI_MESSAGES_HPP
#define KRINO_SUPPORT_TRACE_OPENAI_MESSAGES_HPP

#include <krino/plugin.hpp>
#include <krino/support/trace/document_shape.hpp>
#include <krino/support/trace/tool_arguments.hpp>
#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <string>

namespace krino::trace {

namespace detail {

inline std::string lower_role(std::string role) {
  for (char& c : role)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  if (role == "developer") return "system";
  if (role == "function") return "tool";
  return role;
}

// One entry of "tool_calls": a function call, or a custom tool call ({"custom": {"name", "input"}},
// whose free-text input becomes the argument "input").
inline bool read_chat_tool_call(TraceBuilder& builder, const boost::json::value& entry, std::vector<agent::ToolCall>& calls,
                                const std::string& where) {
  if (!entry.is_object()) {
    builder.note(where + ": a tool call that is not an object was skipped");
    return false;
  }
  const boost::json::object& call = entry.get_object();
  const boost::json::object* body = find_object(call, "function");
  bool custom = false;
  if (body == nullptr && (body = find_object(call, "custom")) != nullptr) custom = true;
  if (body == nullptr) body = &call;  // a flat {"id", "name", "arguments"}
  std::string name = string_member(*body, "name");
  if (name.empty()) {
    builder.note(where + ": a tool call without a name was skipped");
    return false;
  }
  if (custom) {
    agent::ToolCall made = make_tool_call(string_member(call, "id"), std::move(name), nullptr);
    if (const boost::json::value* input = body->if_contains("input"); input != nullptr && !input->is_null())
      made.arguments["input"] = *input;
    calls.push_back(std::move(made));
  } else {
    calls.push_back(make_tool_call(string_member(call, "id"), std::move(name), body->if_contains("arguments")));
  }
  return true;
}

}  // namespace detail

// Adds one message; `where` names it in notes ("message 3"). Throws krino::Error when it is not an
// object.
inline void add_chat_message(TraceBuilder& builder, const boost::json::value& value, const std::string& where) {
  if (!value.is_object()) throw invalid_argument(where + " is " + describe_document(value) + ", not a message object");
  const boost::json::object& message = value.get_object();
  std::string role = detail::lower_role(string_member(message, "role"));
  const boost::json::array* tool_calls = find_array(message, "tool_calls");
  const boost::json::object* function_call = find_object(message, "function_call");
  if (role.empty() && (tool_calls != nullptr || function_call != nullptr)) role = "assistant";
  if (role.empty()) {
    builder.note(where + " has no role and was skipped");
    return;
  }
  std::optional<std::string> content = content_text(message.if_contains("content"));

  if (role == "tool") {
    builder.tool_result(string_member(message, "tool_call_id"), string_member(message, "name"), content.value_or(""));
    return;
  }
  if (role != "assistant") {
    builder.message(std::move(role), std::move(content));
    return;
  }
  for (const char* key : {"reasoning_content", "reasoning"})
    if (const boost::json::value* reasoning = message.if_contains(key); reasoning != nullptr && reasoning->is_string())
      builder.reasoning(std::string(reasoning->get_string()));
  if (!content || content->empty()) {
    const std::string refusal = string_member(message, "refusal");
    if (!refusal.empty()) content = refusal;
  }
  std::vector<agent::ToolCall> calls;
  if (tool_calls != nullptr) {
    std::size_t i = 0;
    for (const boost::json::value& entry : *tool_calls)
      detail::read_chat_tool_call(builder, entry, calls, where + " tool call " + std::to_string(i++));
  }
  if (function_call != nullptr)
    detail::read_chat_tool_call(builder, boost::json::value(*function_call), calls, where + " function_call");
  builder.assistant(std::move(content), std::move(calls));
}

// Adds a list of messages. Throws krino::Error for an element that is not an object.
inline void add_chat_messages(TraceBuilder& builder, const boost::json::array& messages) {
  std::size_t index = 0;
  for (const boost::json::value& message : messages) add_chat_message(builder, message, "message " + std::to_string(index++));
}

// Adds a Chat Completions reply body's first choice's message (the others are alternatives, not
// turns: noted). The reply's usage is the caller's to add (read_model_call). Throws krino::Error
// when the body has no 'choices' list.
inline void add_chat_completion(TraceBuilder& builder, const boost::json::object& body) {
  const boost::json::array* choices = find_array(body, "choices");
  if (choices == nullptr) throw invalid_argument("the reply has no 'choices' list");
  const boost::json::object* first = nullptr;
  for (const boost::json::value& choice : *choices) {
    if (!choice.is_object()) continue;
    const boost::json::value* index = choice.get_object().if_contains("index");
    if (first == nullptr || (index != nullptr && index->is_int64() && index->get_int64() == 0)) first = &choice.get_object();
  }
  if (choices->size() > 1)
    builder.note("the reply has " + std::to_string(choices->size()) + " choices; only choice 0 is part of the trace");
  if (first != nullptr) {
    const boost::json::value* message = first->if_contains("message");
    if (message == nullptr) message = first->if_contains("delta");
    if (message != nullptr && message->is_object()) {
      add_chat_message(builder, *message, "the reply's message");
    } else {
      builder.note("the reply's choice has no message");
    }
  }
}

}  // namespace krino::trace

#endif  // KRINO_SUPPORT_TRACE_OPENAI_MESSAGES_HPP
