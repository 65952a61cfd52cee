// The canonical trace (krino.trace/1): what a trace extractor writes from a framework's raw output.
// Header-only, C++17. An extractor fills a Trace and returns it from its extract(); the registration
// macro (KRINO_TRACE_EXTRACTOR, <krino/plugin/trace_extractor.hpp>) writes to_json(). krino's own
// extractors fill it through TraceBuilder, a first-party helper in plugins/support/trace that is not
// installed.
//
//   {"output": "..." | null,
//    "toolCalls": [{"id", "name", "arguments": {}, "result", "metadata"}],   every call, in order
//    "reasoningSteps": ["..."],
//    "turns": [{"role", "content", "toolCalls"?, "toolCallId"?, "name"?}],     the conversation
//    "metrics": {"tokensIn", "tokensOut", "costUsd", "latencyMs",
//                "cachedTokensIn", "cacheCreationTokensIn", "reasoningTokensOut"},
//    "model": "..." | null,
//    "modelCalls": [{"model", "requestModel"?, "tokensIn", "tokensOut", ...}],  one per model reply
//    "notes": ["..."]}                                                         what was left out, and why
//
// Token conventions, the same for every provider (each extractor converts to them):
//   tokensIn            every input token of the call(s), cached ones included
//   cachedTokensIn      of tokensIn, those read from the provider's prompt cache
//   cacheCreationTokensIn  of tokensIn, those written to the cache (Anthropic, OTel)
//   tokensOut           every output token, reasoning included
//   reasoningTokensOut  of tokensOut, the hidden reasoning ("thinking") tokens
#ifndef KRINO_TRACE_TRACE_HPP
#define KRINO_TRACE_TRACE_HPP

#include <krino/agent/tool_call.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace krino::trace {

// Token counts of one model call, or of a whole trace. A count nobody reported stays nullopt.
struct Usage {
  std::optional<int64_t> tokens_in;
  std::optional<int64_t> tokens_out;
  std::optional<int64_t> cached_tokens_in;
  std::optional<int64_t> cache_creation_tokens_in;
  std::optional<int64_t> reasoning_tokens_out;

  bool empty() const {
    return !tokens_in && !tokens_out && !cached_tokens_in && !cache_creation_tokens_in && !reasoning_tokens_out;
  }

  // Adds `other` count by count: a count known on either side is known in the sum.
  void add(const Usage& other) {
    add_count(tokens_in, other.tokens_in);
    add_count(tokens_out, other.tokens_out);
    add_count(cached_tokens_in, other.cached_tokens_in);
    add_count(cache_creation_tokens_in, other.cache_creation_tokens_in);
    add_count(reasoning_tokens_out, other.reasoning_tokens_out);
  }

  // The counts as krino.trace/1 metrics members; the optional details only when known.
  void write(boost::json::object& out) const {
    put(out, "tokensIn", tokens_in, true);
    put(out, "tokensOut", tokens_out, true);
    put(out, "cachedTokensIn", cached_tokens_in, false);
    put(out, "cacheCreationTokensIn", cache_creation_tokens_in, false);
    put(out, "reasoningTokensOut", reasoning_tokens_out, false);
  }

 private:
  static void add_count(std::optional<int64_t>& sum, const std::optional<int64_t>& count) {
    if (count) sum = sum.value_or(0) + *count;
  }
  static void put(boost::json::object& out, const char* key, const std::optional<int64_t>& count, bool always) {
    if (count) out[key] = *count;
    else if (always) out[key] = nullptr;
  }
};

// One reply of a model within the trace: which model, what it cost in tokens (and money, when
// the source says).
struct ModelCall {
  std::string model;          // the model that answered, as the reply names it ("gpt-4o-2024-08-06")
  std::string request_model;  // the model the request asked for ("gpt-4o"), when known
  Usage usage;
  std::optional<double> cost_usd;

  boost::json::object to_json() const {
    boost::json::object out;
    out["model"] = model.empty() ? boost::json::value(nullptr) : boost::json::value(model);
    if (!request_model.empty()) out["requestModel"] = request_model;
    usage.write(out);
    if (cost_usd) out["costUsd"] = *cost_usd;
    return out;
  }
};

// One message of the conversation.
struct Turn {
  std::string role;                    // "system", "user", "assistant" or "tool"
  std::optional<std::string> content;  // nullopt: an assistant message that only calls tools
  std::vector<agent::ToolCall> tool_calls;  // an assistant message's calls, results bound
  std::string tool_call_id;            // a tool message: the call it answers ("" when unknown)
  std::string name;                    // a tool message: the tool's name, when known

  boost::json::object to_json() const {
    boost::json::object out;
    out["role"] = role;
    out["content"] = content ? boost::json::value(*content) : boost::json::value(nullptr);
    if (!tool_calls.empty()) out["toolCalls"] = agent::write_tool_calls(tool_calls);
    if (!tool_call_id.empty()) out["toolCallId"] = tool_call_id;
    if (!name.empty()) out["name"] = name;
    return out;
  }
};

struct Trace {
  boost::json::value output;  // the final response (a string), or null
  std::vector<agent::ToolCall> tool_calls;
  std::vector<std::string> reasoning_steps;
  std::vector<Turn> turns;
  std::string model;  // the model of the final reply (or the only model); "" when unknown
  std::vector<ModelCall> model_calls;
  Usage usage;
  std::optional<double> cost_usd;    // only when the source reports a cost itself
  std::optional<double> latency_ms;  // only when the source records timing
  std::vector<std::string> notes;

  boost::json::object to_json() const {
    boost::json::object out;
    out["output"] = output;
    out["toolCalls"] = agent::write_tool_calls(tool_calls);
    boost::json::array steps;
    for (const std::string& step : reasoning_steps) steps.emplace_back(step);
    out["reasoningSteps"] = std::move(steps);
    boost::json::array messages;
    for (const Turn& turn : turns) messages.push_back(turn.to_json());
    out["turns"] = std::move(messages);
    boost::json::object metrics;
    usage.write(metrics);
    metrics["costUsd"] = cost_usd ? boost::json::value(*cost_usd) : boost::json::value(nullptr);
    metrics["latencyMs"] = latency_ms ? boost::json::value(*latency_ms) : boost::json::value(nullptr);
    out["metrics"] = std::move(metrics);
    out["model"] = model.empty() ? boost::json::value(nullptr) : boost::json::value(model);
    boost::json::array calls;
    for (const ModelCall& call : model_calls) calls.push_back(call.to_json());
    out["modelCalls"] = std::move(calls);
    boost::json::array written_notes;
    for (const std::string& note : notes) written_notes.emplace_back(note);
    out["notes"] = std::move(written_notes);
    return out;
  }
};

}  // namespace krino::trace

#endif  // KRINO_TRACE_TRACE_HPP
