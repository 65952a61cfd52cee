#pragma once
// The wire shapes of the two provider APIs: reading what a request asks, writing replies and errors
// as OpenAI Chat Completions and Anthropic Messages clients expect them.
#include <cstdint>
#include <string>
#include <string_view>

#include "script.hpp"

namespace krino::fake_llm {

struct LlmRequest {
  Endpoint endpoint = Endpoint::openai_chat;
  std::string model;
  std::string prompt;  // system text and every message's text, joined with '\n': what rules match on
};

// Throws std::invalid_argument when the body is not a JSON object.
LlmRequest parse_llm_request(Endpoint endpoint, std::string_view body);

// A successful completion in the endpoint's shape. `sequence` makes response ids unique.
std::string render_completion(const LlmRequest& request, const Reply& reply, std::uint64_t sequence);

// An error body in the endpoint's shape (OpenAI: {"error":{...}}, Anthropic: {"type":"error",...}).
std::string render_error(Endpoint endpoint, unsigned status, std::string_view message);

// Error body for requests that reached no LLM endpoint (404, 405): OpenAI's shape, the more common one.
std::string render_plain_error(unsigned status, std::string_view message);

}  // namespace krino::fake_llm
