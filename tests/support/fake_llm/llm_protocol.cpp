#include "llm_protocol.hpp"

#include <boost/json.hpp>
#include <stdexcept>

namespace krino::fake_llm {
namespace json = boost::json;
namespace {

// Content is either a string or an array of blocks; only text blocks carry prompt text.
void append_text(const json::value& content, std::string& out) {
  auto add = [&out](json::string_view text) {
    if (!out.empty()) out += '\n';
    out.append(text.data(), text.size());
  };
  if (content.is_string()) {
    add(content.get_string());
  } else if (content.is_array()) {
    for (const auto& block : content.get_array()) {
      if (!block.is_object()) continue;
      const auto* text = block.get_object().if_contains("text");
      if (text != nullptr && text->is_string()) add(text->get_string());
    }
  }
}

// About four bytes per token, never zero: plausible and deterministic.
std::uint64_t estimate_tokens(std::string_view text) { return text.size() / 4 + 1; }

std::string_view anthropic_error_type(unsigned status) {
  switch (status) {
    case 400: return "invalid_request_error";
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 429: return "rate_limit_error";
    case 529: return "overloaded_error";
    default: return "api_error";
  }
}

std::string_view openai_error_type(unsigned status) {
  switch (status) {
    case 400: case 401: case 404: case 405: return "invalid_request_error";
    case 429: return "rate_limit_error";
    default: return "server_error";
  }
}

}  // namespace

LlmRequest parse_llm_request(Endpoint endpoint, std::string_view body) {
  if (endpoint == Endpoint::app) {
    LlmRequest request;
    request.endpoint = endpoint;
    request.prompt = std::string(body);
    request.body = std::string(body);
    return request;
  }
  json::error_code ec;
  json::value root = json::parse(json::string_view(body.data(), body.size()), ec);
  if (ec || !root.is_object()) throw std::invalid_argument("request body is not a JSON object");
  const auto& object = root.get_object();
  LlmRequest request;
  request.endpoint = endpoint;
  if (const auto* model = object.if_contains("model"); model != nullptr && model->is_string()) {
    request.model = std::string(model->get_string());
  }
  // Anthropic carries the system prompt beside the messages; OpenAI inside them.
  if (const auto* system = object.if_contains("system")) append_text(*system, request.prompt);
  if (const auto* messages = object.if_contains("messages"); messages != nullptr && messages->is_array()) {
    for (const auto& message : messages->get_array()) {
      if (!message.is_object()) continue;
      if (const auto* content = message.get_object().if_contains("content")) append_text(*content, request.prompt);
    }
  }
  // Responses: `instructions`, then `input` (a string, or items: messages and tool outputs).
  if (const auto* instructions = object.if_contains("instructions")) append_text(*instructions, request.prompt);
  if (const auto* input = object.if_contains("input")) {
    if (input->is_string()) append_text(*input, request.prompt);
    else if (input->is_array())
      for (const auto& item : input->get_array()) {
        if (!item.is_object()) continue;
        if (const auto* content = item.get_object().if_contains("content")) append_text(*content, request.prompt);
        if (const auto* output = item.get_object().if_contains("output")) append_text(*output, request.prompt);
      }
  }
  return request;
}

namespace {

std::string call_id(const ToolCallReply& call, std::string_view prefix, std::uint64_t sequence, std::size_t index) {
  if (!call.id.empty()) return call.id;
  return std::string(prefix) + std::to_string(sequence) + "_" + std::to_string(index);
}

// An argument text that is not a JSON object is sent as an empty object where the API wants an
// object (Anthropic's `input`): the APIs that carry a string keep it as it is.
json::value arguments_object(const std::string& text) {
  json::error_code ec;
  json::value value = json::parse(text, ec);
  if (ec || !value.is_object()) return json::object{};
  return value;
}

std::string render_app(const LlmRequest& request, const Reply& reply) {
  if (reply.body) return *reply.body;
  if (!reply.content.empty()) return json::serialize(json::object{{"output", reply.content}});
  // No scripted body: echo what was asked, so a client's templating can be checked end to end.
  json::error_code ec;
  json::value body = json::parse(request.body, ec);
  if (ec) body = json::string(request.body);
  return json::serialize(json::object{{"echo", std::move(body)}, {"method", request.method}, {"path", request.path}});
}

}  // namespace

std::string render_completion(const LlmRequest& request, const Reply& reply, std::uint64_t sequence) {
  std::string model = reply.model.value_or(request.model.empty() ? "fake-model" : request.model);
  std::uint64_t input = reply.usage.input_tokens.value_or(estimate_tokens(request.prompt));
  if (request.endpoint == Endpoint::app) return render_app(request, reply);
  std::string generated = reply.content;
  for (const auto& call : reply.tool_calls) generated += call.name + call.arguments;
  std::uint64_t output = reply.usage.output_tokens.value_or(estimate_tokens(generated));
  const bool calls = !reply.tool_calls.empty();
  json::object out;
  if (request.endpoint == Endpoint::openai_chat) {
    out["id"] = "chatcmpl-fake-" + std::to_string(sequence);
    out["object"] = "chat.completion";
    out["created"] = 0;  // fixed so replies are reproducible
    out["model"] = model;
    json::object message{{"role", "assistant"}};
    // As the API does: a message that only calls tools has null content.
    message["content"] = calls && reply.content.empty() ? json::value(nullptr) : json::value(reply.content);
    if (calls) {
      json::array tool_calls;
      for (std::size_t i = 0; i < reply.tool_calls.size(); ++i) {
        const auto& call = reply.tool_calls[i];
        tool_calls.push_back(json::object{{"id", call_id(call, "call_fake_", sequence, i)},
                                          {"type", "function"},
                                          {"function", json::object{{"name", call.name}, {"arguments", call.arguments}}}});
      }
      message["tool_calls"] = std::move(tool_calls);
    }
    out["choices"] = json::array{json::object{{"index", 0},
                                              {"message", std::move(message)},
                                              {"finish_reason", reply.stop_reason.value_or(calls ? "tool_calls" : "stop")}}};
    out["usage"] = json::object{{"prompt_tokens", input}, {"completion_tokens", output}, {"total_tokens", input + output}};
  } else if (request.endpoint == Endpoint::openai_responses) {
    out["id"] = "resp_fake_" + std::to_string(sequence);
    out["object"] = "response";
    out["created_at"] = 0;
    out["status"] = "completed";
    out["model"] = model;
    json::array items;
    for (std::size_t i = 0; i < reply.tool_calls.size(); ++i) {
      const auto& call = reply.tool_calls[i];
      items.push_back(json::object{{"type", "function_call"},
                                   {"id", "fc_fake_" + std::to_string(sequence) + "_" + std::to_string(i)},
                                   {"call_id", call_id(call, "call_fake_", sequence, i)},
                                   {"name", call.name},
                                   {"arguments", call.arguments},
                                   {"status", "completed"}});
    }
    if (!calls || !reply.content.empty()) {
      items.push_back(json::object{
          {"type", "message"},
          {"id", "msg_fake_" + std::to_string(sequence)},
          {"role", "assistant"},
          {"status", "completed"},
          {"content", json::array{json::object{{"type", "output_text"}, {"text", reply.content}, {"annotations", json::array{}}}}}});
    }
    out["output"] = std::move(items);
    out["usage"] = json::object{{"input_tokens", input}, {"output_tokens", output}, {"total_tokens", input + output}};
  } else {
    out["id"] = "msg_fake_" + std::to_string(sequence);
    out["type"] = "message";
    out["role"] = "assistant";
    out["model"] = model;
    json::array content;
    if (!calls || !reply.content.empty()) content.push_back(json::object{{"type", "text"}, {"text", reply.content}});
    for (std::size_t i = 0; i < reply.tool_calls.size(); ++i) {
      const auto& call = reply.tool_calls[i];
      content.push_back(json::object{{"type", "tool_use"},
                                     {"id", call_id(call, "toolu_fake_", sequence, i)},
                                     {"name", call.name},
                                     {"input", arguments_object(call.arguments)}});
    }
    out["content"] = std::move(content);
    out["stop_reason"] = reply.stop_reason.value_or(calls ? "tool_use" : "end_turn");
    out["stop_sequence"] = nullptr;
    out["usage"] = json::object{{"input_tokens", input}, {"output_tokens", output}};
  }
  return json::serialize(out);
}

std::string render_error(Endpoint endpoint, unsigned status, std::string_view message) {
  json::string text(message.data(), message.size());
  if (endpoint == Endpoint::anthropic_messages) {
    return json::serialize(json::object{
        {"type", "error"}, {"error", json::object{{"type", anthropic_error_type(status)}, {"message", text}}}});
  }
  return render_plain_error(status, message);
}

std::string render_plain_error(unsigned status, std::string_view message) {
  json::string text(message.data(), message.size());
  return json::serialize(json::object{
      {"error", json::object{{"message", text}, {"type", openai_error_type(status)}, {"code", status}}}});
}

}  // namespace krino::fake_llm
