#include "langchain4j_extractor.hpp"

#include <krino/plugin.hpp>
#include <krino/support/trace/document_shape.hpp>
#include <krino/support/trace/tool_arguments.hpp>
#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace krino::langchain4j {
namespace {

bool is_message_type(std::string_view type) {
  return type == "SYSTEM" || type == "USER" || type == "AI" || type == "TOOL_EXECUTION_RESULT" || type == "CUSTOM";
}

bool is_message(const boost::json::value& value) {
  return value.is_object() && is_message_type(trace::string_member(value.get_object(), "type"));
}

bool is_message_list(const boost::json::value& value) {
  if (!value.is_array() || value.get_array().empty()) return false;
  for (const boost::json::value& element : value.get_array())
    if (!is_message(element)) return false;
  return true;
}

bool is_result(const boost::json::object& object) {
  return trace::find_array(object, "toolExecutions") != nullptr ||
         trace::find_object(object, "aiMessage") != nullptr;
}

// "text", else the text of "contents" ([{"type": "TEXT", "text"}]); nullopt when neither.
std::optional<std::string> message_text(const boost::json::object& message) {
  if (const boost::json::value* text = message.if_contains("text"); text != nullptr && text->is_string())
    return std::string(text->get_string());
  if (const boost::json::array* contents = trace::find_array(message, "contents")) {
    std::optional<std::string> out;
    for (const boost::json::value& content : *contents) {
      if (!content.is_object() || trace::string_member(content.get_object(), "type") != "TEXT") continue;
      const std::string piece = trace::string_member(content.get_object(), "text");
      out = out ? *out + "\n" + piece : piece;
    }
    return out;
  }
  return std::nullopt;
}

std::vector<agent::ToolCall> requests(trace::TraceBuilder& builder, const boost::json::array& list, const std::string& where) {
  std::vector<agent::ToolCall> calls;
  for (const boost::json::value& entry : list) {
    if (!entry.is_object()) continue;
    const boost::json::object& request = entry.get_object();
    std::string name = trace::string_member(request, "name");
    if (name.empty()) {
      builder.note(where + ": a tool execution request without a name was skipped");
      continue;
    }
    calls.push_back(trace::make_tool_call(trace::string_member(request, "id"), std::move(name), request.if_contains("arguments")));
  }
  return calls;
}

void add_message(trace::TraceBuilder& builder, const boost::json::value& value, const std::string& where) {
  if (!value.is_object()) throw invalid_argument(where + " is " + trace::describe_document(value) + ", not a message object");
  const boost::json::object& message = value.get_object();
  const std::string type = trace::string_member(message, "type");
  if (type == "SYSTEM") {
    builder.message("system", message_text(message));
  } else if (type == "USER") {
    builder.message("user", message_text(message));
  } else if (type == "AI") {
    builder.reasoning(trace::string_member(message, "thinking"));
    std::vector<agent::ToolCall> calls;
    if (const boost::json::array* list = trace::find_array(message, "toolExecutionRequests")) calls = requests(builder, *list, where);
    builder.assistant(message_text(message), std::move(calls));
  } else if (type == "TOOL_EXECUTION_RESULT") {
    builder.tool_result(trace::string_member(message, "id"), trace::string_member(message, "toolName"),
                        message_text(message).value_or(""));
  } else if (type == "CUSTOM") {
    builder.note(where + " is a CUSTOM message (application data, not a chat turn) and was left out");
  } else {
    builder.note(where + (type.empty() ? std::string(" has no type") : " has the unknown type '" + type + "'") +
                 " and was skipped");
  }
}

trace::Usage token_usage(const boost::json::object& usage) {
  trace::Usage out;
  out.tokens_in = trace::count_member(usage, "inputTokenCount");
  out.tokens_out = trace::count_member(usage, "outputTokenCount");
  return out;
}

// A result or chat response: {content, toolExecutions, tokenUsage} or {aiMessage, metadata}.
void add_result(trace::TraceBuilder& builder, const boost::json::object& result) {
  trace::ModelCall call;
  if (const boost::json::array* executions = trace::find_array(result, "toolExecutions")) {
    std::size_t index = 0;
    for (const boost::json::value& entry : *executions) {
      const std::string where = "toolExecutions[" + std::to_string(index++) + "]";
      if (!entry.is_object()) throw invalid_argument(where + " is " + trace::describe_document(entry) + ", not an object");
      const boost::json::object& execution = entry.get_object();
      const boost::json::object* request = trace::find_object(execution, "request");
      if (request == nullptr) {
        builder.note(where + " has no request and was skipped");
        continue;
      }
      std::vector<agent::ToolCall> calls = requests(builder, boost::json::array{*request}, where);
      if (calls.empty()) continue;
      std::string id = calls.front().id;
      std::string name = calls.front().name;
      builder.assistant(std::nullopt, std::move(calls));
      if (const boost::json::value* output = execution.if_contains("result"); output != nullptr && !output->is_null())
        builder.tool_result(std::move(id), std::move(name), trace::content_text(output).value_or(""));
    }
  }
  const boost::json::object* metadata = trace::find_object(result, "metadata");
  if (const boost::json::object* ai = trace::find_object(result, "aiMessage")) {
    add_message(builder, boost::json::value(*ai), "aiMessage");
  } else if (const boost::json::value* content = result.if_contains("content"); content != nullptr && !content->is_null()) {
    builder.assistant(trace::content_text(content));
  }
  const boost::json::object* usage = trace::find_object(result, "tokenUsage");
  if (usage == nullptr && metadata != nullptr) usage = trace::find_object(*metadata, "tokenUsage");
  if (usage != nullptr) call.usage = token_usage(*usage);
  call.model = trace::string_member(result, "modelName");
  if (call.model.empty() && metadata != nullptr) call.model = trace::string_member(*metadata, "modelName");
  if (!call.usage.empty() || !call.model.empty()) builder.model_call(std::move(call));
}

}  // namespace

int LangChain4jExtractor::detect(const boost::json::value& raw) {
  if (is_message_list(raw)) return 90;
  if (is_message(raw)) return 85;
  if (raw.is_object()) {
    const boost::json::object& object = raw.get_object();
    if (const boost::json::value* messages = object.if_contains("messages"); messages != nullptr && is_message_list(*messages))
      return 90;
    if (is_result(object)) return 80;
  }
  return 0;
}

trace::Trace LangChain4jExtractor::extract(const boost::json::value& raw) {
  trace::TraceBuilder builder;
  const boost::json::value* list = nullptr;
  if (raw.is_array()) list = &raw;
  else if (raw.is_object() && raw.get_object().contains("messages")) list = raw.get_object().if_contains("messages");
  if (list != nullptr && list->is_array()) {
    std::size_t index = 0;
    for (const boost::json::value& message : list->get_array()) add_message(builder, message, "message " + std::to_string(index++));
    return builder.finish();
  }
  if (is_message(raw)) {
    add_message(builder, raw, "the message");
    return builder.finish();
  }
  if (raw.is_object() && is_result(raw.get_object())) {
    add_result(builder, raw.get_object());
    return builder.finish();
  }
  throw invalid_argument(
      "not a LangChain4j trace: expected a list of chat messages ({\"type\": \"USER\" | \"AI\" | ...}), one message, "
      "{\"messages\": [...]}, or a result with toolExecutions; found " +
      trace::describe_document(raw));
}

}  // namespace krino::langchain4j
