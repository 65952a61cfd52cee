#include "krino/core/llm/judge_config.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <optional>

namespace krino::core {
namespace {

namespace json = boost::json;

// A judge's own keys; every other key is the LLM client's (kLlmConfigKeys).
constexpr std::array<std::string_view, 2> kJudgeKeys = {"name", "provider"};

bool known_judge_key(std::string_view key) {
  return std::find(kJudgeKeys.begin(), kJudgeKeys.end(), key) != kJudgeKeys.end() ||
         std::find(kLlmConfigKeys.begin(), kLlmConfigKeys.end(), key) != kLlmConfigKeys.end();
}

std::optional<std::string> judge_string(const json::object& object, std::string_view key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || it->value().is_null()) return std::nullopt;
  if (!it->value().is_string()) throw config_error(where + "." + std::string(key) + ": expected a string");
  return std::string(it->value().get_string());
}

}  // namespace

LlmConfig parse_judge_config(const json::object& object, std::string name, const EnvironmentLookup& environment,
                             std::string where) {
  if (auto it = object.find("name"); it != object.end() && it->value().is_string()) name = it->value().get_string();
  if (where.empty()) where = "judges." + (name.empty() ? std::string("default") : name);
  for (const auto& member : object) {
    if (!known_judge_key(member.key())) {
      std::string hint = member.key() == "api_key" ? " (name the environment variable that holds the key in api_key_env)" : "";
      throw config_error(where + "." + std::string(member.key()) + ": unknown key" + hint);
    }
  }

  name = judge_string(object, "name", where).value_or(name);
  auto provider = judge_string(object, "provider", where);
  if (!provider) throw config_error(where + ".provider: is required (openai, openai_responses or anthropic)");
  ProviderKind kind = ProviderKind::openai;
  if (*provider == "openai") kind = ProviderKind::openai;
  else if (*provider == "openai_responses") kind = ProviderKind::openai_responses;
  else if (*provider == "anthropic") kind = ProviderKind::anthropic;
  else throw config_error(where + ".provider: expected openai, openai_responses or anthropic, got '" + *provider + "'");

  LlmConfig config = parse_llm_config(object, kind, where, environment);
  config.name = std::move(name);
  return config;
}

}  // namespace krino::core
