#include "genai_messages.hpp"

#include <krino/json_text.hpp>
#include <krino/plugin.hpp>
#include <krino/support/trace/document_shape.hpp>
#include <krino/support/trace/tool_arguments.hpp>

#include <vector>
#include <krino/json_parse.hpp>

namespace krino::otel {
namespace {

// The text parts of a message, joined by newlines; nullopt when it has none.
std::optional<std::string> joined_text(const boost::json::array& parts) {
  std::optional<std::string> text;
  for (const boost::json::value& part : parts) {
    if (!part.is_object() || trace::string_member(part.get_object(), "type") != "text") continue;
    const std::string piece = trace::text_or_compact_json(part.get_object().if_contains("content"));
    text = text ? *text + "\n" + piece : piece;
  }
  return text;
}

void add_message(trace::TraceBuilder& builder, const boost::json::value& value, const std::string& where) {
  if (!value.is_object()) throw invalid_argument(where + " is " + trace::describe_document(value) + ", not a message object");
  const boost::json::object& message = value.get_object();
  std::string role = trace::string_member(message, "role");
  const boost::json::array* parts = trace::find_array(message, "parts");
  if (role.empty()) {
    builder.note(where + " has no role and was skipped");
    return;
  }
  static const boost::json::array no_parts;
  if (parts == nullptr) parts = &no_parts;

  if (role == "assistant") {
    std::vector<agent::ToolCall> calls;
    for (const boost::json::value& entry : *parts) {
      if (!entry.is_object()) continue;
      const boost::json::object& part = entry.get_object();
      const std::string type = trace::string_member(part, "type");
      if (type == "reasoning") {
        builder.reasoning(trace::text_or_compact_json(part.if_contains("content")));
      } else if (type == "tool_call" || type == "server_tool_call") {
        std::string name = trace::string_member(part, "name");
        if (name.empty()) {
          builder.note(where + ": a tool call without a name was skipped");
          continue;
        }
        const boost::json::value* arguments =
            type == "tool_call" ? part.if_contains("arguments") : part.if_contains("server_tool_call");
        agent::ToolCall call = trace::make_tool_call(trace::string_member(part, "id"), std::move(name), arguments);
        if (type == "server_tool_call") call.metadata["builtIn"] = true;
        calls.push_back(std::move(call));
      } else if (type == "server_tool_call_response") {
        // A server tool's result arrives in the same message as its call.
        const std::string id = trace::string_member(part, "id");
        for (agent::ToolCall& call : calls)
          if (!call.result && call.id == id) {
            call.result = trace::text_or_compact_json(part.if_contains("server_tool_call_response"));
            break;
          }
      }
    }
    builder.assistant(joined_text(*parts), std::move(calls));
    return;
  }
  // Tool answers may come as a "tool" message or inside another message; text goes beside them.
  bool answered = false;
  for (const boost::json::value& entry : *parts) {
    if (!entry.is_object() || trace::string_member(entry.get_object(), "type") != "tool_call_response") continue;
    const boost::json::object& part = entry.get_object();
    builder.tool_result(trace::string_member(part, "id"), trace::string_member(message, "name"),
                        trace::text_or_compact_json(part.if_contains("response")));
    answered = true;
  }
  std::optional<std::string> text = joined_text(*parts);
  if (role == "tool") {
    if (!answered) builder.tool_result("", trace::string_member(message, "name"), text.value_or(""));
  } else if (text || !answered) {
    builder.message(std::move(role), std::move(text));
  }
}

}  // namespace

bool is_genai_message_list(const boost::json::value& value) {
  if (!trace::is_list_of_objects_with(value, "role")) return false;
  for (const boost::json::value& message : value.get_array())
    if (trace::find_array(message.get_object(), "parts") == nullptr) return false;
  return true;
}

void add_genai_messages(trace::TraceBuilder& builder, const boost::json::array& messages, const std::string& where) {
  std::size_t index = 0;
  for (const boost::json::value& message : messages) add_message(builder, message, where + "[" + std::to_string(index++) + "]");
}

void add_system_instructions(trace::TraceBuilder& builder, const boost::json::value& instructions) {
  if (instructions.is_string()) {
    builder.message("system", std::string(instructions.get_string()));
    return;
  }
  if (!instructions.is_array()) return;
  std::optional<std::string> text = joined_text(instructions.get_array());
  if (text) builder.message("system", std::move(*text));
}

std::optional<boost::json::value> json_attribute(const boost::json::object& attributes, std::string_view key,
                                                 trace::TraceBuilder& builder, const std::string& where) {
  const boost::json::value* value = attributes.if_contains(key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  if (!value->is_string()) return *value;
  boost::system::error_code ec;
  boost::json::value parsed = krino::json::parse(value->get_string(), ec);
  if (ec) {
    builder.note(where + ": " + std::string(key) + " is not valid JSON (" + ec.message() + ") and was left out");
    return std::nullopt;
  }
  return parsed;
}

}  // namespace krino::otel
