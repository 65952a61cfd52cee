#pragma once
// The wire shapes of the APIs the server speaks: reading what a request asks, writing replies and
// errors as OpenAI Chat Completions, OpenAI Responses and Anthropic Messages clients expect them, and
// the JSON bodies of the stand-in app endpoint.
#include <cstdint>
#include <string>
#include <string_view>

#include "script.hpp"

namespace krino::fake_llm {

struct LlmRequest {
  Endpoint endpoint = Endpoint::openai_chat;
  std::string model;
  std::string prompt;  // system text and every message's text, joined with '\n': what rules match on
  // The app endpoint only: the request as received. Its prompt is its body, so `contains` matches it.
  std::string method;
  std::string path;
  std::string body;
};

// Throws std::invalid_argument when an LLM request's body is not a JSON object. An app request may
// carry anything (or nothing).
LlmRequest parse_llm_request(Endpoint endpoint, std::string_view body);

// A successful completion in the endpoint's shape. `sequence` makes response ids unique.
std::string render_completion(const LlmRequest& request, const Reply& reply, std::uint64_t sequence);

// An error body in the endpoint's shape (OpenAI: {"error":{...}}, Anthropic: {"type":"error",...}).
std::string render_error(Endpoint endpoint, unsigned status, std::string_view message);

// Error body for requests that reached no LLM endpoint (404, 405): OpenAI's shape, the more common one.
std::string render_plain_error(unsigned status, std::string_view message);

}  // namespace krino::fake_llm
