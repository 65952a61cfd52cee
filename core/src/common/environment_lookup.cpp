#include "krino/core/common/environment_lookup.hpp"

#include <cstdlib>

namespace krino::core {

EnvironmentLookup process_environment() {
  return [](const std::string& variable) -> std::optional<std::string> {
    const char* value = std::getenv(variable.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

}  // namespace krino::core
