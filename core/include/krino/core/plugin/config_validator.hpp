#pragma once
// Validates a component's user configuration against the JSON Schema the component publishes.
#include <boost/json/value.hpp>

#include <memory>
#include <string>
#include <vector>

namespace krino::core {

class ConfigValidator {
 public:
  // Throws std::invalid_argument when the schema text is not valid JSON or not a usable schema.
  explicit ConfigValidator(const std::string& schema_text);
  ~ConfigValidator();
  ConfigValidator(const ConfigValidator&) = delete;
  ConfigValidator& operator=(const ConfigValidator&) = delete;

  // Empty when `config` is valid; otherwise one readable line per problem ("/match_mode: ...").
  std::vector<std::string> validate(const boost::json::value& config) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace krino::core
