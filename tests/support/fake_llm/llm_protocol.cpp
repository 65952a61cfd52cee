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
  return request;
}

std::string render_completion(const LlmRequest& request, const Reply& reply, std::uint64_t sequence) {
  std::string model = reply.model.value_or(request.model.empty() ? "fake-model" : request.model);
  std::uint64_t input = reply.usage.input_tokens.value_or(estimate_tokens(request.prompt));
  std::uint64_t output = reply.usage.output_tokens.value_or(estimate_tokens(reply.content));
  json::object out;
  if (request.endpoint == Endpoint::openai_chat) {
    out["id"] = "chatcmpl-fake-" + std::to_string(sequence);
    out["object"] = "chat.completion";
    out["created"] = 0;  // fixed so replies are reproducible
    out["model"] = model;
    out["choices"] = json::array{json::object{
        {"index", 0},
        {"message", json::object{{"role", "assistant"}, {"content", reply.content}}},
        {"finish_reason", reply.stop_reason.value_or("stop")}}};
    out["usage"] = json::object{{"prompt_tokens", input}, {"completion_tokens", output}, {"total_tokens", input + output}};
  } else {
    out["id"] = "msg_fake_" + std::to_string(sequence);
    out["type"] = "message";
    out["role"] = "assistant";
    out["model"] = model;
    out["content"] = json::array{json::object{{"type", "text"}, {"text", reply.content}}};
    out["stop_reason"] = reply.stop_reason.value_or("end_turn");
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
