#include "server_options.hpp"

#include <cstdlib>

namespace krino::server {
namespace {

// A blank value counts as unset, as an empty secret in CI often is.
std::string option_or_environment(const krino::Config& config, const char* key, const char* variable,
                                  const EnvironmentLookup& environment) {
  if (config.has(key)) return config.get_string(key);
  if (environment) {
    if (auto value = environment(variable); value && value->find_first_not_of(" \t\r\n") != std::string::npos)
      return *value;
  }
  return {};
}

}  // namespace

EnvironmentLookup process_environment() {
  return [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

std::string normalized_server_url(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
    throw krino::invalid_argument("the server URL '" + url + "' is not an http:// or https:// URL");
  if (url.find_first_of(" \t\r\n") != std::string::npos)
    throw krino::invalid_argument("the server URL must not contain white space");
  return url;
}

ServerOptions ServerOptions::from_config(krino::Config config, const EnvironmentLookup& environment) {
  config.use_schema_defaults(kServerOptionsSchema);
  static constexpr const char* kKnown[] = {"url", "project", "experiment", "api_key", "batch_size", "batch_ms",
                                           "spool", "allow_loss", "retries", "timeout_ms", "finish_timeout_ms"};
  for (const auto& entry : config.json()) {
    bool known = false;
    for (const char* key : kKnown) known = known || entry.key() == key;
    if (!known) throw krino::invalid_argument("unknown option '" + std::string(entry.key()) + "'");
  }
  ServerOptions options;
  options.url = option_or_environment(config, "url", "KRINO_SERVER_URL", environment);
  if (options.url.empty())
    throw krino::invalid_argument("the server reporter needs the server's URL: set option 'url' or KRINO_SERVER_URL");
  options.url = normalized_server_url(options.url);
  options.project = option_or_environment(config, "project", "KRINO_PROJECT", environment);
  if (options.project.empty())
    throw krino::invalid_argument("the server reporter needs a project: set option 'project' or KRINO_PROJECT");
  options.experiment = config.has("experiment") ? config.get_string("experiment") : std::string();
  options.api_key = option_or_environment(config, "api_key", "KRINO_API_KEY", environment);
  options.batch_size = config.get_int("batch_size");
  options.batch_ms = config.get_int("batch_ms");
  options.spool = config.get_string("spool");
  options.allow_loss = config.get_bool("allow_loss");
  options.retries = config.get_int("retries");
  options.timeout_ms = config.get_int("timeout_ms");
  options.finish_timeout_ms = config.get_int("finish_timeout_ms");
  if (options.batch_size < 1 || options.batch_size > 10000)
    throw krino::invalid_argument("option 'batch_size' must be between 1 and 10000");
  if (options.batch_ms < 0) throw krino::invalid_argument("option 'batch_ms' must not be negative");
  if (options.retries < 0 || options.retries > 10) throw krino::invalid_argument("option 'retries' must be between 0 and 10");
  if (options.timeout_ms < 1) throw krino::invalid_argument("option 'timeout_ms' must be at least 1");
  if (options.finish_timeout_ms < 0) throw krino::invalid_argument("option 'finish_timeout_ms' must not be negative");
  return options;
}

}  // namespace krino::server
