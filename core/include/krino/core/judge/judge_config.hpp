#pragma once
// One judge as configured in the experiment file (`judges:`): which provider and model to ask, the
// sampling defaults and the limits the judge service enforces. The API key is read from the
// environment variable the config names, once, when the config is loaded.
#include "krino/core/judge/api_key.hpp"
#include "krino/core/net/url.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

// openai: Chat Completions (also what vLLM, Ollama, llama.cpp server and LM Studio speak);
// openai_responses: the Responses API; anthropic: Messages.
enum class JudgeProviderKind { openai, openai_responses, anthropic };

std::string_view provider_name(JudgeProviderKind kind);  // "openai", "openai_responses" or "anthropic"

struct JudgeConfig {
  std::string name;
  // How messages name this model: "judge 'strict'" for a judge; a model-calling task names itself
  // "task" instead (the same service calls the system under test).
  std::string role = "judge";
  JudgeProviderKind provider = JudgeProviderKind::openai;
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
};

// Looks up an environment variable; nullopt when it is not set. Injected so tests need no setenv.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& variable)>;
EnvironmentLookup process_environment();

// Throws a configuration KrinoError naming the offending key ("judges.strict.temperature: ...").
// Unknown keys are errors. A missing key variable is named in the error; its value never is.
// `name` is the judge's name in the experiment file; a "name" member of `object` overrides it.
// `where` names the object in messages; empty means "judges.<name>".
// "judge 'strict'", or the role alone for a model that is not a named judge ("task").
std::string describe_model_role(const JudgeConfig& config);

JudgeConfig parse_judge_config(const boost::json::object& object, std::string name,
                               const EnvironmentLookup& environment = process_environment(), std::string where = {});

}  // namespace krino::core
