#pragma once
// One model as the LLM client reaches it: which provider and model to ask, the sampling defaults
// and the limits the client enforces. A judge (`judges:`) and the `openai` / `anthropic` task are
// both configured with these keys, read by one parser. The API key is read from the environment
// variable the config names, once, when the config is read.
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/llm/api_key.hpp"
#include "krino/core/net/url.hpp"

#include <boost/json/object.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

// openai: Chat Completions (also what vLLM, Ollama, llama.cpp server and LM Studio speak);
// openai_responses: the Responses API; anthropic: Messages.
enum class ProviderKind { openai, openai_responses, anthropic };

std::string_view provider_name(ProviderKind kind);  // "openai", "openai_responses" or "anthropic"

struct LlmConfig {
  std::string name;
  // How messages name this model: "judge 'strict'" for a judge; a model-calling task names itself
  // "task" instead (the same client calls the system under test).
  std::string role = "judge";
  ProviderKind provider = ProviderKind::openai;
  Url base_url;                 // default https://api.openai.com/v1 or https://api.anthropic.com/v1
  std::string model;
  std::string api_key_env;      // empty for local servers that want no key
  ApiKey api_key;               // the value of api_key_env
  double temperature = 0.0;
  std::optional<std::int64_t> seed;
  std::optional<std::int64_t> max_tokens;  // Anthropic requires one: 1024 unless configured
  std::int64_t timeout_ms = 60000;         // per HTTP attempt
  std::int64_t max_concurrency = 8;
  std::optional<std::int64_t> requests_per_minute;
  std::optional<std::int64_t> tokens_per_minute;
  std::int64_t max_retries = 4;
  // The whole of one call, every attempt and wait included: a retry whose wait would pass it is
  // not made, and the last attempt's timeout is cut to what is left. Default: 5 minutes, or
  // timeout_ms when that is longer.
  std::int64_t call_budget_ms = 300000;
  std::int64_t breaker_failures = 5;        // calls failed in a row that stop the asking; 0: never
  std::int64_t breaker_cooldown_ms = 30000;  // how long calls then fail at once before one probes
};

// "judge 'strict'", or the role alone for a model that is not a named judge ("task").
std::string describe_model_role(const LlmConfig& config);

// The keys parse_llm_config reads (docs/judges.md describes each). A caller reading them among
// options of its own uses this list to know which keys are the client's.
inline constexpr std::array<std::string_view, 14> kLlmConfigKeys = {
    "model",          "base_url",         "api_key_env",         "temperature",       "seed",
    "max_tokens",     "timeout_ms",       "max_concurrency",     "requests_per_minute", "tokens_per_minute",
    "max_retries",    "call_budget_ms",   "breaker_failures",    "breaker_cooldown_ms"};

// What a caller's role changes when a key is absent (or null).
struct LlmConfigDefaults {
  std::string api_key_env;         // empty: no key
  std::int64_t max_concurrency = 8;
};

// Reads kLlmConfigKeys from `object` for `provider`; other members are left to the caller (which
// rejects the ones it does not know). `where` names the object in messages ("judges.strict",
// "task"). Throws a configuration KrinoError naming the offending key ("task.temperature: ...");
// a missing key variable is named in the error, its value never is. Sets neither name nor role.
LlmConfig parse_llm_config(const boost::json::object& object, ProviderKind provider, const std::string& where,
                           const EnvironmentLookup& environment = process_environment(),
                           const LlmConfigDefaults& defaults = {});

}  // namespace krino::core
