#include "krino/core/llm/llm_provider.hpp"

#include "krino/core/llm/anthropic_provider.hpp"
#include "krino/core/llm/openai_provider.hpp"
#include "krino/core/llm/openai_responses_provider.hpp"
#include "provider_json.hpp"

#include <krino/utf8.hpp>

namespace krino::core {
namespace {

constexpr std::size_t kQuotedBodyLimit = 300;

// The start of a body, on one line, for an error message. The caller redacts first: a cut through
// an echoed key would leave its first characters where redact() no longer finds them.
std::string excerpt(std::string_view body) {
  std::string out = utf8::excerpt(body, kQuotedBodyLimit);
  for (char& c : out)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return out;
}

}  // namespace

ProviderHttpRequest LlmProvider::build_request(const boost::json::object& judge_request) const {
  return encode(resolve_judge_request(judge_request, config_));
}

std::string LlmProvider::label() const {
  return describe_model_role(config_) + " (" + std::string(provider_name(config_.provider)) + " " + config_.model + ")";
}

std::string LlmProvider::describe_http_error(unsigned status, std::string_view body) const {
  std::string message = label() + ": HTTP " + std::to_string(status);
  auto parsed = provider_json::parse(body);
  const auto* error = provider_json::field(parsed ? &*parsed : nullptr, "error");
  if (auto plain = provider_json::text(error)) {  // {"error": "model not found"}, as Ollama says it
    message += ": " + excerpt(redact(*plain));
  } else if (error != nullptr && error->is_object()) {
    // OpenAI: {"error": {"message", "type", "code"}}; Anthropic: {"type": "error", "error": {"type", "message"}}.
    auto kind = provider_json::text(provider_json::field(error, "code"));
    if (!kind) kind = provider_json::text(provider_json::field(error, "type"));
    if (kind) message += " " + *kind;
    if (auto detail = provider_json::text(provider_json::field(error, "message"))) message += ": " + excerpt(redact(*detail));
  } else if (!body.empty()) {
    message += ": " + excerpt(redact(body));
  }
  return redact(message);
}

void LlmProvider::reject_reply(const std::string& why, std::string_view body) const {
  throw InvalidProviderReply(redact(label() + ": " + why + "; the reply began: " + excerpt(redact(body))));
}

std::unique_ptr<LlmProvider> make_llm_provider(LlmConfig config) {
  switch (config.provider) {
    case ProviderKind::anthropic: return std::make_unique<AnthropicProvider>(std::move(config));
    case ProviderKind::openai_responses: return std::make_unique<OpenAiResponsesProvider>(std::move(config));
    case ProviderKind::openai: break;
  }
  return std::make_unique<OpenAiProvider>(std::move(config));
}

}  // namespace krino::core
