#include "langchain_messages.hpp"

#include <krino/json_text.hpp>
#include <krino/plugin.hpp>
#include <krino/support/trace/document_shape.hpp>
#include <krino/support/trace/openai_messages.hpp>
#include <krino/support/trace/tool_arguments.hpp>

#include <string_view>
#include <vector>

namespace krino::langsmith {
namespace {

// The role a LangChain type stands for ("" for an unknown type).
std::string role_of_type(std::string type) {
  for (char& c : type)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  const auto strip = [&type](std::string_view suffix) {
    if (type.size() > suffix.size() && type.compare(type.size() - suffix.size(), suffix.size(), suffix) == 0)
      type.resize(type.size() - suffix.size());
  };
  strip("messagechunk");
  strip("message");
  if (type == "human" || type == "user") return "user";
  if (type == "ai" || type == "assistant") return "assistant";
  if (type == "system" || type == "developer") return "system";
  if (type == "tool" || type == "function") return "tool";
  if (type == "chat") return "chat";
  return {};
}

struct Fields {
  std::string role;
  const boost::json::object* body = nullptr;
};

// The role and the fields of a message in any LangChain form; role "" when it is none of them.
Fields fields_of(const boost::json::object& message) {
  if (const boost::json::object* kwargs = trace::find_object(message, "kwargs")) {
    const boost::json::array* id = trace::find_array(message, "id");
    if (id != nullptr && !id->empty() && id->back().is_string())
      return {role_of_type(std::string(id->back().get_string())), kwargs};
    return {};
  }
  const std::string type = trace::string_member(message, "type");
  if (const boost::json::object* data = trace::find_object(message, "data"); data != nullptr && !type.empty())
    return {role_of_type(type), data};
  if (!type.empty()) return {role_of_type(type), &message};
  return {};
}

void add_calls(trace::TraceBuilder& builder, const boost::json::object& body, std::vector<agent::ToolCall>& calls,
               const std::string& where) {
  if (const boost::json::array* list = trace::find_array(body, "tool_calls"); list != nullptr && !list->empty()) {
    for (const boost::json::value& entry : *list) {
      if (!entry.is_object()) continue;
      const boost::json::object& call = entry.get_object();
      std::string name = trace::string_member(call, "name");
      if (name.empty()) {
        builder.note(where + ": a tool call without a name was skipped");
        continue;
      }
      const boost::json::value* args = call.if_contains("args");
      if (args == nullptr) args = call.if_contains("arguments");
      calls.push_back(trace::make_tool_call(trace::string_member(call, "id"), std::move(name), args));
    }
  } else if (const boost::json::object* extra = trace::find_object(body, "additional_kwargs")) {
    // The provider's raw calls (OpenAI form), as older LangChain versions keep them.
    if (const boost::json::array* raw = trace::find_array(*extra, "tool_calls")) {
      boost::json::object message{{"role", "assistant"}, {"tool_calls", *raw}};
      trace::TraceBuilder scratch;
      trace::add_chat_message(scratch, message, where);
      for (agent::ToolCall* call : scratch.conversation_calls()) calls.push_back(*call);
    }
  }
  if (const boost::json::array* invalid = trace::find_array(body, "invalid_tool_calls")) {
    for (const boost::json::value& entry : *invalid) {
      if (!entry.is_object()) continue;
      const boost::json::object& call = entry.get_object();
      std::string name = trace::string_member(call, "name");
      if (name.empty()) continue;
      agent::ToolCall made = trace::make_tool_call(trace::string_member(call, "id"), std::move(name), call.if_contains("args"));
      const std::string error = trace::string_member(call, "error");
      if (!error.empty()) made.metadata["argumentsError"] = error;
      calls.push_back(std::move(made));
    }
  }
}

}  // namespace

bool is_langchain_message(const boost::json::value& value) {
  if (!value.is_object()) return false;
  const boost::json::object& message = value.get_object();
  if (message.contains("role") && !message.contains("type")) return true;
  return !fields_of(message).role.empty();
}

void add_langchain_message(trace::TraceBuilder& builder, const boost::json::value& value, const std::string& where) {
  if (!value.is_object()) throw invalid_argument(where + " is " + trace::describe_document(value) + ", not a message object");
  const boost::json::object& message = value.get_object();
  Fields fields = fields_of(message);
  if (fields.role.empty()) {
    if (message.contains("role")) {
      trace::add_chat_message(builder, value, where);
      return;
    }
    builder.note(where + " is not a message LangChain writes and was skipped");
    return;
  }
  const boost::json::object& body = *fields.body;
  std::optional<std::string> content = trace::content_text(body.if_contains("content"));
  if (fields.role == "chat") fields.role = trace::string_member(body, "role");
  if (fields.role == "tool") {
    builder.tool_result(trace::string_member(body, "tool_call_id"), trace::string_member(body, "name"), content.value_or(""),
                        trace::string_member(body, "status") == "error");
    return;
  }
  if (fields.role != "assistant") {
    builder.message(fields.role.empty() ? "user" : fields.role, std::move(content));
    return;
  }
  if (const boost::json::object* extra = trace::find_object(body, "additional_kwargs"))
    builder.reasoning(trace::string_member(*extra, "reasoning_content"));
  // Anthropic-style content blocks inside an AI message: only the text is content.
  if (const boost::json::array* blocks = trace::find_array(body, "content")) {
    boost::json::array texts;
    for (const boost::json::value& block : *blocks) {
      if (block.is_string()) texts.push_back(block);
      else if (block.is_object() && trace::string_member(block.get_object(), "type") == "text") texts.push_back(block);
      else if (block.is_object() && trace::string_member(block.get_object(), "type") == "thinking")
        builder.reasoning(trace::string_member(block.get_object(), "thinking"));
    }
    const boost::json::value text_blocks(std::move(texts));
    content = text_blocks.get_array().empty() ? std::nullopt : trace::content_text(&text_blocks);
  }
  if (content && content->empty()) content.reset();
  std::vector<agent::ToolCall> calls;
  add_calls(builder, body, calls, where);
  builder.assistant(std::move(content), std::move(calls));
}

trace::ModelCall message_model_call(const boost::json::value& message) {
  trace::ModelCall call;
  if (!message.is_object()) return call;
  const Fields fields = fields_of(message.get_object());
  if (fields.body == nullptr) return call;
  if (const boost::json::object* usage = trace::find_object(*fields.body, "usage_metadata"))
    call.usage = trace::read_langchain_usage(*usage);
  if (const boost::json::object* metadata = trace::find_object(*fields.body, "response_metadata")) {
    call.model = trace::string_member(*metadata, "model_name");
    if (call.model.empty()) call.model = trace::string_member(*metadata, "model");
  }
  return call;
}

}  // namespace krino::langsmith
