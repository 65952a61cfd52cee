#pragma once
// What the fake LLM server answers: an ordered list of rules read from a JSON script.
// The format is documented for users in docs/fake-llm-server.md.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::fake_llm {

// The APIs the server speaks. Scripts name them "openai" (Chat Completions), "anthropic"
// (Messages), "responses" (OpenAI Responses) and "app": any request under /app/, standing in for a
// user's own HTTP service (a system under test), answered with a scripted or echoed JSON body.
enum class Endpoint { openai_chat, anthropic_messages, openai_responses, app };
inline constexpr Endpoint kEndpoints[] = {Endpoint::openai_chat, Endpoint::anthropic_messages,
                                          Endpoint::openai_responses, Endpoint::app};

// Ways a reply can go wrong on purpose, so the judge service's error handling can be exercised.
enum class FaultKind {
  none,
  status,          // an HTTP error status with a provider-shaped error body (and Retry-After if set)
  timeout,         // read the request, never answer; the connection stays open until the client leaves
  truncated,       // announce a Content-Length larger than the body sent, then close
  reset,           // close the connection with a TCP reset and no response
  malformed_json,  // HTTP 200 whose body is not JSON
};

struct Fault {
  FaultKind kind = FaultKind::none;
  unsigned status = 500;    // for FaultKind::status
  std::string retry_after;  // Retry-After header value; empty: no header
  std::string message;      // error message in the body; empty: a generic one
  std::string body;         // for malformed_json; empty: a fixed non-JSON text
};

// Token counts reported back. Unset counts are estimated from text length (about 4 bytes per token)
// so cost accounting sees plausible, deterministic numbers without every rule spelling them out.
struct Usage {
  std::optional<std::uint64_t> input_tokens;
  std::optional<std::uint64_t> output_tokens;
};

// A tool call the model makes, rendered in each API's shape (tool_calls, tool_use, function_call).
struct ToolCallReply {
  std::string name;
  std::string arguments = "{}";  // compact JSON object text
  std::string id;                // empty: one is made up from the response sequence
};

struct Reply {
  std::string content;          // the assistant text; deliberately not validated (may be broken JSON)
  std::vector<ToolCallReply> tool_calls;
  std::optional<std::string> body;  // app endpoint: the response body (default {"output": content} or an echo)
  std::optional<std::string> model;  // reported model; unset: echo the request's model
  std::optional<std::string> stop_reason;  // unset: "stop" (OpenAI) or "end_turn" (Anthropic)
  Usage usage;
  std::uint32_t latency_ms = 0;  // added to the server-wide latency
  Fault fault;
};

// All conditions that are set must hold for a rule to match.
struct Match {
  std::optional<Endpoint> endpoint;
  std::optional<std::string> model;     // equality with the request's "model"
  std::optional<std::string> contains;  // plain substring of the request's concatenated prompt text
};

struct Rule {
  Match match;
  Reply reply;
  std::optional<std::uint64_t> times;  // matches only this many requests, later ones fall through
};

struct Script {
  std::vector<Rule> rules;
  std::optional<Reply> fallback;  // the script's "default"; unset: HTTP 500 naming the unmatched prompt
};

// Throws std::invalid_argument naming the offending field when the script is not valid.
Script parse_script(std::string_view json_text);
Script load_script_file(const std::string& path);

std::string_view endpoint_name(Endpoint endpoint);  // "openai", "anthropic", "responses" or "app"
// "/v1/chat/completions", "/v1/messages", "/v1/responses" or "/app/" (a prefix: any path below it)
std::string_view endpoint_path(Endpoint endpoint);

}  // namespace krino::fake_llm
