// Token usage as model APIs and frameworks report it, converted to the conventions of trace.hpp
// (input tokens include cached ones; output tokens include reasoning). Header-only, C++17.
//
// Recognised in a reply body (the first that is present wins):
//   usage_metadata   LangChain / LangSmith: input_tokens (already the sum of every input kind),
//                    output_tokens, input_token_details.{cache_read, cache_creation},
//                    output_token_details.reasoning
//   usage            OpenAI Chat Completions: prompt_tokens (cached included), completion_tokens
//                    (reasoning included), prompt_tokens_details.cached_tokens,
//                    completion_tokens_details.reasoning_tokens; when total_tokens exceeds
//                    prompt + completion (Gemini's OpenAI-compatible endpoint leaves the thinking
//                    out of completion_tokens) the difference is counted as reasoning output.
//                    OpenAI Responses: input_tokens, output_tokens, input_tokens_details.cached_tokens,
//                    output_tokens_details.reasoning_tokens.
//                    Anthropic Messages: input_tokens EXCLUDES cache_read_input_tokens and
//                    cache_creation_input_tokens, so all three are added up.
//   usageMetadata    Gemini: promptTokenCount (cached included), candidatesTokenCount +
//                    thoughtsTokenCount (Gemini counts thinking apart), cachedContentTokenCount
//   llm_output.token_usage   LangChain's legacy OpenAI form (prompt_tokens, completion_tokens)
#ifndef KRINO_SUPPORT_TRACE_USAGE_HPP
#define KRINO_SUPPORT_TRACE_USAGE_HPP

#include <krino/trace/trace.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::trace {

// A non-negative whole number at `key` (an integer, a whole double, or a decimal string as OTLP
// writes 64-bit integers); nullopt otherwise.
inline std::optional<int64_t> count_member(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr) return std::nullopt;
  if (value->is_int64()) return value->get_int64() >= 0 ? std::optional<int64_t>(value->get_int64()) : std::nullopt;
  if (value->is_uint64())
    return value->get_uint64() <= static_cast<uint64_t>(INT64_MAX) ? std::optional<int64_t>(static_cast<int64_t>(value->get_uint64()))
                                                                    : std::nullopt;
  if (value->is_double()) {
    const double d = value->get_double();
    if (d >= 0 && d < 9e15 && d == static_cast<double>(static_cast<int64_t>(d))) return static_cast<int64_t>(d);
    return std::nullopt;
  }
  if (value->is_string()) {
    const std::string_view text = value->get_string();
    if (text.empty() || text.size() > 18) return std::nullopt;
    int64_t n = 0;
    for (char c : text) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + (c - '0');
    }
    return n;
  }
  return std::nullopt;
}

namespace detail {

inline const boost::json::object* object_member(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_object() ? &value->get_object() : nullptr;
}

inline std::optional<int64_t> nested_count(const boost::json::object& object, std::string_view outer, std::string_view key) {
  const boost::json::object* inner = object_member(object, outer);
  return inner != nullptr ? count_member(*inner, key) : std::nullopt;
}

inline std::optional<int64_t> sum(std::optional<int64_t> a, std::optional<int64_t> b) {
  if (!a) return b;
  if (!b) return a;
  return *a + *b;
}

// The "usage" object of OpenAI (both APIs) and Anthropic.
inline Usage read_api_usage(const boost::json::object& u) {
  Usage usage;
  if (u.contains("prompt_tokens") || u.contains("completion_tokens")) {
    usage.tokens_in = count_member(u, "prompt_tokens");
    usage.tokens_out = count_member(u, "completion_tokens");
    usage.cached_tokens_in = nested_count(u, "prompt_tokens_details", "cached_tokens");
    usage.reasoning_tokens_out = nested_count(u, "completion_tokens_details", "reasoning_tokens");
    const std::optional<int64_t> total = count_member(u, "total_tokens");
    if (total && usage.tokens_in && usage.tokens_out && *total > *usage.tokens_in + *usage.tokens_out) {
      const int64_t hidden = *total - *usage.tokens_in - *usage.tokens_out;
      usage.tokens_out = *usage.tokens_out + hidden;
      usage.reasoning_tokens_out = usage.reasoning_tokens_out.value_or(0) + hidden;
    }
    return usage;
  }
  const std::optional<int64_t> cache_read = count_member(u, "cache_read_input_tokens");
  const std::optional<int64_t> cache_creation = count_member(u, "cache_creation_input_tokens");
  usage.tokens_in = sum(sum(count_member(u, "input_tokens"), cache_read), cache_creation);
  usage.tokens_out = count_member(u, "output_tokens");
  usage.cached_tokens_in = cache_read ? cache_read : nested_count(u, "input_tokens_details", "cached_tokens");
  usage.cache_creation_tokens_in = cache_creation;
  usage.reasoning_tokens_out = nested_count(u, "output_tokens_details", "reasoning_tokens");
  return usage;
}

}  // namespace detail

// LangChain's usage_metadata object on its own (also what LangSmith stores).
inline Usage read_langchain_usage(const boost::json::object& u) {
  Usage usage;
  usage.tokens_in = count_member(u, "input_tokens");
  usage.tokens_out = count_member(u, "output_tokens");
  usage.cached_tokens_in = detail::nested_count(u, "input_token_details", "cache_read");
  usage.cache_creation_tokens_in = detail::nested_count(u, "input_token_details", "cache_creation");
  usage.reasoning_tokens_out = detail::nested_count(u, "output_token_details", "reasoning");
  return usage;
}

// The usage a reply body reports, in any of the shapes above; empty when it reports none.
inline Usage read_usage(const boost::json::object& body) {
  if (const boost::json::object* u = detail::object_member(body, "usage_metadata")) return read_langchain_usage(*u);
  if (const boost::json::object* u = detail::object_member(body, "usage")) return detail::read_api_usage(*u);
  if (const boost::json::object* u = detail::object_member(body, "usageMetadata")) {
    Usage usage;
    usage.tokens_in = count_member(*u, "promptTokenCount");
    const std::optional<int64_t> thoughts = count_member(*u, "thoughtsTokenCount");
    usage.tokens_out = detail::sum(count_member(*u, "candidatesTokenCount"), thoughts);
    usage.cached_tokens_in = count_member(*u, "cachedContentTokenCount");
    usage.reasoning_tokens_out = thoughts;
    return usage;
  }
  if (const boost::json::object* llm_output = detail::object_member(body, "llm_output"))
    if (const boost::json::object* u = detail::object_member(*llm_output, "token_usage")) return detail::read_api_usage(*u);
  return Usage();
}

// A model reply as a ModelCall: its usage, and the model it names ("model", or Gemini's
// "modelVersion"); `request`, when given, names the model that was asked for.
inline ModelCall read_model_call(const boost::json::object& response, const boost::json::object* request = nullptr) {
  ModelCall call;
  for (std::string_view key : {"model", "modelVersion"}) {
    const boost::json::value* model = response.if_contains(key);
    if (model != nullptr && model->is_string() && !model->get_string().empty()) {
      call.model = std::string(model->get_string());
      break;
    }
  }
  if (request != nullptr)
    if (const boost::json::value* model = request->if_contains("model"); model != nullptr && model->is_string())
      call.request_model = std::string(model->get_string());
  if (call.request_model == call.model) call.request_model.clear();  // said once is enough
  call.usage = read_usage(response);
  return call;
}

}  // namespace krino::trace

#endif  // KRINO_SUPPORT_TRACE_USAGE_HPP
