#include "messages_extractor.hpp"

#include <krino/json_text.hpp>
#include <krino/plugin.hpp>
#include <krino/support/trace/document_shape.hpp>
#include <krino/support/trace/recording.hpp>
#include <krino/support/trace/tool_arguments.hpp>
#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::anthropic {
namespace {

bool is_anthropic_block_type(std::string_view type) {
  return type == "tool_use" || type == "tool_result" || type == "thinking" || type == "redacted_thinking" ||
         type == "server_tool_use" || type == "mcp_tool_use" || type == "mcp_tool_result" ||
         (type.size() > 12 && type.compare(type.size() - 12, 12, "_tool_result") == 0);
}

bool has_anthropic_blocks(const boost::json::object& message) {
  const boost::json::array* content = trace::find_array(message, "content");
  if (content == nullptr) return false;
  for (const boost::json::value& block : *content)
    if (block.is_object() && is_anthropic_block_type(trace::string_member(block.get_object(), "type"))) return true;
  return false;
}

bool is_reply_body(const boost::json::object& body) {
  if (trace::find_array(body, "content") == nullptr || trace::string_member(body, "role") != "assistant") return false;
  return trace::string_member(body, "type") == "message" || body.contains("stop_reason");
}

int message_list_score(const boost::json::value& messages) {
  if (!trace::is_list_of_objects_with(messages, "role")) return 0;
  for (const boost::json::value& message : messages.get_array())
    if (has_anthropic_blocks(message.get_object())) return 80;
  return 0;
}

int request_score(const boost::json::object& body) {
  const boost::json::value* messages = body.if_contains("messages");
  if (messages == nullptr) return 0;
  if (message_list_score(*messages) > 0) return 75;
  // A top-level system prompt is Anthropic's; OpenAI puts it among the messages.
  if (trace::is_list_of_objects_with(*messages, "role") && body.contains("system")) return 60;
  return 0;
}

bool is_messages_exchange(const trace::Exchange& exchange) {
  return (exchange.response != nullptr && is_reply_body(*exchange.response)) ||
         (exchange.request != nullptr && request_score(*exchange.request) > 0 && exchange.response == nullptr);
}

// The text of a "system" value: a string, or text blocks.
std::optional<std::string> system_text(const boost::json::value* system) { return trace::content_text(system); }

void read_assistant(trace::TraceBuilder& builder, const boost::json::value* content, const std::string& where) {
  if (content == nullptr || !content->is_array()) {
    builder.assistant(trace::content_text(content));
    return;
  }
  std::optional<std::string> text;
  std::vector<agent::ToolCall> calls;
  for (const boost::json::value& value : content->get_array()) {
    if (!value.is_object()) continue;
    const boost::json::object& block = value.get_object();
    const std::string type = trace::string_member(block, "type");
    if (type == "text") {
      text = text ? *text + "\n" + trace::string_member(block, "text") : trace::string_member(block, "text");
    } else if (type == "thinking") {
      builder.reasoning(trace::string_member(block, "thinking"));
    } else if (type == "redacted_thinking") {
      builder.note("redacted thinking is not part of the reasoning steps");
    } else if (type == "tool_use" || type == "server_tool_use" || type == "mcp_tool_use") {
      std::string name = trace::string_member(block, "name");
      if (name.empty()) {
        builder.note(where + ": a tool_use block without a name was skipped");
        continue;
      }
      agent::ToolCall call = trace::make_tool_call(trace::string_member(block, "id"), std::move(name), block.if_contains("input"));
      if (type != "tool_use") call.metadata["builtIn"] = true;
      if (type == "mcp_tool_use" && !trace::string_member(block, "server_name").empty())
        call.metadata["mcpServer"] = trace::string_member(block, "server_name");
      calls.push_back(std::move(call));
    } else if (type.size() > 12 && type.compare(type.size() - 12, 12, "_tool_result") == 0) {
      // A server tool's result comes back in the same assistant message as its call.
      const std::string id = trace::string_member(block, "tool_use_id");
      for (agent::ToolCall& call : calls)
        if (call.id == id && !call.result) {
          call.result = trace::content_text(block.if_contains("content")).value_or("");
          if (const boost::json::value* error = block.if_contains("is_error"); error != nullptr && error->is_bool() && error->get_bool())
            call.metadata["isError"] = true;
          break;
        }
    }
  }
  builder.assistant(std::move(text), std::move(calls));
}

void read_user(trace::TraceBuilder& builder, const std::string& role, const boost::json::value* content) {
  if (content == nullptr || !content->is_array()) {
    builder.message(role, trace::content_text(content));
    return;
  }
  boost::json::array rest;  // text and other blocks, kept in order between tool results
  const auto flush = [&] {
    if (rest.empty()) return;
    const boost::json::value blocks(std::move(rest));
    builder.message(role, trace::content_text(&blocks));
    rest = boost::json::array();
  };
  for (const boost::json::value& value : content->get_array()) {
    if (value.is_object() && trace::string_member(value.get_object(), "type") == "tool_result") {
      flush();
      const boost::json::object& block = value.get_object();
      const boost::json::value* error = block.if_contains("is_error");
      builder.tool_result(trace::string_member(block, "tool_use_id"), "",
                          trace::content_text(block.if_contains("content")).value_or(""),
                          error != nullptr && error->is_bool() && error->get_bool());
    } else {
      rest.push_back(value);
    }
  }
  flush();
}

void read_message(trace::TraceBuilder& builder, const boost::json::value& value, const std::string& where) {
  if (!value.is_object()) throw invalid_argument(where + " is " + trace::describe_document(value) + ", not a message object");
  const boost::json::object& message = value.get_object();
  std::string role = trace::string_member(message, "role");
  if (role.empty()) {
    builder.note(where + " has no role and was skipped");
    return;
  }
  if (role == "assistant") read_assistant(builder, message.if_contains("content"), where);
  else read_user(builder, role, message.if_contains("content"));
}

void read_request(trace::TraceBuilder& builder, const boost::json::object& request) {
  if (std::optional<std::string> system = system_text(request.if_contains("system")); system && !system->empty())
    builder.message("system", std::move(*system));
  if (const boost::json::array* messages = trace::find_array(request, "messages")) {
    std::size_t index = 0;
    for (const boost::json::value& message : *messages) read_message(builder, message, "message " + std::to_string(index++));
  }
}

void read_reply(trace::TraceBuilder& builder, const boost::json::object& reply) {
  read_assistant(builder, reply.if_contains("content"), "the reply");
  const std::string stop = trace::string_member(reply, "stop_reason");
  if (stop == "max_tokens" || stop == "refusal" || stop == "pause_turn")
    builder.note("the reply stopped with stop_reason '" + stop + "'");
}

}  // namespace

int MessagesExtractor::detect(const boost::json::value& raw) {
  if (const std::optional<trace::Recording> recording = trace::Recording::read(raw))
    return trace::recording_confidence(*recording, is_reply_body, is_messages_exchange);
  if (raw.is_array()) return message_list_score(raw);
  if (!raw.is_object()) return 0;
  const boost::json::object& body = raw.get_object();
  if (is_reply_body(body)) return 95;
  return request_score(body);
}

trace::Trace MessagesExtractor::extract(const boost::json::value& raw) {
  trace::TraceBuilder builder;
  if (const std::optional<trace::Recording> recording = trace::Recording::read(raw)) {
    trace::add_recording(
        builder, *recording, is_messages_exchange,
        [&builder](const trace::Exchange& exchange) {
          if (exchange.request != nullptr) read_request(builder, *exchange.request);
          if (exchange.response != nullptr && is_reply_body(*exchange.response)) read_reply(builder, *exchange.response);
        },
        "Anthropic Messages");
    return builder.finish();
  }
  if (raw.is_array()) {
    std::size_t index = 0;
    for (const boost::json::value& message : raw.get_array()) read_message(builder, message, "message " + std::to_string(index++));
    return builder.finish();
  }
  if (raw.is_object()) {
    const boost::json::object& body = raw.get_object();
    if (is_reply_body(body)) {
      read_reply(builder, body);
      builder.model_call(trace::read_model_call(body));
      return builder.finish();
    }
    if (body.contains("messages")) {
      read_request(builder, body);
      return builder.finish();
    }
  }
  throw invalid_argument(
      "not an Anthropic Messages trace: expected a reply body with 'content' blocks, a request body with "
      "'messages', a list of messages or recorded request/response exchanges; found " +
      trace::describe_document(raw));
}

}  // namespace krino::anthropic
