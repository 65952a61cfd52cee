#pragma once
// A provider's wire format: how a krino.judgerequest/1 becomes an HTTP request, and how the provider's
// answer (or its error body) becomes a reply (or a message). One subclass per API: OpenAI Chat
// Completions (also what vLLM, Ollama, llama.cpp server and LM Studio speak), OpenAI Responses and
// Anthropic Messages.
// No I/O here; LlmTransport does that.
//
// Every message a provider produces has the model's API key removed, even when the provider echoed it.
#include "krino/core/net/http_result.hpp"
#include "krino/core/llm/llm_config.hpp"
#include "krino/core/llm/judge_request.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

struct ProviderHttpRequest {
  Url url;
  std::vector<HttpHeader> headers;  // the key travels here and nowhere else
  std::string body;
};

// A tool call the model made. `arguments` is the JSON text of the arguments object as the model
// wrote it (it may be malformed: the caller decides what that means).
struct ProviderToolCall {
  std::string id;  // the provider's call id (call_..., toolu_...); may be empty (some OpenAI-compatible servers)
  std::string name;
  std::string arguments;
};

struct ProviderReply {
  std::string content;      // the model's text (all text blocks, joined, for Anthropic); may be empty
                            // when the model only called tools
  std::vector<ProviderToolCall> tool_calls;
  std::string model;        // as the provider names it; the configured model when it names none
  std::string stop_reason;  // "stop", "length", "end_turn", "max_tokens", ...; empty when not given
  std::optional<std::uint64_t> tokens_in;
  std::optional<std::uint64_t> tokens_out;
};

// A 2xx answer that is not a reply in the provider's shape (not JSON, no choices, a refusal, ...).
class InvalidProviderReply : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The instruction added to a json request where the provider has no JSON mode of its own (Anthropic),
// or where the prompt never says "JSON" (OpenAI's JSON mode refuses such requests).
inline constexpr std::string_view kJsonReplyInstruction =
    "Reply with one JSON object and nothing else: no code fences, no text before or after it.";

class LlmProvider {
 public:
  explicit LlmProvider(LlmConfig config) : config_(std::move(config)) {}
  virtual ~LlmProvider() = default;
  LlmProvider(const LlmProvider&) = delete;
  LlmProvider& operator=(const LlmProvider&) = delete;

  const LlmConfig& config() const { return config_; }

  // Throws InvalidJudgeRequest when `judge_request` is not a valid krino.judgerequest/1.
  ProviderHttpRequest build_request(const boost::json::object& judge_request) const;
  virtual ProviderHttpRequest encode(const JudgeRequest& request) const = 0;

  // Throws InvalidProviderReply saying what is wrong, with the start of the body.
  virtual ProviderReply parse_reply(std::string_view body) const = 0;

  // A one-line description of a non-2xx answer, with the provider's own error message when its body
  // has the usual {"error": {"message", "type"}} shape: "judge 'strict' (openai gpt-4o): HTTP 429
  // rate_limit_exceeded: Rate limit reached ...".
  std::string describe_http_error(unsigned status, std::string_view body) const;

  // "judge 'strict' (openai gpt-4o)": how messages name this model (a task: "task (openai gpt-4o)").
  std::string label() const;
  // `text` without the API key.
  std::string redact(std::string_view text) const { return config_.api_key.redact(text); }

 protected:
  [[noreturn]] void reject_reply(const std::string& why, std::string_view body) const;

 private:
  LlmConfig config_;
};

std::unique_ptr<LlmProvider> make_llm_provider(LlmConfig config);

}  // namespace krino::core
