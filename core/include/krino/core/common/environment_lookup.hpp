#pragma once
// Looks up an environment variable; nullopt when it is not set. Injected wherever configuration
// reads the environment (API keys, ${VAR} in templates), so tests need no setenv.
#include <functional>
#include <optional>
#include <string>

namespace krino::core {

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& variable)>;

// The process's own environment (getenv).
EnvironmentLookup process_environment();

}  // namespace krino::core
