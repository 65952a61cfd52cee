#include "responses_extractor.hpp"

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

namespace krino::openai {
namespace {

// Items the model produces; with "message" (when typed) they mark a list as Responses items.
bool is_model_item_type(std::string_view type) {
  return type == "function_call" || type == "function_call_output" || type == "reasoning" ||
         type == "custom_tool_call" || type == "custom_tool_call_output" || type == "mcp_call" ||
         type == "web_search_call" || type == "file_search_call" || type == "code_interpreter_call" ||
         type == "computer_call" || type == "computer_call_output" || type == "image_generation_call" ||
         type == "local_shell_call" || type == "local_shell_call_output" || type == "item_reference";
}

bool has_typed_items(const boost::json::value& items) {
  if (!items.is_array()) return false;
  for (const boost::json::value& item : items.get_array()) {
    if (!item.is_object()) return false;
    const std::string type = trace::string_member(item.get_object(), "type");
    if (is_model_item_type(type) || type == "message") return true;
  }
  return false;
}

bool is_response_body(const boost::json::object& body) {
  const boost::json::value* output = body.if_contains("output");
  if (output == nullptr || !output->is_array()) return false;
  return trace::string_member(body, "object") == "response" || has_typed_items(*output);
}

bool is_responses_request_body(const boost::json::object& body) {
  // "model" is required in a request; without it only typed items say this is the Responses API
  // (a bare {"input": "..."} is just as likely a dataset row).
  const boost::json::value* input = body.if_contains("input");
  if (input == nullptr || !(input->is_array() || input->is_string()) || body.contains("messages")) return false;
  return !trace::string_member(body, "model").empty() || has_typed_items(*input);
}

bool is_responses_exchange(const trace::Exchange& exchange) {
  return (exchange.response != nullptr && is_response_body(*exchange.response)) ||
         (exchange.request != nullptr && is_responses_request_body(*exchange.request) && exchange.response == nullptr);
}

// Reads items into the builder, keeping the assistant items of one turn together.
class ItemReader {
 public:
  explicit ItemReader(trace::TraceBuilder& builder) : builder_(builder) {}

  void read(const boost::json::array& items, const std::string& where) {
    std::size_t index = 0;
    for (const boost::json::value& item : items) read_item(item, where + " item " + std::to_string(index++));
  }

  // Ends the open assistant turn, if any.
  void flush() {
    if (!open_) return;
    builder_.assistant(std::move(open_->content), std::move(open_->calls));
    open_.reset();
  }

 private:
  struct OpenTurn {
    std::optional<std::string> content;
    std::vector<agent::ToolCall> calls;
  };

  OpenTurn& open_turn() {
    if (!open_) open_.emplace();
    return *open_;
  }

  static std::optional<std::string> message_text(const boost::json::object& item) {
    const boost::json::value* content = item.if_contains("content");
    if (content != nullptr && content->is_array()) {
      // output_text / input_text parts carry "text"; a refusal part carries "refusal".
      std::string text;
      bool any = false;
      for (const boost::json::value& part : content->get_array()) {
        if (!part.is_object()) continue;
        const boost::json::object& p = part.get_object();
        std::string piece = trace::string_member(p, "text");
        if (piece.empty()) piece = trace::string_member(p, "refusal");
        if (piece.empty() && !p.contains("text")) continue;
        if (any) text += '\n';
        text += piece;
        any = true;
      }
      if (any) return text;
    }
    return trace::content_text(content);
  }

  void read_message(const boost::json::object& item, std::string role) {
    for (char& c : role)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (role == "developer") role = "system";
    if (role != "assistant") {
      flush();
      builder_.message(std::move(role), message_text(item));
      return;
    }
    if (open_ && (open_->content || !open_->calls.empty())) flush();
    open_turn().content = message_text(item);
  }

  void read_result(const boost::json::object& item) {
    flush();
    const boost::json::value* output = item.if_contains("output");
    builder_.tool_result(trace::string_member(item, "call_id"), "", trace::content_text(output).value_or(""));
  }

  // A tool run by the platform itself: the arguments are what the item says it did.
  void read_builtin_call(const boost::json::object& item, const std::string& type) {
    std::string name = type.substr(0, type.size() - std::string_view("_call").size());
    agent::ToolCall call = trace::make_tool_call(trace::string_member(item, "id"), name, nullptr);
    if (!trace::string_member(item, "call_id").empty()) call.id = trace::string_member(item, "call_id");
    for (const char* key : {"action", "queries", "code", "container_id", "prompt"})
      if (const boost::json::value* value = item.if_contains(key); value != nullptr && !value->is_null())
        call.arguments[key] = *value;
    for (const char* key : {"results", "outputs", "result"})
      if (const boost::json::value* value = item.if_contains(key); value != nullptr && !value->is_null()) {
        call.result = value->is_string() ? std::string(value->get_string()) : json::to_compact_json(*value);
        break;
      }
    call.metadata["builtIn"] = true;
    open_turn().calls.push_back(std::move(call));
  }

  void read_item(const boost::json::value& value, const std::string& where) {
    if (!value.is_object()) throw invalid_argument(where + " is " + trace::describe_document(value) + ", not an item");
    const boost::json::object& item = value.get_object();
    const std::string type = trace::string_member(item, "type");
    const std::string role = trace::string_member(item, "role");
    if (type == "message" || (type.empty() && !role.empty())) {
      if (role.empty()) {
        builder_.note(where + " is a message without a role and was skipped");
        return;
      }
      read_message(item, role);
    } else if (type == "function_call" || type == "custom_tool_call") {
      std::string call_id = trace::string_member(item, "call_id");
      if (call_id.empty()) call_id = trace::string_member(item, "id");
      std::string name = trace::string_member(item, "name");
      if (name.empty()) {
        builder_.note(where + " is a tool call without a name and was skipped");
        return;
      }
      agent::ToolCall call = trace::make_tool_call(std::move(call_id), std::move(name),
                                                   type == "function_call" ? item.if_contains("arguments") : nullptr);
      if (type == "custom_tool_call")
        if (const boost::json::value* input = item.if_contains("input"); input != nullptr && !input->is_null())
          call.arguments["input"] = *input;
      open_turn().calls.push_back(std::move(call));
    } else if (type == "function_call_output" || type == "custom_tool_call_output" || type == "computer_call_output" ||
               type == "local_shell_call_output") {
      read_result(item);
    } else if (type == "reasoning") {
      bool readable = false;
      for (const char* key : {"summary", "content"})
        if (const boost::json::array* parts = trace::find_array(item, key))
          for (const boost::json::value& part : *parts)
            if (part.is_object()) {
              std::string text = trace::string_member(part.get_object(), "text");
              readable = readable || !text.empty();
              builder_.reasoning(std::move(text));
            }
      if (!readable && item.contains("encrypted_content"))
        builder_.note("reasoning the provider returned encrypted only is not part of the reasoning steps");
    } else if (type == "mcp_call") {
      agent::ToolCall call =
          trace::make_tool_call(trace::string_member(item, "id"), trace::string_member(item, "name"), item.if_contains("arguments"));
      if (call.name.empty()) {
        builder_.note(where + " is an MCP call without a name and was skipped");
        return;
      }
      if (const boost::json::value* output = item.if_contains("output"); output != nullptr && !output->is_null())
        call.result = trace::content_text(output);
      if (const boost::json::value* error = item.if_contains("error"); error != nullptr && !error->is_null()) {
        if (!call.result) call.result = trace::content_text(error);
        call.metadata["isError"] = true;
      }
      const std::string server = trace::string_member(item, "server_label");
      if (!server.empty()) call.metadata["mcpServer"] = server;
      open_turn().calls.push_back(std::move(call));
    } else if (type.size() > 5 && type.compare(type.size() - 5, 5, "_call") == 0) {
      read_builtin_call(item, type);
    } else {
      builder_.note(where + (type.empty() ? std::string(" has no type") : " of type '" + type + "'") +
                    " is not part of the trace");
    }
  }

  trace::TraceBuilder& builder_;
  std::optional<OpenTurn> open_;
};

void read_request(ItemReader& items, trace::TraceBuilder& builder, const boost::json::object& request) {
  const std::string instructions = trace::string_member(request, "instructions");
  if (!instructions.empty()) builder.message("system", instructions);
  const boost::json::value* input = request.if_contains("input");
  if (input == nullptr) return;
  if (input->is_string()) builder.message("user", std::string(input->get_string()));
  else if (input->is_array()) items.read(input->get_array(), "input");
  items.flush();
}

void read_response(ItemReader& items, trace::TraceBuilder& builder, const boost::json::object& response) {
  items.read(response.at("output").get_array(), "output");
  items.flush();
  const std::string status = trace::string_member(response, "status");
  if (!status.empty() && status != "completed") {
    std::string reason;
    if (const boost::json::object* details = trace::find_object(response, "incomplete_details"))
      reason = trace::string_member(*details, "reason");
    builder.note("the response's status is '" + status + "'" + (reason.empty() ? "" : " (" + reason + ")"));
  }
  if (const boost::json::object* error = trace::find_object(response, "error"))
    builder.note("the response reports an error: " + trace::string_member(*error, "message"));
}

}  // namespace

int ResponsesExtractor::detect(const boost::json::value& raw) {
  if (const std::optional<trace::Recording> recording = trace::Recording::read(raw))
    return trace::recording_confidence(*recording, is_response_body, is_responses_exchange);
  if (raw.is_array()) return has_typed_items(raw) ? 80 : 0;
  if (!raw.is_object()) return 0;
  const boost::json::object& body = raw.get_object();
  if (is_response_body(body)) return trace::string_member(body, "object") == "response" ? 95 : 85;
  if (is_responses_request_body(body)) return has_typed_items(body.at("input")) ? 70 : 35;
  return 0;
}

trace::Trace ResponsesExtractor::extract(const boost::json::value& raw) {
  trace::TraceBuilder builder;
  ItemReader items(builder);
  if (const std::optional<trace::Recording> recording = trace::Recording::read(raw)) {
    trace::add_recording(
        builder, *recording, is_responses_exchange,
        [&](const trace::Exchange& exchange) {
          if (exchange.request != nullptr) read_request(items, builder, *exchange.request);
          if (exchange.response != nullptr && is_response_body(*exchange.response))
            read_response(items, builder, *exchange.response);
        },
        "Responses");
    return builder.finish();
  }
  if (raw.is_array()) {
    items.read(raw.get_array(), "input");
    items.flush();
    return builder.finish();
  }
  if (raw.is_object()) {
    const boost::json::object& body = raw.get_object();
    if (is_response_body(body)) {
      read_response(items, builder, body);
      builder.model_call(trace::read_model_call(body));
      return builder.finish();
    }
    if (is_responses_request_body(body)) {
      read_request(items, builder, body);
      return builder.finish();
    }
  }
  throw invalid_argument(
      "not an OpenAI Responses trace: expected a response body with 'output', a request body with 'input', "
      "a list of items or recorded request/response exchanges; found " +
      trace::describe_document(raw));
}

}  // namespace krino::openai
