#include "krino/core/llm/llm_config.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <stdexcept>

namespace krino::core {
namespace {

namespace json = boost::json;

class Reader {
 public:
  Reader(const json::object& object, std::string where) : object_(object), where_(std::move(where)) {}

  const std::string& where() const { return where_; }
  std::string at(std::string_view key) const { return where_ + "." + std::string(key); }

  const json::value* find(std::string_view key) const {
    auto it = object_.find(key);
    return it == object_.end() || it->value().is_null() ? nullptr : &it->value();
  }

  std::optional<std::string> string(std::string_view key) const {
    const auto* value = find(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_string()) throw config_error(at(key) + ": expected a string");
    return std::string(value->get_string());
  }

  std::optional<std::int64_t> integer(std::string_view key, std::int64_t min, std::int64_t max) const {
    const auto* value = find(key);
    if (value == nullptr) return std::nullopt;
    std::int64_t n = 0;
    if (value->is_int64()) n = value->get_int64();
    else if (value->is_uint64() && value->get_uint64() <= static_cast<std::uint64_t>(max)) n = static_cast<std::int64_t>(value->get_uint64());
    else if (value->is_double() && value->get_double() == static_cast<double>(static_cast<std::int64_t>(value->get_double())))
      n = static_cast<std::int64_t>(value->get_double());  // YAML and some writers give 8.0 for 8
    else throw config_error(at(key) + ": expected a whole number");
    if (n < min || n > max)
      throw config_error(at(key) + ": must be between " + std::to_string(min) + " and " + std::to_string(max) +
                         ", got " + std::to_string(n));
    return n;
  }

  std::optional<double> number(std::string_view key, double min, double max) const {
    const auto* value = find(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_number()) throw config_error(at(key) + ": expected a number");
    double n = value->to_number<double>();
    if (!(n >= min && n <= max))
      throw config_error(at(key) + ": must be between " + json::serialize(json::value(min)) + " and " +
                         json::serialize(json::value(max)));
    return n;
  }

 private:
  const json::object& object_;
  std::string where_;
};

bool is_variable_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

ApiKey read_key(const Reader& reader, const std::string& variable, const EnvironmentLookup& environment) {
  if (variable.empty()) return {};
  // Never echo a value that is not a variable name: it may be the key itself, pasted in by mistake.
  if (!is_variable_name(variable))
    throw config_error(reader.at("api_key_env") +
                       ": must be the NAME of an environment variable (letters, digits, '_'), not the key itself");
  auto value = environment(variable);
  if (!value)
    throw config_error(reader.at("api_key_env") + ": the environment variable " + variable +
                       " is not set; export it with the API key");
  if (value->empty()) throw config_error(reader.at("api_key_env") + ": the environment variable " + variable + " is empty");
  // A line break in a header value would end the header and start another: a key with one would
  // inject into every request. The value is never shown, only the variable.
  if (std::any_of(value->begin(), value->end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }))
    throw config_error(reader.at("api_key_env") + ": the environment variable " + variable +
                       " holds a control character (a line break or tab?); an API key is one line of printable characters");
  return ApiKey(std::move(*value));
}

}  // namespace

std::string_view provider_name(ProviderKind kind) {
  switch (kind) {
    case ProviderKind::openai: return "openai";
    case ProviderKind::openai_responses: return "openai_responses";
    case ProviderKind::anthropic: return "anthropic";
  }
  return "openai";
}

std::string describe_model_role(const LlmConfig& config) {
  return config.role == "judge" ? "judge '" + config.name + "'" : config.role;
}

LlmConfig parse_llm_config(const json::object& object, ProviderKind provider, const std::string& where,
                           const EnvironmentLookup& environment, const LlmConfigDefaults& defaults) {
  Reader reader(object, where);
  LlmConfig config;
  config.provider = provider;

  auto model = reader.string("model");
  if (!model || model->empty()) throw config_error(reader.at("model") + ": is required");
  config.model = std::move(*model);

  std::string base_url = reader.string("base_url").value_or(
      config.provider == ProviderKind::anthropic ? "https://api.anthropic.com/v1" : "https://api.openai.com/v1");
  try {
    config.base_url = parse_url(base_url);
  } catch (const std::invalid_argument& error) {
    throw config_error(reader.at("base_url") + ": " + error.what());
  }

  config.api_key_env = reader.string("api_key_env").value_or(defaults.api_key_env);
  config.api_key = read_key(reader, config.api_key_env, environment);

  config.temperature = reader.number("temperature", 0.0, 2.0).value_or(0.0);
  config.seed = reader.integer("seed", INT64_MIN, INT64_MAX);
  config.max_tokens = reader.integer("max_tokens", 1, 1'000'000);
  if (!config.max_tokens && config.provider == ProviderKind::anthropic) config.max_tokens = 1024;
  config.timeout_ms = reader.integer("timeout_ms", 1, 3'600'000).value_or(60000);
  config.max_concurrency = reader.integer("max_concurrency", 1, 100'000).value_or(defaults.max_concurrency);
  config.requests_per_minute = reader.integer("requests_per_minute", 1, 100'000'000);
  config.tokens_per_minute = reader.integer("tokens_per_minute", 1, 1'000'000'000'000);
  config.max_retries = reader.integer("max_retries", 0, 100).value_or(4);
  config.call_budget_ms = reader.integer("call_budget_ms", 1, 86'400'000).value_or(std::max<std::int64_t>(300000, config.timeout_ms));
  config.breaker_failures = reader.integer("breaker_failures", 0, 1'000'000).value_or(5);
  config.breaker_cooldown_ms = reader.integer("breaker_cooldown_ms", 1, 86'400'000).value_or(30000);
  return config;
}

}  // namespace krino::core
