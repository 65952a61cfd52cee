#include "chat_completions_extractor.hpp"

#include <krino/plugin.hpp>
#include <krino/support/trace/document_shape.hpp>
#include <krino/support/trace/openai_messages.hpp>
#include <krino/support/trace/recording.hpp>
#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <string_view>

namespace krino::openai {
namespace {

bool is_reply_body(const boost::json::object& body) {
  const boost::json::array* choices = trace::find_array(body, "choices");
  if (choices == nullptr) return false;
  if (trace::string_member(body, "object").rfind("chat.completion", 0) == 0) return true;
  if (choices->empty() || !choices->front().is_object()) return false;
  const boost::json::object& first = choices->front().get_object();
  return trace::find_object(first, "message") != nullptr || trace::find_object(first, "delta") != nullptr;
}

bool is_request_body(const boost::json::object& body) { return trace::find_array(body, "messages") != nullptr; }

bool is_chat_exchange(const trace::Exchange& exchange) {
  return (exchange.response != nullptr && is_reply_body(*exchange.response)) ||
         (exchange.request != nullptr && is_request_body(*exchange.request) &&
          chat_message_list_score(exchange.request->at("messages")) > 0 &&
          (exchange.response == nullptr || !exchange.response->contains("content")));
}

// Block types that only Anthropic's Messages API writes inside "content".
bool has_foreign_blocks(const boost::json::value& content) {
  if (!content.is_array()) return false;
  for (const boost::json::value& block : content.get_array()) {
    if (!block.is_object()) continue;
    const std::string type = trace::string_member(block.get_object(), "type");
    if (type == "tool_use" || type == "tool_result" || type == "thinking" || type == "redacted_thinking") return true;
  }
  return false;
}

}  // namespace

int chat_message_list_score(const boost::json::value& messages) {
  if (!trace::is_list_of_objects_with(messages, "role")) return 0;
  bool tool_traffic = false;
  for (const boost::json::value& element : messages.get_array()) {
    const boost::json::object& message = element.get_object();
    if (message.contains("parts") || message.contains("type")) return 0;  // OTel GenAI, Gemini, LangChain
    if (const boost::json::value* content = message.if_contains("content"); content != nullptr && has_foreign_blocks(*content))
      return 0;
    const std::string role = trace::string_member(message, "role");
    if (message.contains("tool_calls") || message.contains("function_call") || message.contains("tool_call_id") ||
        role == "tool" || role == "function")
      tool_traffic = true;
  }
  return tool_traffic ? 80 : 50;
}

int ChatCompletionsExtractor::detect(const boost::json::value& raw) {
  if (const std::optional<trace::Recording> recording = trace::Recording::read(raw))
    return trace::recording_confidence(*recording, is_reply_body, is_chat_exchange);
  if (raw.is_array()) return chat_message_list_score(raw);
  if (!raw.is_object()) return 0;
  const boost::json::object& body = raw.get_object();
  if (is_reply_body(body)) return 95;
  if (is_request_body(body)) {
    const int score = chat_message_list_score(body.at("messages"));
    return score == 0 ? 0 : score - 10;
  }
  return 0;
}

trace::Trace ChatCompletionsExtractor::extract(const boost::json::value& raw) {
  trace::TraceBuilder builder;
  if (const std::optional<trace::Recording> recording = trace::Recording::read(raw)) {
    trace::add_recording(
        builder, *recording, is_chat_exchange,
        [&builder](const trace::Exchange& exchange) {
          if (exchange.request != nullptr)
            if (const boost::json::array* messages = trace::find_array(*exchange.request, "messages"))
              trace::add_chat_messages(builder, *messages);
          if (exchange.response != nullptr && is_reply_body(*exchange.response))
            trace::add_chat_completion(builder, *exchange.response);
        },
        "Chat Completions");
    return builder.finish();
  }
  if (raw.is_array()) {
    trace::add_chat_messages(builder, raw.get_array());
    return builder.finish();
  }
  if (raw.is_object()) {
    const boost::json::object& body = raw.get_object();
    if (is_reply_body(body)) {
      trace::add_chat_completion(builder, body);
      builder.model_call(trace::read_model_call(body));
      return builder.finish();
    }
    if (is_request_body(body)) {
      trace::add_chat_messages(builder, body.at("messages").get_array());
      return builder.finish();
    }
  }
  throw invalid_argument(
      "not an OpenAI Chat Completions trace: expected a reply body with 'choices', a request body with 'messages', "
      "a list of messages or recorded request/response exchanges; found " +
      trace::describe_document(raw));
}

}  // namespace krino::openai
